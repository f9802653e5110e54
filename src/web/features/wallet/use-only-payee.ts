import { useEffect } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { payeeRefusal, type BankAccount } from '#shared/contracts/bank-accounts';
import type { WithdrawForm } from './withdraw-form-rules.ts';

/**
 * Chooses the customer's only payee for them (issue 31, section 5) when they have exactly one saved account
 * and it can receive withdrawals (not flagged, decision 044, nor held by the bank's check, decision 054); a choice already made is kept.
 */
export function usePreselectOnlyPayee(form: UseFormReturn<WithdrawForm>, accounts: readonly BankAccount[]): void {
  const only = accounts.length === 1 && accounts[0] !== undefined && payeeRefusal(accounts[0], true) === undefined ? accounts[0].id : undefined;
  useEffect(() => {
    if (only !== undefined && form.getValues('bankAccountId') === '') form.setValue('bankAccountId', only);
  }, [only, form]);
}
