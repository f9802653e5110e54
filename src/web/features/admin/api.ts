import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  adminDashboardResponseSchema,
  adminUserDetailSchema,
  adminUsersResponseSchema,
  adminUserTransactionsResponseSchema,
  auditLogResponseSchema,
  revokeSessionsResponseSchema,
  updateAdminUserResponseSchema,
  type UpdateAdminUserRequest,
} from '#shared/contracts/admin';
import {
  adminDepositDecisionResponseSchema,
  adminDepositListResponseSchema,
  assignUnclaimedTransferResponseSchema,
  unclaimedTransferListResponseSchema,
  type AssignUnclaimedTransferRequest,
} from '#shared/contracts/deposits';
import {
  payoutBatchDetailResponseSchema,
  payoutBatchListResponseSchema,
  payoutBatchCandidatesResponseSchema,
  payoutBatchResponseSchema,
  payoutResultsPreviewResponseSchema,
  payoutResultsResponseSchema,
  type PayoutResultRow,
} from '#shared/contracts/payout-batches';
import {
  adminSettingsResponseSchema,
  updateSettingsPendingResponseSchema,
  updateSettingsResponseSchema,
  uploadFilePendingResponseSchema,
  uploadFileResponseSchema,
  type UpdateSettingsRequest,
} from '#shared/contracts/settings';
import { adminPayeeReviewPageSchema, payeeAcceptResponseSchema, rejectPayeeRequestSchema } from '#shared/contracts/bank-accounts';
import { adminProviderPayoutResponseSchema, payoutOverviewResponseSchema, rejectHeldPayoutRequestSchema } from '#shared/contracts/payouts';
import { adminTransferDecisionResponseSchema, adminTransferListResponseSchema } from '#shared/contracts/transfers';
import { adminWithdrawalDecisionResponseSchema, adminWithdrawalListResponseSchema } from '#shared/contracts/withdrawals';
import { IDEMPOTENCY_KEY_HEADER } from '#shared/contracts/money-common';
import { reopenAccountResponseSchema } from '#shared/contracts/account-closing';
import { firstApprovalResponseSchema, pendingChangeDecisionResponseSchema, pendingChangeListResponseSchema } from '#shared/contracts/pending-changes';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { parseUploadAnswer } from '../../lib/upload-answer.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import type { DepositNetwork, WithdrawalStatus } from '#shared/contracts/enums';

export type QueueKind = 'deposits' | 'withdrawals' | 'transfers';
/** A queue's status filter; only the withdrawals' has processing and cancelled. */
export type StatusFilter = WithdrawalStatus | 'all';
export type Decision = 'approve' | 'reject';

/** The audit log's filters as the page keeps them in its address: empty means not filtered. */
export interface AuditLogFilters {
  q: string;
  action: string;
  targetUserId: string;
  from: string;
  to: string;
}

/** Every key starts with QUERY_KEYS.admin, so one live event or one decision refreshes them all. */
export const adminKeys = {
  all: QUERY_KEYS.admin,
  dashboard: () => [...QUERY_KEYS.admin, 'dashboard'] as const,
  users: (search: string) => [...QUERY_KEYS.admin, 'users', 'list', search] as const,
  user: (userId: string) => [...QUERY_KEYS.admin, 'users', 'detail', userId] as const,
  userTransactions: (userId: string) => [...QUERY_KEYS.admin, 'users', 'transactions', userId] as const,
  queues: () => [...QUERY_KEYS.admin, 'queue'] as const,
  queue: (kind: QueueKind, status: StatusFilter) => [...QUERY_KEYS.admin, 'queue', kind, status] as const,
  settings: () => [...QUERY_KEYS.admin, 'settings'] as const,
  auditLog: (filters: AuditLogFilters) => [...QUERY_KEYS.admin, 'audit-log', filters] as const,
  payoutBatches: () => [...QUERY_KEYS.admin, 'payout-batches'] as const,
  payoutBatchCandidates: (filters: PayoutBatchFilters) => [...QUERY_KEYS.admin, 'payout-batches', 'candidates', filters] as const,
  payeeReview: () => [...QUERY_KEYS.admin, 'payee-review'] as const,
  payoutBatch: (batchId: string) => [...QUERY_KEYS.admin, 'payout-batches', batchId] as const,
  pendingChanges: () => [...QUERY_KEYS.admin, 'pending-changes'] as const,
  unclaimedTransfers: () => [...QUERY_KEYS.admin, 'unclaimed-transfers'] as const,
  payoutOverview: () => [...QUERY_KEYS.admin, 'payout-overview'] as const,
  providerPayout: (withdrawalId: string) => [...QUERY_KEYS.admin, 'provider-payout', withdrawalId] as const,
};

