import { useWalletSummary, displayUsdtAmount } from '../wallet/index.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** Pending Deposit and Pending Withdrawal of the profile card: the real sums of the customer's pending requests. */
export function PendingTotals() {
  const summary = useWalletSummary();
  const shown = (wire: string | undefined) => (wire !== undefined ? `${displayUsdtAmount(wire)} USDT` : summary.isError ? '—' : '...');
  return (
    <>
      <div>
        <dt className="text-slate-500">{t('profile.pendingDeposit')}</dt>
        <dd className="break-words font-semibold" data-testid="pending-deposit">
          {shown(summary.data?.pendingDepositsUsdt)}
        </dd>
      </div>
      <div>
        <dt className="text-slate-500">{t('profile.pendingWithdrawal')}</dt>
        <dd className="break-words font-semibold" data-testid="pending-withdrawal">
          {shown(summary.data?.pendingWithdrawalsUsdt)}
        </dd>
      </div>
    </>
  );
}
