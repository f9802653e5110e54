import { useQuery } from '@tanstack/react-query';
import { securityPausesResponseSchema } from '#shared/contracts/security';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

/** Under the wallet's prefix, so that one live event about the customer's money refreshes the pauses too. */
export const SECURITY_PAUSES_QUERY_KEY = [...QUERY_KEYS.wallet, 'security-pauses'] as const;

/** Withdrawals and transfers paused after a security change, shown before the customer types anything. */
export function useSecurityPauses() {
  return useQuery({ queryKey: SECURITY_PAUSES_QUERY_KEY, queryFn: () => apiRequest('/api/security/pauses', securityPausesResponseSchema) });
}