function withQuery(path: string, params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(name, value);
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/* ---------- dashboard ---------- */

export function useAdminDashboard() {
  return useQuery({ queryKey: adminKeys.dashboard(), queryFn: () => apiRequest('/api/admin/dashboard', adminDashboardResponseSchema) });
}

/* ---------- users ---------- */

export function useAdminUsers(search: string) {
  return useInfiniteQuery({
    queryKey: adminKeys.users(search),
    queryFn: ({ pageParam, signal }) => apiRequest(withQuery('/api/admin/users', { q: search, cursor: pageParam }), adminUsersResponseSchema, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    // While a new search loads, the previous results stay on screen instead of flashing a spinner.
    placeholderData: keepPreviousData,
  });
}

export function useAdminUser(userId: string) {
  return useQuery({
    queryKey: adminKeys.user(userId),
    queryFn: ({ signal }) => apiRequest(`/api/admin/users/${encodeURIComponent(userId)}`, adminUserDetailSchema, { signal }),
  });
}

export const updateAdminUser = (userId: string, body: UpdateAdminUserRequest) =>
  apiRequest(`/api/admin/users/${encodeURIComponent(userId)}`, updateAdminUserResponseSchema, { method: 'PATCH', body });

export const reopenClosedAccount = (userId: string, reason: string) =>
  apiRequest(`/api/admin/users/${encodeURIComponent(userId)}/reopen`, reopenAccountResponseSchema, { method: 'POST', body: { reason } });

export const revokeUserSessions = (userId: string) =>
  apiRequest(`/api/admin/users/${encodeURIComponent(userId)}/sessions/revoke`, revokeSessionsResponseSchema, { method: 'POST' });

export function useAdminUserTransactions(userId: string) {
  return useInfiniteQuery({
    queryKey: adminKeys.userTransactions(userId),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(withQuery(`/api/admin/users/${encodeURIComponent(userId)}/transactions`, { cursor: pageParam }), adminUserTransactionsResponseSchema, {
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
}

/** The server answers 400 for an id that is not a UUID and 404 for an unknown one: both mean no such user. */
export function isUserNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/* ---------- deposit, withdrawal and transfer queues ---------- */

function useQueue<S extends z.ZodType<{ nextCursor: string | null }>>(kind: QueueKind, schema: S, status: StatusFilter) {
  return useInfiniteQuery({
    queryKey: adminKeys.queue(kind, status),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(withQuery(`/api/admin/${kind}`, { status: status === 'all' ? undefined : status, cursor: pageParam }), schema, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage: z.output<S>) => lastPage.nextCursor ?? undefined,
  });
}

export const useDepositQueue = (status: StatusFilter) => useQueue('deposits', adminDepositListResponseSchema, status);
export const useWithdrawalQueue = (status: StatusFilter) => useQueue('withdrawals', adminWithdrawalListResponseSchema, status);
export const useTransferQueue = (status: StatusFilter) => useQueue('transfers', adminTransferListResponseSchema, status);

const decisionSchemas = {
  deposits: adminDepositDecisionResponseSchema,
  withdrawals: adminWithdrawalDecisionResponseSchema,
  transfers: adminTransferDecisionResponseSchema,
} as const;

export interface DecisionInput {
  kind: QueueKind;
  id: string;
  decision: Decision;
  /** The reason of a rejection, or the payout reference (UTR) of a withdrawal approval; empty means none. */
  note: string;
}

function decisionBody({ kind, decision, note }: DecisionInput): Record<string, string> {
  const text = note.trim();
  if (text === '') return {};
  if (decision === 'reject') return { reason: text };
  if (kind === 'withdrawals') return { payoutReference: text };
  // A deposit the blockchain refutes needs a written reason to be approved (decision 037).
  return kind === 'deposits' ? { reason: text } : {};
}

export function decideRequest(input: DecisionInput) {
  // A large withdrawal's approve may answer 202 with a first approval (decision 017); tried first, as it needs pendingChange.
  // So may the approve of a deposit the blockchain refutes (decision 037).
  const deferrable = input.decision === 'approve' && (input.kind === 'withdrawals' || input.kind === 'deposits');
  const schema = deferrable ? firstApprovalResponseSchema.or(decisionSchemas[input.kind]) : decisionSchemas[input.kind];
  return apiRequest(`/api/admin/${input.kind}/${encodeURIComponent(input.id)}/${input.decision}`, schema, {
    method: 'POST',
    body: decisionBody(input),
  });
}

/** Puts the oldest pending withdrawals (or the named ones) into a new payout batch (issue 13). */
/** The typed filters of "Choose withdrawals", as the query string carries them. */
export type PayoutBatchFilters = { minInr: string; maxInr: string; olderThanHours: string; bank: string };

/** The pending withdrawals a new batch may take, filtered; kept while new filters load, so the list does not flash. */
export function usePayoutBatchCandidates(filters: PayoutBatchFilters, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.payoutBatchCandidates(filters),
    queryFn: ({ signal }) => apiRequest(withQuery('/api/admin/payout-batches/candidates', filters), payoutBatchCandidatesResponseSchema, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const createPayoutBatch = (idempotencyKey: string, withdrawalIds?: string[]) =>
  apiRequest('/api/admin/payout-batches', payoutBatchResponseSchema, {
    method: 'POST',
    body: withdrawalIds ? { withdrawalIds } : {},
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });

/** A withdrawal's payout through the provider, with every state reported (decisions 043, 053); read once it is wanted. */
export function useProviderPayout(withdrawalId: string, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.providerPayout(withdrawalId),
    queryFn: ({ signal }) => apiRequest(`/api/admin/withdrawals/${encodeURIComponent(withdrawalId)}/payout`, adminProviderPayoutResponseSchema, { signal }),
    enabled,
    retry: false,
  });
}

/** Rejects a withdrawal whose provider payout is held before its first send (decision 053); the customer is told the reason. */
export const rejectHeldPayout = (withdrawalId: string, reason: string) =>
  apiRequest(`/api/admin/withdrawals/${encodeURIComponent(withdrawalId)}/payout/reject`, adminWithdrawalDecisionResponseSchema, {
    method: 'POST',
    body: rejectHeldPayoutRequestSchema.parse({ reason }),
  });

/** The payees the bank did not confirm, oldest first, a page at a time (decision 054). */
export function usePayeeReview() {
  return useInfiniteQuery({
    queryKey: adminKeys.payeeReview(),
    queryFn: ({ pageParam, signal }) => apiRequest(withQuery('/api/admin/payees/review', { cursor: pageParam }), adminPayeeReviewPageSchema, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
}

/** Accepts a payee whose name did not match or whose check failed: at once, or a change a second admin confirms (202). */
export const acceptPayee = (bankAccountId: string) =>
  apiRequest(`/api/admin/payees/${encodeURIComponent(bankAccountId)}/accept`, payeeAcceptResponseSchema, { method: 'POST', body: {} });

/** Rejects such a payee with a reason (decision 057): at once, or a change a second admin confirms (202). */
export const rejectPayee = (bankAccountId: string, reason: string) =>
  apiRequest(`/api/admin/payees/${encodeURIComponent(bankAccountId)}/reject`, payeeAcceptResponseSchema, {
    method: 'POST',
    body: rejectPayeeRequestSchema.parse({ reason }),
  });

/** Whether a payout provider is configured (decision 049). */
export function usePayoutOverview(enabled = true) {
  return useQuery({ queryKey: adminKeys.payoutOverview(), queryFn: () => apiRequest('/api/admin/payouts/overview', payoutOverviewResponseSchema), enabled });
}

export function usePayoutBatches() {
  return useInfiniteQuery({
    queryKey: adminKeys.payoutBatches(),
    queryFn: ({ pageParam, signal }) => apiRequest(withQuery('/api/admin/payout-batches', { cursor: pageParam }), payoutBatchListResponseSchema, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
}

export const fetchPayoutBatch = (batchId: string, signal?: AbortSignal) =>
  apiRequest(`/api/admin/payout-batches/${encodeURIComponent(batchId)}`, payoutBatchDetailResponseSchema, { signal });

export function usePayoutBatch(batchId: string) {
  return useQuery({
    queryKey: adminKeys.payoutBatch(batchId),
    queryFn: ({ signal }) => fetchPayoutBatch(batchId, signal),
  });
}

/** Cancels a batch; once its file was downloaded the answer may be 202, a cancel waiting for a second admin (decision 038). */
export const cancelPayoutBatch = (batchId: string) =>
  apiRequest(`/api/admin/payout-batches/${encodeURIComponent(batchId)}/cancel`, firstApprovalResponseSchema.or(payoutBatchResponseSchema), {
    method: 'POST',
    body: {},
  });

/** The bank's results as rows typed on the page (JSON). */
export const postPayoutResults = (batchId: string, rows: PayoutResultRow[]) =>
  apiRequest(`/api/admin/payout-batches/${encodeURIComponent(batchId)}/results`, payoutResultsResponseSchema, { method: 'POST', body: { rows } });

async function postCsv(url: string, csvText: string): Promise<Response> {
  try {
    return await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'content-type': 'text/csv' },
      body: csvText,
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Unable to connect to the server. Check your connection and try again.');
  }
}

/** What the bank's results file (text/csv, as it is) would do; nothing changes until it is applied (decision 038). */
export async function previewPayoutResultsCsv(batchId: string, csvText: string) {
  const response = await postCsv(`/api/admin/payout-batches/${encodeURIComponent(batchId)}/results/preview`, csvText);
  return parseUploadAnswer(response, payoutResultsPreviewResponseSchema, 'The results could not be read. Please try again.');
}

/** Applies the bank's results file as it is (text/csv); the server reads it with the same rules as the JSON rows. */
export async function postPayoutResultsCsv(batchId: string, csvText: string) {
  const response = await postCsv(`/api/admin/payout-batches/${encodeURIComponent(batchId)}/results`, csvText);
  return parseUploadAnswer(response, payoutResultsResponseSchema, 'The results could not be uploaded. Please try again.');
}

/** Same-origin link that downloads a batch's bank file; the session cookie goes along. */
export const payoutBatchCsvUrl = (batchId: string) => `/api/admin/payout-batches/${encodeURIComponent(batchId)}.csv`;

/* ---------- settings and files ---------- */

export function useAdminSettings() {
  return useQuery({ queryKey: adminKeys.settings(), queryFn: ({ signal }) => apiRequest('/api/admin/settings', adminSettingsResponseSchema, { signal }) });
}

/** 200 when everything was saved; 202 (tried first, as it needs pendingChange) when an address change waits for a second admin. */
export const saveAdminSettings = (body: UpdateSettingsRequest) =>
  apiRequest('/api/admin/settings', updateSettingsPendingResponseSchema.or(updateSettingsResponseSchema), { method: 'PUT', body });

/** Transfers to the shared deposit address nobody claimed, from senders nobody proved (decision 037). */
export function useUnclaimedTransfers() {
  return useQuery({
    queryKey: adminKeys.unclaimedTransfers(),
    queryFn: ({ signal }) => apiRequest('/api/admin/deposits/unclaimed', unclaimedTransferListResponseSchema, { signal }),
  });
}

export const assignUnclaimedTransfer = (id: string, body: AssignUnclaimedTransferRequest) =>
  apiRequest(`/api/admin/deposits/unclaimed/${encodeURIComponent(id)}/assign`, assignUnclaimedTransferResponseSchema, { method: 'POST', body });

/** Two-person control (decision 017): open changes waiting for a second admin. */
export function usePendingChanges(enabled = true) {
  return useQuery({
    queryKey: adminKeys.pendingChanges(),
    queryFn: ({ signal }) => apiRequest('/api/admin/pending-changes', pendingChangeListResponseSchema, { signal }),
    enabled,
  });
}

export const confirmPendingChange = (id: string) =>
  apiRequest(`/api/admin/pending-changes/${encodeURIComponent(id)}/confirm`, pendingChangeDecisionResponseSchema, { method: 'POST', body: {} });

export const discardPendingChange = (id: string) =>
  apiRequest(`/api/admin/pending-changes/${encodeURIComponent(id)}/discard`, pendingChangeDecisionResponseSchema, { method: 'POST', body: {} });

/** Multipart upload: apiRequest speaks JSON only, so this posts the FormData itself and checks the answer with the same contracts. */
export async function uploadSettingsFile(target: { kind: 'qr'; network: DepositNetwork } | { kind: 'apk' }, file: File) {
  const path = target.kind === 'qr' ? `/api/admin/files/qr/${target.network}` : '/api/admin/files/apk';
  const formData = new FormData();
  formData.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' }, body: formData });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Unable to connect to the server. Check your connection and try again.');
  }
  // 202: an app file stored but waiting for a second admin (decision 024).
  if (response.status === 202) return parseUploadAnswer(response, uploadFilePendingResponseSchema, 'The upload failed. Please try again.');
  return parseUploadAnswer(response, uploadFileResponseSchema, 'The upload failed. Please try again.');
}

/* ---------- audit log ---------- */

/** `enabled` is false while the filters cannot be sent (a date the server would refuse). */
export function useAuditLog(filters: AuditLogFilters, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: adminKeys.auditLog(filters),
    queryFn: ({ pageParam, signal }) => apiRequest(withQuery('/api/admin/audit-log', { ...filters, cursor: pageParam }), auditLogResponseSchema, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
    // While a new search loads, the previous entries stay on screen instead of flashing a spinner.
    placeholderData: keepPreviousData,
  });
}

/** Same-origin link that downloads the entries the current filters select, as CSV. */
export const auditLogCsvUrl = (filters: AuditLogFilters) => withQuery('/api/admin/audit-log.csv', { ...filters });
