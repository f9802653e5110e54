import { BANK_ACCOUNT_MESSAGES, type BankAccount } from '#shared/contracts/bank-accounts';

/** Why a flagged account cannot be chosen for a withdrawal, and what clears it (decision 044). */
export function PayeeFlagNote({ account }: { account: BankAccount }) {
  if (account.flaggedAt === null) return null;
  return (
    <p role="note" className="mt-1 text-xs text-red-700" data-testid="bank-account-flag">
      {BANK_ACCOUNT_MESSAGES.flagged(account.flagReason ?? 'account problem')}
    </p>
  );
}
