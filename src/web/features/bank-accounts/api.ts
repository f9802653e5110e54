import { useQuery } from '@tanstack/react-query';
import {
  bankAccountDeleteResponseSchema,
  bankAccountListResponseSchema,
  bankAccountResponseSchema,
  type BankAccountInput,
  type BankAccountUpdate,
} from '#shared/contracts/bank-accounts';
import { apiRequest } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';

const CHECKING_REFETCH_MILLISECONDS = 5_000;

export const BANK_ACCOUNTS_QUERY_KEY = [...QUERY_KEYS.wallet, 'bank-accounts'] as const;

export function useBankAccounts() {
  return useQuery({
    queryKey: BANK_ACCOUNTS_QUERY_KEY,
    queryFn: () => apiRequest('/api/bank-accounts', bankAccountListResponseSchema),
    // While the bank checks an account (decision 054), its answer is asked for again until it comes.
    refetchInterval: (query) => (query.state.data?.items.some((account) => account.payeeCheck === 'checking') ? CHECKING_REFETCH_MILLISECONDS : false),
  });
}

export const addBankAccount = (body: BankAccountInput) => apiRequest('/api/bank-accounts', bankAccountResponseSchema, { method: 'POST', body });
export const updateBankAccount = (id: string, body: BankAccountUpdate) =>
  apiRequest(`/api/bank-accounts/${encodeURIComponent(id)}`, bankAccountResponseSchema, { method: 'PATCH', body });
export const deleteBankAccount = (id: string) =>
  apiRequest(`/api/bank-accounts/${encodeURIComponent(id)}`, bankAccountDeleteResponseSchema, { method: 'DELETE' });
