import { apiRequest } from '../../lib/api.ts';

const contracts = () => import('#shared/contracts/contact-verification');

export const CONTACT_STATUS_QUERY_KEY = ['contact-verification'] as const;

export const fetchContactStatus = () => apiRequest('/api/contact-verification', async () => (await contracts()).contactStatusResponseSchema);
export const verifyEmailLink = (token: string) =>
  apiRequest('/api/contact-verification/email/verify', async () => (await contracts()).verifyEmailResponseSchema, { method: 'POST', body: { token } });
export const resendEmailLink = () =>
  apiRequest('/api/contact-verification/email/resend', async () => (await contracts()).contactMessageResponseSchema, { method: 'POST' });
export const changeEmail = (body: { currentPassword: string; newEmail: string }) =>
  apiRequest('/api/contact-verification/email/change', async () => (await contracts()).contactMessageResponseSchema, { method: 'POST', body });
export const sendPhoneCode = () =>
  apiRequest('/api/contact-verification/phone/send-code', async () => (await contracts()).contactMessageResponseSchema, { method: 'POST' });
export const verifyPhoneCode = (code: string) =>
  apiRequest('/api/contact-verification/phone/verify', async () => (await contracts()).contactMessageResponseSchema, { method: 'POST', body: { code } });
