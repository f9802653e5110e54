import { useQueryClient } from '@tanstack/react-query';
import type { LoginRequest, SignupRequest } from '#shared/contracts/auth';
import { apiRequest } from '../../lib/api.ts';
import { ME_QUERY_KEY } from '../../lib/session.ts';

const authContracts = () => import('#shared/contracts/auth');
const commonContracts = () => import('#shared/contracts/common');

export const login = (body: LoginRequest) => apiRequest('/api/auth/login', async () => (await authContracts()).sessionResponseSchema, { method: 'POST', body });
export const signup = (body: SignupRequest) =>
  apiRequest('/api/auth/signup', async () => (await authContracts()).sessionResponseSchema, { method: 'POST', body });
export const logout = () => apiRequest('/api/auth/logout', async () => (await commonContracts()).okResponseSchema, { method: 'POST' });
export const requestPasswordReset = (email: string) =>
  apiRequest('/api/auth/forgot-password', async () => (await authContracts()).forgotPasswordResponseSchema, { method: 'POST', body: { email } });
export const resetPassword = (token: string, password: string) =>
  apiRequest('/api/auth/reset-password', async () => (await commonContracts()).okResponseSchema, { method: 'POST', body: { token, password } });

/** Signs out on the server and forgets every cached answer of the old session. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return async () => {
    try {
      await logout();
    } finally {
      queryClient.clear();
      queryClient.setQueryData(ME_QUERY_KEY, null);
    }
  };
}
