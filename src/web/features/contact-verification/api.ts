import { contactMessageResponseSchema, contactStatusResponseSchema, verifyEmailResponseSchema } from '#shared/contracts/contact-verification';
import { apiRequest } from '../../lib/api.ts';

export const CONTACT_STATUS_QUERY_KEY = ['contact-verification'] as const;

export const fetchContactStatus = () => apiRequest('/api/contact-verification', contactStatusResponseSchema);
export const verifyEmailLink = (token: string) =>
  apiRequest('/api/contact-verification/email/verify', verifyEmailResponseSchema, { method: 'POST', body: { token } });
export const resendEmailLink = () => apiRequest('/api/contact-verification/email/resend', contactMessageResponseSchema, { method: 'POST' });
export const changeEmail = (body: { currentPassword: string; newEmail: string }) =>
  apiRequest('/api/contact-verification/email/change', contactMessageResponseSchema, { method: 'POST', body });
export const sendPhoneCode = () => apiRequest('/api/contact-verification/phone/send-code', contactMessageResponseSchema, { method: 'POST' });
export const verifyPhoneCode = (code: string) =>
  apiRequest('/api/contact-verification/phone/verify', contactMessageResponseSchema, { method: 'POST', body: { code } });
