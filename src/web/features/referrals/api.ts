import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { referralEarningsPageSchema, referralSummarySchema, referredPeoplePageSchema } from '#shared/contracts/referrals';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

export const REFERRAL_PAGE_SIZE = 20;

/** Under the wallet prefix: a referral reward arrives with a 'wallet.updated' event, which refreshes these. */
export const REFERRAL_QUERY_KEYS = {
  summary: [...QUERY_KEYS.wallet, 'referrals', 'summary'],
  more: (list: ReferralList, firstCursor: string | null) => [...QUERY_KEYS.wallet, 'referrals', list, firstCursor],
} as const;

export type ReferralList = 'people' | 'earnings';

export function useReferralSummary() {
  return useQuery({
    queryKey: REFERRAL_QUERY_KEYS.summary,
    queryFn: ({ signal }) => apiRequest(`/api/referrals?limit=${REFERRAL_PAGE_SIZE}`, referralSummarySchema, { signal }),
  });
}

function useMorePages<Page extends { nextCursor: string | null }>(
  list: ReferralList,
  firstCursor: string | null,
  requested: boolean,
  fetchPage: (cursor: string, signal: AbortSignal) => Promise<Page>,
) {
  return useInfiniteQuery({
    queryKey: REFERRAL_QUERY_KEYS.more(list, firstCursor),
    enabled: requested && firstCursor !== null,
    initialPageParam: firstCursor ?? '',
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
}

const pageQuery = (cursor: string) => new URLSearchParams({ limit: String(REFERRAL_PAGE_SIZE), cursor }).toString();

/** Pages after the first (which comes with the summary), fetched only once the customer asks for more. */
export function useMoreReferredPeople(firstCursor: string | null, requested: boolean) {
  return useMorePages('people', firstCursor, requested, (cursor, signal) =>
    apiRequest(`/api/referrals/people?${pageQuery(cursor)}`, referredPeoplePageSchema, { signal }),
  );
}

export function useMoreReferralEarnings(firstCursor: string | null, requested: boolean) {
  return useMorePages('earnings', firstCursor, requested, (cursor, signal) =>
    apiRequest(`/api/referrals/earnings?${pageQuery(cursor)}`, referralEarningsPageSchema, { signal }),
  );
}
