import { useQuery } from '@tanstack/react-query';
import { resetLinkCheckResponseSchema } from '#shared/contracts/auth';
import { apiRequest } from '../../lib/api.ts';

export type ResetLinkKind = 'password' | 'pin';

/** Asks whether an e-mailed reset link still works; nothing is used up. */
export const checkResetLink = (kind: ResetLinkKind, token: string) =>
  apiRequest(kind === 'password' ? '/api/auth/reset-password/check' : '/api/pin/reset/check', resetLinkCheckResponseSchema, {
    method: 'POST',
    body: { token },
  });

/**
 * Checks a reset link as soon as its page opens, so that an expired or used link says so before
 * anything is typed. `valid` is undefined while asking; a check that fails to get an answer counts
 * as working, because submitting checks the link for real anyway.
 */
export function useResetLinkCheck(kind: ResetLinkKind, token: string): { valid: boolean | undefined } {
  const check = useQuery({
    queryKey: ['reset-link', kind, token],
    queryFn: () => checkResetLink(kind, token),
    enabled: token !== '',
    staleTime: Infinity,
    retry: false,
  });
  if (token === '') return { valid: false };
  if (check.isPending) return { valid: undefined };
  return { valid: check.data?.valid ?? true };
}
