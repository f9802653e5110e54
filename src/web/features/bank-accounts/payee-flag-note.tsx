import type { BankAccount } from '#shared/contracts/bank-accounts';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** Why a flagged account cannot be chosen for a withdrawal, and what clears it (decision 044). */
export function PayeeFlagNote({ account }: { account: BankAccount }) {
  if (account.flaggedAt === null) return null;
  return (
    <p role="note" className="mt-1 text-xs text-red-700" data-testid="bank-account-flag">
      {t('bank.flagged', { reason: account.flagReason ?? t('withdraw.accountProblem') })}
    </p>
  );
}
