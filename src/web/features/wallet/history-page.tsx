import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { RequestStatus } from '#shared/contracts/enums';
import type { TransactionType } from '#shared/contracts/transactions';
import { TRANSACTION_MESSAGES } from '#shared/contracts/transactions';
import { AppPage } from '../../components/layout/app-page.tsx';
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

const TABS: { value: TransactionType | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'deposit', label: 'Deposits' },
  { value: 'withdrawal', label: 'Withdrawals' },
  { value: 'transfer', label: 'Transfers' },
  { value: 'referral_bonus', label: 'Referral' },
];

const STATUSES: { value: RequestStatus | 'all'; label: string }[] = [
  { value: 'all', label: 'Any status' },
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
];

export default function HistoryPage() {
  const [tab, setTab] = useState<TransactionType | 'all'>('all');
  const [status, setStatus] = useState<RequestStatus | 'all'>('all');
  return (
    <AppPage title="Transaction History" backTo="/wallet">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="history-status">Status</Label>
        <Select id="history-status" value={status} onChange={(event) => setStatus(event.target.value as RequestStatus | 'all')}>
          {STATUSES.map(({ value, label }) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </div>
      <Tabs value={tab} onValueChange={(value) => setTab(value as TransactionType | 'all')}>
        <TabsList aria-label="Transaction types" className="flex-wrap">
          {TABS.map(({ value, label }) => (
            <TabsTrigger key={value} value={value} className="px-2">
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map(({ value, label }) => (
          <TabsContent key={value} value={value}>
            <HistoryList type={value} status={status} title={value === 'all' ? 'All Transactions' : label} />
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
          Refresh
        </Button>
      </CardHeader>
      <CardContent>
        {history.isPending ? (
          <div className="flex items-center justify-center gap-3 py-8 text-slate-600">
            <Spinner />
            Loading transactions...
          </div>
        ) : history.isError ? (
          <LoadFailed message="Failed to load transaction history" onRetry={() => void history.refetch()} />
        ) : items.length === 0 ? (
          <p className="py-8 text-center text-sm text-slate-500">{TRANSACTION_MESSAGES.empty}</p>
        ) : (
          <>
            <TransactionTable items={items} label={title} />
            {history.hasNextPage && (
              <Button variant="outline" className="mt-4 w-full" disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
                {history.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            )}
            {history.isFetchNextPageError && <p className="mt-2 text-sm text-red-700">Could not load more transactions. Please try again.</p>}
          </>
        )}
      </CardContent>
    </Card>
  );
}
