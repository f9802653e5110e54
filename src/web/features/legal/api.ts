import { useQuery } from '@tanstack/react-query';
import { consentStatusResponseSchema, operatorIdentityResponseSchema } from '#shared/contracts/operator-identity';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

/** Under the public settings' prefix: an admin's save of the settings refreshes it. */
export const OPERATOR_IDENTITY_QUERY_KEY = [...QUERY_KEYS.publicSettings, 'operator'] as const;
export const CONSENT_QUERY_KEY = [...QUERY_KEYS.wallet, 'consent'] as const;

export function useOperatorIdentity() {
  return useQuery({
    queryKey: OPERATOR_IDENTITY_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest('/api/legal/operator', operatorIdentityResponseSchema, { signal }),
    staleTime: 60_000,
  });
}

export function useConsentStatus() {
  return useQuery({ queryKey: CONSENT_QUERY_KEY, queryFn: ({ signal }) => apiRequest('/api/kyc/consent', consentStatusResponseSchema, { signal }) });
}

/** Whether the customer has accepted the current consent and privacy notice (KYC shows its checks only then). */
export function useConsentAccepted(): boolean {
  const consent = useConsentStatus();
  return typeof consent.data?.acceptedAt === 'string';
}

export const acceptConsent = (noticeVersion: string) =>
  apiRequest('/api/kyc/consent', consentStatusResponseSchema, { method: 'POST', body: { noticeVersion } });
