import { useQuery } from '@tanstack/react-query';
import type { Me } from '#shared/contracts/auth';
import { ApiError, apiRequest } from './api.ts';
import { QUERY_KEYS } from './query-keys.ts';

// Apart from the sign-in calls (features/auth/api.ts): every page's guard checks the session, so this file loads with the app's entry,
// and the login, sign-up and password calls stay out of the landing page's first JavaScript.
// The session check runs on every first visit: its schemas are imported on demand so zod stays out of the entry chunk.
const authContracts = () => import('#shared/contracts/auth');

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
