import { ArrowDownToLine, ArrowUpFromLine, Send, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { inrPaiseForUsdt, inrPaiseFromWire, inrPaiseToWire, usdtMicrosFromWire } from '#shared/money';
import type { WalletSummary } from '#shared/contracts/wallet';
import { AppPage } from '../shell/index.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useMe } from '../../lib/session.ts';
import { Converter, RateCard } from '../rates/index.ts';
import {
  usePendingTransactions,
  useRecentTransactions,
  useWalletSummary,
  displayInr,
  displayUsdtAmount,
  TransactionFlowNote,
  TransactionTable,
  TransferDialog,
} from '../wallet/index.ts';
import { AdminWalletCard } from './admin-wallet-card.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

const actionClass =
  'flex flex-col items-center gap-2 rounded-xl bg-brand-50 p-3 text-center text-sm font-medium text-brand-800 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600';

/** The INR value of the balance at the rate this customer gets: VIP customers see the VIP rate. */
export function balanceInOwnRate(summary: WalletSummary): { inrWire: string; rateWire: string } {
  const rateWire = summary.rateTier === 'vip' ? summary.rates.vipInr : summary.rates.normalInr;
  const inrPaise = inrPaiseForUsdt(usdtMicrosFromWire(summary.balanceUsdt), inrPaiseFromWire(rateWire));
  return { inrWire: inrPaiseToWire(inrPaise), rateWire };
}

export default function DashboardPage() {
  const me = useMe();
  const summary = useWalletSummary();
  const [transferring, setTransferring] = useState(false);

  return (
    <AppPage title={t('shell.home')}>
      <p className="text-base font-semibold text-slate-800">{t('dashboard.welcome', { name: me.data?.name ?? '' })}</p>
      <BalanceCard summary={summary} />
      <nav aria-label={t('dashboard.quickActions')} className="grid grid-cols-4 gap-2">
        <Link to="/wallet/deposit" className={actionClass}>
          <ArrowDownToLine className="size-6" aria-hidden />
          {t('dashboard.depositUsdt')}
        </Link>
        <Link to="/wallet/withdraw" className={actionClass}>
          <ArrowUpFromLine className="size-6" aria-hidden />
          {t('dashboard.withdrawInr')}
        </Link>
        <button type="button" className={actionClass} disabled={!summary.data} onClick={() => setTransferring(true)}>
          <Send className="size-6" aria-hidden />
          {t('dashboard.transfer')}
        </button>
        <Link to="/referral-vip" className={actionClass}>
          <UserPlus className="size-6" aria-hidden />
          {t('dashboard.invite')}
        </Link>
      </nav>
      <PendingCard />
      <RecentCard />
      <RateCard />
      <Converter />
      <TransactionFlowNote />
      {me.data?.role === 'admin' && <AdminWalletCard />}
      {summary.data && <TransferDialog open={transferring} onOpenChange={setTransferring} balanceUsdt={summary.data.balanceUsdt} />}
    </AppPage>
  );
}

function BalanceCard({ summary }: { summary: ReturnType<typeof useWalletSummary> }) {
  if (summary.isPending) {
    return (
      <Card>
        <CardContent className="flex items-center justify-center gap-3 py-10 pt-10 text-slate-600">
          <Spinner />
          {t('dashboard.loadingBalance')}
        </CardContent>
      </Card>
    );
  }
  if (summary.isError) {
    return (
      <Card>
        <LoadFailed message={t('dashboard.balanceFailed')} onRetry={() => void summary.refetch()} />
      </Card>
    );
  }
  const { inrWire, rateWire } = balanceInOwnRate(summary.data);
  const vip = summary.data.rateTier === 'vip';
  return (
    <section aria-labelledby="balance-heading" className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-900 p-5 text-white shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <h2 id="balance-heading" className="text-sm font-medium text-brand-100">
          {t('dashboard.totalBalance')}
        </h2>
        {vip && <Badge tone="vip">{t('home.vipRate')}</Badge>}
      </div>
      <p className="mt-1 break-words text-4xl font-bold tracking-tight" data-testid="home-balance">
        {displayUsdtAmount(summary.data.balanceUsdt)} <span className="text-xl font-semibold">USDT</span>
      </p>
      <p className="mt-1 text-base text-brand-50" data-testid="home-balance-inr">
        ≈ {displayInr(inrWire)}
      </p>
      <p className="text-xs text-brand-100" data-testid="home-rate">
        {vip ? t('dashboard.atVipRate', { rate: displayInr(rateWire) }) : t('dashboard.atRate', { rate: displayInr(rateWire) })}
      </p>
      <Link to="/wallet" className="mt-3 inline-block text-sm font-medium text-white underline underline-offset-4">
        {t('dashboard.openWallet')}
      </Link>
    </section>
  );
}

function PendingCard() {
  const pending = usePendingTransactions();
  if (pending.isSuccess && pending.data.items.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('dashboard.pending')}</CardTitle>
      </CardHeader>
      <CardContent>
        {pending.isPending ? (
          <Spinner label={t('dashboard.loadingPending')} />
        ) : pending.isError ? (
          <LoadFailed message={t('dashboard.pendingFailed')} onRetry={() => void pending.refetch()} />
        ) : (
          <TransactionTable items={pending.data.items} label={t('dashboard.pendingTransactions')} />
        )}
      </CardContent>
    </Card>
  );
}

function RecentCard() {
  const recent = useRecentTransactions();
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>{t('dashboard.recentTransactions')}</CardTitle>
        <Link to="/wallet/history" className="text-sm font-medium text-brand-700 hover:underline">
          {t('dashboard.seeAll')}
        </Link>
      </CardHeader>
      <CardContent>
        {recent.isPending ? (
          <Spinner label={t('dashboard.loadingTransactions')} />
        ) : recent.isError ? (
          <LoadFailed message={t('dashboard.historyFailed')} onRetry={() => void recent.refetch()} />
        ) : recent.data.items.length === 0 ? (
          <p className="py-4 text-center text-sm text-slate-500">{t('dashboard.noTransactions')}</p>
        ) : (
          <TransactionTable items={recent.data.items} label={t('dashboard.recentTransactions')} />
        )}
      </CardContent>
    </Card>
  );
}
