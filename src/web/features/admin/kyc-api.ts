import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import {
  adminKycRecordSchema,
  freezeResponseSchema,
  panReviewDecisionResponseSchema,
  panReviewListResponseSchema,
  requestPanCardResponseSchema,
  riskCategoryResponseSchema,
  unfreezeResponseSchema,
  type RejectPanRequest,
  type RiskCategory,
  type VerifyPanRequest,
} from '#shared/contracts/kyc';
import {
  levelTwoCaseListResponseSchema,
  levelTwoCaseSchema,
  levelTwoDecisionResponseSchema,
  type RejectLevelTwoRequest,
  type RequestAgainRequest,
} from '#shared/contracts/kyc-documents';
import { apiRequest } from '../../lib/api.ts';
import { adminKeys } from './api.ts';

/*
 * The KYC desk's requests (decision 047). Every key is under the admin prefix, so a decision's
 * `admin.queue.updated` event refreshes the queue and the user page on every admin's screen.
 */

export const kycAdminKeys = {
  panReviews: () => [...adminKeys.all, 'kyc', 'pan-reviews'] as const,
  customer: (userId: string) => [...adminKeys.all, 'kyc', 'customer', userId] as const,
};

export function usePanReviews() {
  return useInfiniteQuery({
    queryKey: kycAdminKeys.panReviews(),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/api/admin/kyc/pan-reviews${pageParam === undefined ? '' : `?cursor=${encodeURIComponent(pageParam)}`}`, panReviewListResponseSchema, {
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
}

export const approvePan = (userId: string, body: VerifyPanRequest) =>
  apiRequest(`/api/admin/kyc/pan-reviews/${encodeURIComponent(userId)}/approve`, panReviewDecisionResponseSchema, { method: 'POST', body });

export const rejectPan = (userId: string, body: RejectPanRequest) =>
  apiRequest(`/api/admin/kyc/pan-reviews/${encodeURIComponent(userId)}/reject`, panReviewDecisionResponseSchema, { method: 'POST', body });

/** Asks the customer for a photo of the PAN card (again), with a reason they see (decision 066). */
export const requestPanCard = (userId: string, reason: string) =>
  apiRequest(`/api/admin/kyc/pan-reviews/${encodeURIComponent(userId)}/request-card`, requestPanCardResponseSchema, { method: 'POST', body: { reason } });

export function useCustomerKyc(userId: string) {
  return useQuery({
    queryKey: kycAdminKeys.customer(userId),
    queryFn: ({ signal }) => apiRequest(`/api/admin/kyc/customers/${encodeURIComponent(userId)}`, adminKycRecordSchema, { signal }),
  });
}

export const freezeCustomer = (userId: string, reason: string) =>
  apiRequest(`/api/admin/kyc/customers/${encodeURIComponent(userId)}/freeze`, freezeResponseSchema, { method: 'POST', body: { reason } });

export const unfreezeCustomer = (userId: string, reason: string) =>
  apiRequest(`/api/admin/kyc/customers/${encodeURIComponent(userId)}/unfreeze`, unfreezeResponseSchema, { method: 'POST', body: { reason } });

export const setCustomerRisk = (userId: string, riskCategory: RiskCategory) =>
  apiRequest(`/api/admin/kyc/customers/${encodeURIComponent(userId)}/risk`, riskCategoryResponseSchema, { method: 'PUT', body: { riskCategory } });

/* ---------- KYC level 2 (decision 050) ---------- */

export const levelTwoKeys = {
  cases: () => [...adminKeys.all, 'kyc', 'level2-cases'] as const,
  case: (id: string) => [...adminKeys.all, 'kyc', 'level2-case', id] as const,
};

export function useLevelTwoCases() {
  return useInfiniteQuery({
    queryKey: levelTwoKeys.cases(),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(`/api/admin/kyc/level2-reviews${pageParam === undefined ? '' : `?cursor=${encodeURIComponent(pageParam)}`}`, levelTwoCaseListResponseSchema, {
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
}

export function useLevelTwoCase(id: string) {
  return useQuery({
    queryKey: levelTwoKeys.case(id),
    queryFn: ({ signal }) => apiRequest(`/api/admin/kyc/level2-reviews/${encodeURIComponent(id)}`, levelTwoCaseSchema, { signal }),
  });
}

/** Where the browser loads a KYC image from: the server checks the PIN and audits every view. */
export const kycImageUrl = (imageId: string) => `/api/admin/kyc/images/${encodeURIComponent(imageId)}`;

export const approveLevelTwo = (id: string) =>
  apiRequest(`/api/admin/kyc/level2-reviews/${encodeURIComponent(id)}/approve`, levelTwoDecisionResponseSchema, { method: 'POST', body: {} });

export const rejectLevelTwo = (id: string, body: RejectLevelTwoRequest) =>
  apiRequest(`/api/admin/kyc/level2-reviews/${encodeURIComponent(id)}/reject`, levelTwoDecisionResponseSchema, { method: 'POST', body });

export const requestLevelTwoAgain = (id: string, body: RequestAgainRequest) =>
  apiRequest(`/api/admin/kyc/level2-reviews/${encodeURIComponent(id)}/request-again`, levelTwoDecisionResponseSchema, { method: 'POST', body });
