import type { Executor } from '../../db/client.ts';
import * as bankAccountRepository from './repository.ts';

/**
 * The failure reasons that say the account itself cannot take money (decision 044), as banks word them
 * in status files and as payout providers name them. A payout that fails for one of these flags the
 * payee: it cannot be chosen for a withdrawal until its owner edits its details. Other failures (a
 * timeout, the bank's system down, a limit) say nothing about the account and flag nothing.
 * The label is what the customer is shown; it is stored as the flag's reason.
 */
export const ACCOUNT_FAILURE_REASONS: readonly { label: string; pattern: RegExp }[] = [
  { label: 'Account closed', pattern: /\b(account|a\/c|ac)\b.{0,20}\bclosed\b|\bclosed\s+(account|a\/c)\b|account_closed/ },
  {
    label: 'Account number invalid or not found',
    pattern:
      /\binvalid\s+(beneficiary\s+)?(account|a\/c|ac)\b|\b(account|a\/c)\b.{0,20}\b(does\s*n[o']?t\s+exist|not\s+found|invalid)\b|\bno\s+such\s+account\b|\b(incorrect|wrong)\s+(account|a\/c)\b|invalid_account/,
  },
  { label: 'Account frozen or blocked', pattern: /\bfrozen\b|\bfreeze\b|\bblocked\b|account_blocked|account_frozen/ },
  { label: 'Account dormant or inoperative', pattern: /\bdormant\b|\binoperative\b|\binactive\s+account\b|\baccount\s+(is\s+)?inactive\b|account_dormant/ },
  { label: 'UPI ID invalid', pattern: /\binvalid\s+(vpa|upi\s+id)\b|\b(vpa|upi\s+id)\b.{0,20}\b(invalid|does\s*n[o']?t\s+exist|not\s+found)\b|invalid_vpa/ },
  { label: 'IFSC invalid', pattern: /\binvalid\s+ifsc\b|\bifsc\b.{0,20}\binvalid\b|invalid_ifsc/ },
  { label: 'Account holder name does not match', pattern: /\bname\s+mismatch\b|\bname\b.{0,20}\bdoes\s*n[o']?t\s+match\b|beneficiary_name_mismatch/ },
  { label: 'Account cannot receive this payment (NRE account)', pattern: /\bnre\b/ },
];

/** The account reason a payout failure names, or undefined when it is not about the account. */
export function accountFailureOf(reason: string | null | undefined): string | undefined {
  if (!reason) return undefined;
  const text = reason.toLowerCase();
  return ACCOUNT_FAILURE_REASONS.find(({ pattern }) => pattern.test(text))?.label;
}

/**
 * After a withdrawal failed or was rejected with `reason`: when the reason is about the account, flag the
 * saved account the payout went to (if it is still saved with the same number and IFSC).
 */
export async function flagPayeeAfterFailedPayout(
  db: Executor,
  withdrawal: { bankAccountId: string | null; accountNumber: string; ifscCode: string },
  reason: string | null | undefined,
): Promise<boolean> {
  const label = accountFailureOf(reason);
  if (label === undefined || withdrawal.bankAccountId === null) return false;
  return bankAccountRepository.flagForFailedPayout(
    db,
    { bankAccountId: withdrawal.bankAccountId, accountNumber: withdrawal.accountNumber, ifscCode: withdrawal.ifscCode },
    label,
  );
}
