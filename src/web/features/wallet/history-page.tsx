import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { TransactionItem, TransactionType } from '../../../shared/contracts/transactions.ts';
import { TRANSACTION_MESSAGES } from '../../../shared/contracts/transactions.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { useTransactionHistory } from './api.ts';
import { displayDate, displayDateTime, displayInr, displayTime, displayUsdt, displayUsdtAmount } from './format.ts';
import { StatusBadge } from './status-badge.tsx';
import { customerChainStatus } from './chain-status.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';

const TABS: { value: TransactionType | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'deposit', label: 'Deposits' },
  { value: 'withdrawal', label: 'Withdrawals' },
];

export default function HistoryPage() {
  const [tab, setTab] = useState<TransactionType | 'all'>('all');
  return (
    <AppPage title="Transaction History" backTo="/wallet">
      <Tabs value={tab} onValueChange={(value) => setTab(value as TransactionType | 'all')}>
        <TabsList aria-label="Transaction types">
          {TABS.map(({ value, label }) => (
            <TabsTrigger key={value} value={value}>
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        {TABS.map(({ value, label }) => (
          <TabsContent key={value} value={value}>
            <HistoryList type={value} title={value === 'all' ? 'All Transactions' : label} />
          </TabsContent>
        ))}
      </Tabs>
    </AppPage>
  );
}

function HistoryList({ type, title }: { type: TransactionType | 'all'; title: string }) {
  const history = useTransactionHistory(type);
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
            <div className="-mx-5 overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
                  <tr>
                    <th scope="col" className="py-2 pl-3 pr-1.5 font-medium">
                      Type
                    </th>
                    <th scope="col" className="px-1.5 py-2 font-medium">
                      Amount
                    </th>
                    <th scope="col" className="px-1.5 py-2 font-medium">
                      Date
                    </th>
                    <th scope="col" className="py-2 pl-1.5 pr-3 font-medium">
                      Status
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {items.map((item) => (
                    <HistoryRow key={`${item.type}-${item.id}-${item.direction}`} item={item} />
                  ))}
                </tbody>
              </table>
            </div>
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

function typeLabel(item: TransactionItem): string {
  switch (item.type) {
    case 'deposit':
      return 'Deposit';
    case 'withdrawal':
      return 'Withdrawal';
    case 'transfer':
      return item.direction === 'in' ? 'Transfer received' : 'Transfer sent';
    case 'referral_bonus':
      return 'Referral Bonus';
  }
}

function detailLine(item: TransactionItem): string | undefined {
  if (item.type === 'deposit' && item.network) return item.network;
  if (item.type === 'withdrawal') return displayUsdt(item.amountUsdt);
  if (item.type === 'transfer' && item.counterpartyEmail) return `${item.direction === 'in' ? 'from' : 'to'} ${item.counterpartyEmail}`;
  if (item.type === 'referral_bonus' && item.referralLevel !== null) return `Level ${item.referralLevel}`;
  return undefined;
}

function HistoryRow({ item }: { item: TransactionItem }) {
  const detail = detailLine(item);
  const chainLine = item.chain && (item.status === 'pending' || item.chain.state === 'confirmed') ? customerChainStatus(item.status, item.chain) : undefined;
  return (
    <tr className="align-top">
      <td className="py-3 pl-3 pr-1.5">
        <p className="font-medium">{typeLabel(item)}</p>
        {detail && <p className="break-all text-xs text-slate-500">{detail}</p>}
        {item.status === 'rejected' && item.rejectionReason && <p className="mt-1 break-words text-xs text-red-700">Reason: {item.rejectionReason}</p>}
      </td>
      <td className="px-1.5 py-3">
        <p className="whitespace-nowrap font-semibold">{item.currency === 'INR' ? displayInr(item.amount) : displayUsdtAmount(item.amount)}</p>
        <p className="text-xs text-slate-500">{item.currency}</p>
      </td>
      <td className="px-1.5 py-3 text-xs text-slate-600">
        <time dateTime={item.createdAt} title={displayDateTime(item.createdAt)}>
          <span className="block whitespace-nowrap">{displayDate(item.createdAt)}</span>
          <span className="block whitespace-nowrap">{displayTime(item.createdAt)}</span>
        </time>
      </td>
      <td className="py-3 pl-1.5 pr-3">
        <StatusBadge status={item.status} />
        {chainLine && <p className="mt-1 text-xs text-slate-600">{chainLine}</p>}
      </td>
    </tr>
  );
}
