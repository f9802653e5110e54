import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { RequestStatus } from '#shared/contracts/enums';
import type { TransactionType } from '#shared/contracts/transactions';
import { AppPage } from '../shell/index.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Label } from '../../components/ui/label.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { useTransactionHistory } from './api.ts';
import { StatementCard } from './statement-card.tsx';
import { TransactionTable } from './transaction-display.tsx';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';

const TABS: { value: TransactionType | 'all'; label: MessageKey }[] = [
  { value: 'all', label: 'history.all' },
  { value: 'deposit', label: 'history.deposits' },
  { value: 'withdrawal', label: 'history.withdrawals' },
  { value: 'transfer', label: 'history.transfers' },
  { value: 'referral_bonus', label: 'history.referral' },
];

const STATUSES: { value: RequestStatus | 'all'; label: MessageKey }[] = [
  { value: 'all', label: 'history.anyStatus' },
  { value: 'pending', label: 'status.pending' },
  { value: 'approved', label: 'status.approved' },
  { value: 'rejected', label: 'status.rejected' },
];

export default function HistoryPage() {
  const [tab, setTab] = useState<TransactionType | 'all'>('all');
  const [status, setStatus] = useState<RequestStatus | 'all'>('all');
  return (
    <AppPage title={t('wallet.transactionHistory')} backTo="/wallet">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="history-status">{t('transactions.status')}</Label>
        <Select id="history-status" value={status} onChange={(event) => setStatus(event.target.value as RequestStatus | 'all')}>
          {STATUSES.map(({ value, label }) => (
            <option key={value} value={value}>
              {t(label)}
            </option>
          ))}
        </Select>
      </div>
      <Tabs value={tab} onValueChange={(value) => setTab(value as TransactionType | 'all')}>
        <TabsList aria-label={t('history.types')} className="flex-wrap">
          {TABS.map(({ value, label }) => (
            <TabsTrigger key={value} value={value} className="px-2">
              {t(label)}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map(({ value, label }) => (
          <TabsContent key={value} value={value}>
            <HistoryList type={value} status={status} title={value === 'all' ? t('history.allTransactions') : t(label)} />
          </TabsContent>
        ))}
      </Tabs>
      <StatementCard />
    </AppPage>
  );
}

function HistoryList({ type, status, title }: { type: TransactionType | 'all'; status: RequestStatus | 'all'; title: string }) {
  const history = useTransactionHistory(type, status);
  const items = history.data?.pages.flatMap((page) => page.items) ?? [];
  const refreshing = history.isFetching && !history.isFetchingNextPage;

  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>{title}</CardTitle>
        <Button variant="outline" size="sm" disabled={refreshing} onClick={() => void history.refetch()}>
          <RefreshCw className={refreshing ? 'animate-spin' : undefined} aria-hidden />
          {t('shell.refresh')}
        </Button>
      </CardHeader>
      <CardContent>
        {history.isPending ? (
          <div className="flex items-center justify-center gap-3 py-8 text-slate-600">
            <Spinner />
            {t('history.loading')}
          </div>
        ) : history.isError ? (
          <LoadFailed message={t('dashboard.historyFailed')} onRetry={() => void history.refetch()} />
        ) : items.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-500">{t('history.empty')}</p>
        ) : (
          <>
            <TransactionTable items={items} label={title} />
            {history.hasNextPage && (
              <Button variant="outline" className="mt-4 w-full" disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
                {history.isFetchingNextPage ? t('withdraw.loading') : t('history.loadMore')}
              </Button>
            )}
            {history.isFetchNextPageError && <p className="mt-2 text-sm text-red-700">{t('history.loadMoreFailed')}</p>}
          </>
        )}
      </CardContent>
    </Card>
  );
}
