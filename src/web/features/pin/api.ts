import { okResponseSchema } from '#shared/contracts/common';
import { pinResetLinkResponseSchema, resetPinResponseSchema, verifyPinResponseSchema } from '#shared/contracts/pin';
import { apiRequest } from '../../lib/api.ts';

export const verifyPin = (pin: string) => apiRequest('/api/pin/verify', verifyPinResponseSchema, { method: 'POST', body: { pin } });
export const setUpPin = (pin: string) => apiRequest('/api/pin/setup', okResponseSchema, { method: 'POST', body: { pin } });
export const requestPinResetLink = (password: string) => apiRequest('/api/pin/reset-link', pinResetLinkResponseSchema, { method: 'POST', body: { password } });
export const resetPin = (token: string, pin: string) => apiRequest('/api/pin/reset', resetPinResponseSchema, { method: 'POST', body: { token, pin } });
export const changePin = (currentPin: string, newPin: string) =>
  apiRequest('/api/pin/change', okResponseSchema, { method: 'POST', body: { currentPin, newPin } });
