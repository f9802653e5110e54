import { useQuery } from '@tanstack/react-query';
import { kycStatusResponseSchema } from '#shared/contracts/kyc';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

/** Under the wallet prefix: a 'wallet.updated' event (a PAN checked, a deposit credited) refreshes it. */
export const KYC_QUERY_KEY = [...QUERY_KEYS.wallet, 'kyc'] as const;

export function useKycStatus() {
  return useQuery({
    queryKey: KYC_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest('/api/kyc', kycStatusResponseSchema, { signal }),
  });
}
