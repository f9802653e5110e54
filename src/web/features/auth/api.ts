import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  forgotPasswordResponseSchema,
  meResponseSchema,
  sessionResponseSchema,
  type LoginRequest,
  type Me,
  type SignupRequest,
} from '../../../shared/contracts/auth.ts';
import { okResponseSchema } from '../../../shared/contracts/common.ts';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

export const ME_QUERY_KEY = QUERY_KEYS.me;

/** The signed-in user, or null when there is no session. */
export async function fetchMe(): Promise<Me | null> {
  try {
    return await apiRequest('/api/me', meResponseSchema);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useMe() {
  return useQuery({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, staleTime: 15_000 });
}

export const login = (body: LoginRequest) => apiRequest('/api/auth/login', sessionResponseSchema, { method: 'POST', body });
export const signup = (body: SignupRequest) => apiRequest('/api/auth/signup', sessionResponseSchema, { method: 'POST', body });
export const logout = () => apiRequest('/api/auth/logout', okResponseSchema, { method: 'POST' });
export const requestPasswordReset = (email: string) =>
  apiRequest('/api/auth/forgot-password', forgotPasswordResponseSchema, { method: 'POST', body: { email } });
export const resetPassword = (token: string, password: string) =>
  apiRequest('/api/auth/reset-password', okResponseSchema, { method: 'POST', body: { token, password } });
export const checkHealth = () => apiRequest('/api/health', z.object({ status: z.literal('ok') }));

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
