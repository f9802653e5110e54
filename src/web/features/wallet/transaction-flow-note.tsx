import { Info } from 'lucide-react';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** Deposits are in USDT only; withdrawals are paid in INR only, to Indian bank accounts. */
export function TransactionFlowNote({ className }: { className?: string }) {
  return (
    <div className={`flex gap-3 rounded-xl border border-sky-200 bg-sky-50 p-4 text-sm text-sky-900 ${className ?? ''}`}>
      <Info className="mt-0.5 size-5 shrink-0" aria-hidden />
      <div>
        <p className="font-semibold">{t('wallet.flowTitle')}</p>
        <ul className="mt-1 list-disc space-y-0.5 pl-4">
          <li>{t('wallet.flowDeposit')}</li>
          <li>{t('wallet.flowWithdraw')}</li>
        </ul>
      </div>
    </div>
  );
}
