import { ArrowDownToLine, ArrowUpFromLine, History, KeyRound, RefreshCw, Send } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AppPage } from '../shell/index.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import type { WalletSummary } from '#shared/contracts/wallet';
import { usePendingWithdrawals, useWalletSummary } from './api.ts';
import { displayDateTime } from '../../lib/date-format.ts';
import { displayInr, displayUsdt } from './format.ts';
import { TransactionFlowNote } from './transaction-flow-note.tsx';
import { TransferDialog } from './transfer-dialog.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

export default function WalletPage() {
  const summary = useWalletSummary();
  const [transferring, setTransferring] = useState(false);

  return (
    <AppPage title={t('shell.wallet')} backTo="/dashboard">
      {summary.isPending ? (
        <Card>
          <CardContent className="flex items-center justify-center gap-3 py-10 text-slate-600">
            <Spinner />
            {t('wallet.loading')}
          </CardContent>
        </Card>
      ) : summary.isError ? (
        <Alert variant="destructive" className="flex items-center justify-between gap-3">
          <span>{t('dashboard.balanceFailed')}</span>
          <Button size="sm" variant="outline" onClick={() => void summary.refetch()}>
            {t('wallet.retry')}
          </Button>
        </Alert>
      ) : (
        <WalletBalanceCard summary={summary.data} onTransfer={() => setTransferring(true)} />
      )}
      <TransactionFlowNote />
      <PendingWithdrawalsCard />
      <Button variant="outline" asChild>
        <Link to="/wallet/history">
          <History aria-hidden />
          {t('wallet.transactionHistory')}
        </Link>
      </Button>
      <Button variant="outline" asChild>
        <Link to="/wallet/wallets">
          <KeyRound aria-hidden />
          {t('wallet.myWallets')}
        </Link>
      </Button>
      {summary.data && <TransferDialog open={transferring} onOpenChange={setTransferring} balanceUsdt={summary.data.balanceUsdt} />}
    </AppPage>
  );
}

/** The balance, its rupee estimate at today's rate, and the ways to move it. */
function WalletBalanceCard({ summary, onTransfer }: { summary: WalletSummary; onTransfer: () => void }) {
  return (
    <Card className="bg-gradient-to-br from-brand-700 to-brand-900 text-white">
      <CardContent className="flex flex-col gap-4 pt-5">
        <div>
          <p className="text-sm text-brand-100">{t('wallet.usdtBalance')}</p>
          <p className="text-3xl font-bold" data-testid="wallet-balance">
            {displayUsdt(summary.balanceUsdt)}
          </p>
          <p className="text-sm text-brand-100" data-testid="wallet-inr-estimate">
            ≈ {displayInr(summary.balanceInrEstimate)}
          </p>
        </div>
        <p className="text-sm text-brand-100">{t('wallet.currentRate', { rate: displayInr(summary.rates.normalInr) })}</p>
        <div className="grid grid-cols-2 gap-3">
          <Button asChild variant="secondary">
            <Link to="/wallet/deposit">
              <ArrowDownToLine aria-hidden />
              {t('wallet.deposit')}
            </Link>
          </Button>
          <Button asChild variant="secondary">
            <Link to="/wallet/withdraw">
              <ArrowUpFromLine aria-hidden />
              {t('wallet.withdraw')}
            </Link>
          </Button>
        </div>
        <Button variant="outline" className="border-white/40 bg-transparent text-white hover:bg-white/10" onClick={onTransfer}>
          <Send aria-hidden />
          {t('wallet.transferUsdt')}
        </Button>
      </CardContent>
    </Card>
  );
}

function PendingWithdrawalsCard() {
  const pending = usePendingWithdrawals();
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>{t('wallet.pendingWithdrawals')}</CardTitle>
        <Button
          variant="ghost"
          size="icon"
          aria-label={t('wallet.refreshPendingWithdrawals')}
          disabled={pending.isFetching}
          onClick={() => void pending.refetch()}
        >
          <RefreshCw className={pending.isFetching ? 'animate-spin' : undefined} />
        </Button>
      </CardHeader>
      <CardContent>
        {pending.isPending ? (
          <Spinner label={t('wallet.loadingPendingWithdrawals')} />
        ) : pending.isError ? (
          <p className="text-sm text-red-700">{t('wallet.pendingWithdrawalsFailed')}</p>
        ) : pending.data.items.length === 0 ? (
          <p className="text-sm text-slate-500">{t('wallet.noPendingWithdrawals')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label={t('wallet.pendingWithdrawalsList')}>
            {pending.data.items.map((withdrawal) => (
              <li key={withdrawal.id} className="flex items-center justify-between gap-3 py-3">
                <div>
                  <p className="font-semibold">{displayInr(withdrawal.netInr)}</p>
                  <p className="text-xs text-slate-500">
                    {displayUsdt(withdrawal.amountUsdt)} · {withdrawal.bank.bankName} ••••{withdrawal.bank.accountNumberLast4}
                  </p>
                  <p className="text-xs text-slate-500">{displayDateTime(withdrawal.createdAt)}</p>
                </div>
                <Badge tone="warning">{t('status.pending')}</Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
