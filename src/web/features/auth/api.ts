import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest, Me, SignupRequest } from '#shared/contracts/auth';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

// The session check runs on every first visit: its schemas are imported on demand so zod stays out of the entry chunk.
const authContracts = () => import('#shared/contracts/auth');
const commonContracts = () => import('#shared/contracts/common');

export const ME_QUERY_KEY = QUERY_KEYS.me;

/** The signed-in user, or null when there is no session. */
export async function fetchMe(): Promise<Me | null> {
  try {
    return await apiRequest('/api/me', async () => (await authContracts()).meResponseSchema);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useMe() {
  return useQuery({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, staleTime: 15_000 });
}

export const login = (body: LoginRequest) => apiRequest('/api/auth/login', async () => (await authContracts()).sessionResponseSchema, { method: 'POST', body });
export const signup = (body: SignupRequest) => apiRequest('/api/auth/signup', async () => (await authContracts()).sessionResponseSchema, { method: 'POST', body });
export const logout = () => apiRequest('/api/auth/logout', async () => (await commonContracts()).okResponseSchema, { method: 'POST' });
export const requestPasswordReset = (email: string) =>
  apiRequest('/api/auth/forgot-password', async () => (await authContracts()).forgotPasswordResponseSchema, { method: 'POST', body: { email } });
export const resetPassword = (token: string, password: string) =>
  apiRequest('/api/auth/reset-password', async () => (await commonContracts()).okResponseSchema, { method: 'POST', body: { token, password } });
export const checkHealth = () => apiRequest('/api/health', async () => (await import('./health-schema.ts')).healthResponseSchema);

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
