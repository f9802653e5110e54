import { RefreshCw } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { NO_USER_TRANSACTIONS_MESSAGE } from '#shared/contracts/admin';
import type { TransactionItem } from '#shared/contracts/transactions';
import { AdminPage } from './components/admin-page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '../../components/ui/table.tsx';
import { errorMessage } from '../../lib/api.ts';
import { isUserNotFound, useAdminUserTransactions } from './api.ts';
import { EmptyState, ErrorState, LoadingState, LoadMore } from './components/list-states.tsx';
import { StatusBadge } from './components/status-badge.tsx';
import { UserNotFound } from './components/user-not-found.tsx';
import { amountText, shortDateTimeText, TRANSACTION_TYPE_LABELS, usdtText } from './format.ts';

function detailOf(item: TransactionItem): string | undefined {
  if (item.type === 'deposit' && item.network) return item.network;
  if (item.type === 'transfer' && item.counterpartyEmail) return `${item.direction === 'out' ? 'To' : 'From'} ${item.counterpartyEmail}`;
  if (item.type === 'referral_bonus' && item.referralLevel !== null) return `Level ${item.referralLevel}`;
  if (item.type === 'withdrawal') return usdtText(item.amountUsdt);
  return undefined;
}

function TransactionRow({ item }: { item: TransactionItem }) {
  const detail = detailOf(item);
  return (
    <TableRow>
      <TableCell label="Type">
        <p className="font-medium">{TRANSACTION_TYPE_LABELS[item.type]}</p>
        {detail && <p className="text-xs text-slate-500">{detail}</p>}
        {item.status === 'rejected' && item.rejectionReason && <p className="mt-1 break-words text-xs text-red-700">Reason: {item.rejectionReason}</p>}
      </TableCell>
      <TableCell label="Amount" className="whitespace-nowrap font-medium">
        <span className="sr-only">{item.direction === 'in' ? 'In: ' : 'Out: '}</span>
        <span aria-hidden>{item.direction === 'in' ? '+' : '−'}</span>
        {amountText(item.amount, item.currency)}
      </TableCell>
      <TableCell label="Date" className="whitespace-nowrap">
        <time dateTime={item.createdAt}>{shortDateTimeText(item.createdAt)}</time>
      </TableCell>
      <TableCell label="Status">
        <StatusBadge status={item.status} />
      </TableCell>
    </TableRow>
  );
}

export default function UserTransactionsPage() {
  const { userId = '' } = useParams();
  const transactions = useAdminUserTransactions(userId);
  const user = transactions.data?.pages[0]?.user;
  const items = transactions.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <AdminPage title="User Transactions" backTo="/admin/users">
      {transactions.isPending && <LoadingState text="Loading transactions..." />}
      {transactions.isError &&
        (isUserNotFound(transactions.error) ? (
          <UserNotFound userId={userId} />
        ) : (
          <ErrorState
            title="Failed to fetch transaction data"
            message={errorMessage(transactions.error, 'Please check your connection and try again.')}
            onRetry={() => void transactions.refetch()}
          />
        ))}
      {user && (
        <>
          <Card>
            <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <CardTitle>{user.name}</CardTitle>
                <CardDescription className="break-all">{user.email}</CardDescription>
                <CardDescription>{user.phone}</CardDescription>
              </div>
              <div className="text-right">
                <p className="text-sm text-slate-500">Balance</p>
                <p className="text-xl font-semibold text-slate-900">{usdtText(user.balanceUsdt)}</p>
              </div>
            </CardHeader>
            <CardContent className="flex flex-wrap gap-2">
              <Button variant="outline" size="sm" asChild>
                <Link to={`/admin/users/${user.id}`}>User details</Link>
              </Button>
              <Button variant="outline" size="sm" onClick={() => void transactions.refetch()} disabled={transactions.isFetching}>
                <RefreshCw className={transactions.isFetching ? 'animate-spin' : undefined} />
                Refresh
              </Button>
            </CardContent>
          </Card>

          {items.length === 0 ? (
            <EmptyState title={NO_USER_TRANSACTIONS_MESSAGE} />
          ) : (
            <>
              <Table label={`Transactions of ${user.name}`} stacked className="md:min-w-[34rem]">
                <TableHead>
                  <TableRow>
                    <TableHeaderCell>Type</TableHeaderCell>
                    <TableHeaderCell>Amount</TableHeaderCell>
                    <TableHeaderCell>Date</TableHeaderCell>
                    <TableHeaderCell>Status</TableHeaderCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {items.map((item) => (
                    <TransactionRow key={`${item.type}-${item.id}`} item={item} />
                  ))}
                </TableBody>
              </Table>
              <LoadMore hasMore={transactions.hasNextPage} loading={transactions.isFetchingNextPage} onLoadMore={() => void transactions.fetchNextPage()} />
            </>
          )}
        </>
      )}
    </AdminPage>
  );
}
