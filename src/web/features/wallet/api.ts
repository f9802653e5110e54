import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { RequestStatus } from '#shared/contracts/enums';
import { depositDetailResponseSchema, depositResponseSchema, type DepositRequest } from '#shared/contracts/deposits';
import { IDEMPOTENCY_KEY_HEADER } from '#shared/contracts/money-common';
import { transactionListResponseSchema, type TransactionType } from '#shared/contracts/transactions';
import { transferResponseSchema, type TransferRequest } from '#shared/contracts/transfers';
import { walletSummarySchema } from '#shared/contracts/wallet';
import { withdrawalListResponseSchema, withdrawalResponseSchema, type WithdrawalRequest } from '#shared/contracts/withdrawals';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

/** Every key starts with QUERY_KEYS.wallet, so one live event or one invalidation refreshes them all. */
export const WALLET_QUERY_KEYS = {
  summary: [...QUERY_KEYS.wallet, 'summary'],
  pendingWithdrawals: [...QUERY_KEYS.wallet, 'withdrawals', 'pending'],
  history: (type: TransactionType | 'all', status: RequestStatus | 'all' = 'all') => [...QUERY_KEYS.wallet, 'history', type, status],
  recent: [...QUERY_KEYS.wallet, 'recent'],
  pending: [...QUERY_KEYS.wallet, 'pending'],
  transaction: (kind: string, id: string) => [...QUERY_KEYS.wallet, 'transaction', kind, id],
  deposit: (id: string) => [...QUERY_KEYS.wallet, 'deposit', id],
  customerWallets: [...QUERY_KEYS.wallet, 'customer-wallets'],
} as const;

/** How often a waiting deposit is re-read besides live events, in case the event stream is down. */
const DEPOSIT_POLL_MILLISECONDS = 10_000;

export function useDeposit(id: string) {
  return useQuery({
    queryKey: WALLET_QUERY_KEYS.deposit(id),
    queryFn: async ({ signal }) => (await apiRequest(`/api/deposits/${id}`, depositDetailResponseSchema, { signal })).deposit,
    refetchInterval: (query) => (query.state.data?.status === 'pending' || query.state.data === undefined ? DEPOSIT_POLL_MILLISECONDS : false),
  });
}

export function useWalletSummary() {
  return useQuery({ queryKey: WALLET_QUERY_KEYS.summary, queryFn: () => apiRequest('/api/wallet/summary', walletSummarySchema) });
}

export function usePendingWithdrawals() {
  return useQuery({
    queryKey: WALLET_QUERY_KEYS.pendingWithdrawals,
    queryFn: () => apiRequest('/api/withdrawals?status=pending&limit=50', withdrawalListResponseSchema),
  });
}

const HISTORY_PAGE_SIZE = 20;

export function useTransactionHistory(type: TransactionType | 'all', status: RequestStatus | 'all' = 'all') {
  return useInfiniteQuery({
    queryKey: WALLET_QUERY_KEYS.history(type, status),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: String(HISTORY_PAGE_SIZE) });
      if (type !== 'all') query.set('type', type);
      if (status !== 'all') query.set('status', status);
      if (pageParam) query.set('cursor', pageParam);
      return apiRequest(`/api/transactions?${query.toString()}`, transactionListResponseSchema, { signal });
    },
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
}

/** The home screen's newest five. */
export function useRecentTransactions() {
  return useQuery({
    queryKey: WALLET_QUERY_KEYS.recent,
    queryFn: ({ signal }) => apiRequest('/api/transactions?limit=5', transactionListResponseSchema, { signal }),
  });
}

/** Deposits, withdrawals and transfers still waiting for an admin (a customer has few: deposits are capped). */
export function usePendingTransactions() {
  return useQuery({
    queryKey: WALLET_QUERY_KEYS.pending,
    queryFn: ({ signal }) => apiRequest('/api/transactions?status=pending&limit=20', transactionListResponseSchema, { signal }),
  });
}

const withIdempotencyKey = (idempotencyKey: string) => ({ [IDEMPOTENCY_KEY_HEADER]: idempotencyKey });

export const submitDeposit = (body: DepositRequest, idempotencyKey: string) =>
  apiRequest('/api/deposits', depositResponseSchema, { method: 'POST', body, headers: withIdempotencyKey(idempotencyKey) });

export const requestWithdrawal = (body: WithdrawalRequest, idempotencyKey: string) =>
  apiRequest('/api/withdrawals', withdrawalResponseSchema, { method: 'POST', body, headers: withIdempotencyKey(idempotencyKey) });

export const requestTransfer = (body: TransferRequest, idempotencyKey: string) =>
  apiRequest('/api/transfers', transferResponseSchema, { method: 'POST', body, headers: withIdempotencyKey(idempotencyKey) });

/** After any money action: the header balance chip and everything under the wallet prefix are stale. */
export function useRefreshMoney() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: QUERY_KEYS.me }), queryClient.invalidateQueries({ queryKey: QUERY_KEYS.wallet })]);
}

/**
 * The Idempotency-Key for a submission: a new random key for each new request,
 * the same key when the customer retries exactly the same request (say after a
 * lost answer), so the server moves the money at most once.
 */
export function useIdempotencyKeys() {
  const last = useRef<{ fingerprint: string; key: string } | null>(null);
  return {
    keyFor(request: Record<string, string>): string {
      const fingerprint = JSON.stringify(request);
      if (last.current?.fingerprint !== fingerprint) last.current = { fingerprint, key: crypto.randomUUID() };
      return last.current.key;
    },
    /** After a success the next submission is a new intent. */
    forget(): void {
      last.current = null;
    },
  };
}
