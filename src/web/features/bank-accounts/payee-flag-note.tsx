import { payeeRefusal, type BankAccount } from '#shared/contracts/bank-accounts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/** Why a flagged account cannot be chosen for a withdrawal, and what clears it (decision 044). */
export function PayeeFlagNote({ account }: { account: BankAccount }) {
  if (account.flaggedAt === null) return null;
  return (
    <p role="note" className="mt-1 text-xs text-red-700" data-testid="bank-account-flag">
      {t('bank.flagged', { reason: account.flagReason ?? t('withdraw.accountProblem') })}
    </p>
  );
}

/**
 * What the bank's check of the account said (decision 054): why withdrawals to it wait, or that it is confirmed.
 * The name the bank has is not shown: the account may be someone else's.
 */
export function PayeeCheckNote({ account }: { account: BankAccount }) {
  if (account.flaggedAt !== null) return null;
  const refusal = payeeRefusal(account, true);
  if (refusal !== undefined) {
    const tone = account.payeeCheck === 'checking' ? 'text-slate-600' : 'text-red-700';
    return (
      <p role="note" className={`mt-1 text-xs ${tone}`} data-testid="bank-account-check">
        {localizeMessage(refusal)}
      </p>
    );
  }
  if (account.payeeCheck !== 'verified' && account.payeeCheck !== 'accepted') return null;
  return (
    <p className="mt-1 text-xs text-emerald-800" data-testid="bank-account-check">
      {account.payeeCheck === 'verified' ? t('bank.checkVerified') : t('bank.checkAccepted')}
    </p>
  );
}
