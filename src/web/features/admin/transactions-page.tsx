import { ArrowLeft, Download, ExternalLink, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import type { AdminDeposit } from '../../../shared/contracts/deposits.ts';
import { REQUEST_STATUSES } from '../../../shared/contracts/enums.ts';
import type { UserSummary } from '../../../shared/contracts/money-common.ts';
import type { AdminTransfer } from '../../../shared/contracts/transfers.ts';
import type { AdminWithdrawal } from '../../../shared/contracts/withdrawals.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '../../components/ui/table.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { errorMessage } from '../../lib/api.ts';
import {
  adminKeys,
  PENDING_WITHDRAWALS_CSV_URL,
  useDepositQueue,
  useTransferQueue,
  useWithdrawalQueue,
  type QueueKind,
  type StatusFilter,
} from './api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { EmptyState, ErrorState, LoadingState, LoadMore } from './components/list-states.tsx';
import { StatusBadge } from './components/status-badge.tsx';
import { exactUsdtText, inrText, shortDateTimeText, usdtText } from './format.ts';
import { useDecision, type DecisionTarget } from './use-decision.tsx';

const TABS = ['deposits', 'withdrawals', 'transfers'] as const satisfies readonly QueueKind[];
const STATUS_FILTERS: readonly StatusFilter[] = ['all', ...REQUEST_STATUSES];
const STATUS_FILTER_LABELS: Record<StatusFilter, string> = { all: 'All statuses', pending: 'Pending', approved: 'Approved', rejected: 'Rejected' };

function pickOne<T extends string>(value: string | null, options: readonly T[], fallback: T): T {
  return options.find((option) => option === value) ?? fallback;
}

const EXPLORERS = {
  TRC20: { name: 'Tronscan', url: (hash: string) => `https://tronscan.org/#/transaction/${encodeURIComponent(hash)}` },
  ERC20: { name: 'Etherscan', url: (hash: string) => `https://etherscan.io/tx/${encodeURIComponent(hash)}` },
} as const;

type OpenDecision = (target: DecisionTarget) => void;

function UserCell({ user, label = 'User' }: { user: UserSummary; label?: string }) {
  return (
    <TableCell label={label} wide>
      <Link to={`/admin/users/${user.id}`} className="font-medium text-slate-900 hover:text-brand-700 hover:underline">
        {user.name}
      </Link>
      <p className="break-all text-slate-600">{user.email}</p>
      <p className="text-slate-500">{user.phone}</p>
    </TableCell>
  );
}

function DateCell({ createdAt, decidedAt }: { createdAt: string; decidedAt: string | null }) {
  return (
    <TableCell label="Date" className="whitespace-nowrap">
      <time dateTime={createdAt}>{shortDateTimeText(createdAt)}</time>
      {decidedAt && (
        <p className="text-xs text-slate-500">
          Decided <time dateTime={decidedAt}>{shortDateTimeText(decidedAt)}</time>
        </p>
      )}
    </TableCell>
  );
}

function StatusCell({ status, children }: { status: AdminDeposit['status']; children?: ReactNode }) {
  return (
    <TableCell label="Status">
      <StatusBadge status={status} />
      {children}
    </TableCell>
  );
}

function ActionsCell({
  pending,
  busy,
  summaryId,
  summary,
  onApprove,
  onReject,
}: {
  pending: boolean;
  busy: boolean;
  summaryId: string;
  /** Names the row for screen readers, since every row has the same two buttons. */
  summary: string;
  onApprove: () => void;
  onReject: () => void;
}) {
  if (!pending) {
    return (
      <TableCell label="Actions" wide className="text-slate-400 max-md:hidden">
        <span aria-label="No actions">—</span>
      </TableCell>
    );
  }
  return (
    <TableCell label="Actions" wide>
      <span id={summaryId} hidden>
        {summary}
      </span>
      <div className="flex gap-2">
        <Button size="sm" className="max-md:flex-1" onClick={onApprove} disabled={busy} aria-describedby={summaryId}>
          Approve
        </Button>
        <Button size="sm" variant="outline" className="border-red-300 text-red-700 hover:bg-red-50 max-md:flex-1" onClick={onReject} disabled={busy} aria-describedby={summaryId}>
          Reject
        </Button>
      </div>
    </TableCell>
  );
}

function QueueStates({
  query,
  itemCount,
  emptyText,
  loadingText,
  failureTitle,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown; hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  itemCount: number;
  emptyText: string;
  loadingText: string;
  failureTitle: string;
  children: ReactNode;
}) {
  if (query.isPending) return <LoadingState text={loadingText} />;
  if (query.isError) return <ErrorState title={failureTitle} message={errorMessage(query.error, 'Failed to fetch transaction data')} onRetry={() => void query.refetch()} />;
  if (itemCount === 0) return <EmptyState title={emptyText} />;
  return (
    <>
      {children}
      <LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onLoadMore={() => void query.fetchNextPage()} />
    </>
  );
}

function DepositsPanel({ status, busyId, openDecision }: { status: StatusFilter; busyId: string | null; openDecision: OpenDecision }) {
  const deposits = useDepositQueue(status);
  const items = deposits.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="deposits-heading" className="flex flex-col gap-3">
      <h2 id="deposits-heading" className="text-base font-semibold">
        USDT Deposits
      </h2>
      <QueueStates query={deposits} itemCount={items.length} emptyText="No deposits found" loadingText="Loading deposits..." failureTitle="Failed to load deposits">
        <Table label="USDT Deposits" stacked className="md:min-w-[56rem]">
          <TableHead>
            <TableRow>
              <TableHeaderCell>User</TableHeaderCell>
              <TableHeaderCell>Amount (USDT)</TableHeaderCell>
              <TableHeaderCell>Transaction Hash</TableHeaderCell>
              <TableHeaderCell>Date</TableHeaderCell>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell>Actions</TableHeaderCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((deposit) => {
              const explorer = EXPLORERS[deposit.network];
              const summaryId = `deposit-${deposit.id}`;
              const exactAmount = exactUsdtText(deposit.amount);
              const amount = exactAmount ?? usdtText(deposit.amount);
              return (
                <TableRow key={deposit.id} data-testid={summaryId}>
                  <UserCell user={deposit.user} />
                  <TableCell label="Amount (USDT)" className="whitespace-nowrap">
                    <p className="font-medium">{usdtText(deposit.amount)}</p>
                    {exactAmount && <p className="text-xs text-slate-600">Exactly {exactAmount}</p>}
                    <p className="text-xs text-slate-500">≈ {inrText(deposit.estimatedInr)}</p>
                  </TableCell>
                  <TableCell label="Transaction Hash" wide className="md:max-w-[18rem]">
                    <Badge tone="brand">{deposit.network}</Badge>
                    <p className="mt-1 break-all font-mono text-xs">{deposit.transactionHash}</p>
                    <a
                      href={explorer.url(deposit.transactionHash)}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="mt-1 inline-flex items-center gap-1 text-xs text-brand-700 hover:underline"
                    >
                      View on {explorer.name}
                      <ExternalLink className="size-3" aria-hidden />
                    </a>
                    <p className="mt-1 break-all text-xs text-slate-500">To {deposit.depositAddress}</p>
                  </TableCell>
                  <DateCell createdAt={deposit.createdAt} decidedAt={deposit.decidedAt} />
                  <StatusCell status={deposit.status}>
                    {deposit.rejectionReason && <p className="mt-1 text-xs text-slate-600">Reason: {deposit.rejectionReason}</p>}
                  </StatusCell>
                  <ActionsCell
                    pending={deposit.status === 'pending'}
                    busy={busyId === deposit.id}
                    summaryId={`${summaryId}-summary`}
                    summary={`Deposit of ${amount} by ${deposit.user.name}`}
                    onApprove={() =>
                      openDecision({
                        kind: 'deposits',
                        decision: 'approve',
                        id: deposit.id,
                        description: `Credit ${amount} to ${deposit.user.name} (${deposit.user.email})? Approve only after the transaction has arrived in the ${deposit.network} wallet.`,
                      })
                    }
                    onReject={() =>
                      openDecision({
                        kind: 'deposits',
                        decision: 'reject',
                        id: deposit.id,
                        description: `The deposit of ${amount} from ${deposit.user.name} (${deposit.user.email}) will be marked rejected. No money moves.`,
                      })
                    }
                  />
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </QueueStates>
    </section>
  );
}

function BankDetails({ bank }: { bank: AdminWithdrawal['bank'] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs">
      <dt className="text-slate-500">Holder</dt>
      <dd className="font-medium text-slate-900">{bank.accountHolderName}</dd>
      <dt className="text-slate-500">Bank</dt>
      <dd>{bank.bankName}</dd>
      <dt className="text-slate-500">Account</dt>
      <dd className="font-mono">{bank.accountNumber}</dd>
      <dt className="text-slate-500">IFSC</dt>
      <dd className="font-mono">{bank.ifscCode}</dd>
      {bank.upiId && (
        <>
          <dt className="text-slate-500">UPI</dt>
          <dd className="break-all">{bank.upiId}</dd>
        </>
      )}
    </dl>
  );
}

function WithdrawalsPanel({ status, busyId, openDecision }: { status: StatusFilter; busyId: string | null; openDecision: OpenDecision }) {
  const withdrawals = useWithdrawalQueue(status);
  const items = withdrawals.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="withdrawals-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="withdrawals-heading" className="text-base font-semibold">
          INR Withdrawals
        </h2>
        <Button variant="outline" size="sm" asChild>
          <a href={PENDING_WITHDRAWALS_CSV_URL} download title="All pending withdrawals, oldest first, with the bank details for a bulk payout">
            <Download />
            Download CSV
          </a>
        </Button>
      </div>
      <QueueStates
        query={withdrawals}
        itemCount={items.length}
        emptyText="No withdrawals found"
        loadingText="Loading withdrawals..."
        failureTitle="Failed to load withdrawals"
      >
        <Table label="INR Withdrawals" stacked className="md:min-w-[60rem]">
          <TableHead>
            <TableRow>
              <TableHeaderCell>User</TableHeaderCell>
              <TableHeaderCell>Amount (INR)</TableHeaderCell>
              <TableHeaderCell>Bank Details</TableHeaderCell>
              <TableHeaderCell>Date</TableHeaderCell>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell>Actions</TableHeaderCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((withdrawal) => {
              const summaryId = `withdrawal-${withdrawal.id}`;
              const inr = inrText(withdrawal.amountInr);
              const usdt = usdtText(withdrawal.amountUsdt);
              return (
                <TableRow key={withdrawal.id} data-testid={summaryId}>
                  <UserCell user={withdrawal.user} />
                  <TableCell label="Amount (INR)" className="whitespace-nowrap">
                    <p className="font-medium">{inr}</p>
                    <p className="text-xs text-slate-500">
                      {usdt} at {inrText(withdrawal.rateInr)}
                    </p>
                    {withdrawal.rateTier === 'vip' && (
                      <Badge tone="vip" className="mt-1">
                        VIP Rate
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell label="Bank Details" wide className="md:min-w-[14rem]">
                    <BankDetails bank={withdrawal.bank} />
                  </TableCell>
                  <DateCell createdAt={withdrawal.createdAt} decidedAt={withdrawal.decidedAt} />
                  <StatusCell status={withdrawal.status}>
                    {withdrawal.payoutReference && <p className="mt-1 break-all text-xs text-slate-600">UTR: {withdrawal.payoutReference}</p>}
                    {withdrawal.rejectionReason && <p className="mt-1 text-xs text-slate-600">Reason: {withdrawal.rejectionReason}</p>}
                  </StatusCell>
                  <ActionsCell
                    pending={withdrawal.status === 'pending'}
                    busy={busyId === withdrawal.id}
                    summaryId={`${summaryId}-summary`}
                    summary={`Withdrawal of ${inr} by ${withdrawal.user.name}`}
                    onApprove={() =>
                      openDecision({
                        kind: 'withdrawals',
                        decision: 'approve',
                        id: withdrawal.id,
                        description: `Approve only after ${inr} has been paid to ${withdrawal.bank.accountHolderName}, ${withdrawal.bank.bankName} account ${withdrawal.bank.accountNumber} (IFSC ${withdrawal.bank.ifscCode}).`,
                      })
                    }
                    onReject={() =>
                      openDecision({
                        kind: 'withdrawals',
                        decision: 'reject',
                        id: withdrawal.id,
                        description: `The ${usdt} held for this withdrawal of ${inr} will be returned to the wallet of ${withdrawal.user.name} (${withdrawal.user.email}).`,
                      })
                    }
                  />
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </QueueStates>
    </section>
  );
}

function TransfersPanel({ status, busyId, openDecision }: { status: StatusFilter; busyId: string | null; openDecision: OpenDecision }) {
  const transfers = useTransferQueue(status);
  const items: AdminTransfer[] = transfers.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="transfers-heading" className="flex flex-col gap-3">
      <h2 id="transfers-heading" className="text-base font-semibold">
        USDT Transfers
      </h2>
      <QueueStates query={transfers} itemCount={items.length} emptyText="No transfers found" loadingText="Loading transfers..." failureTitle="Failed to load transfers">
        <Table label="USDT Transfers" stacked className="md:min-w-[52rem]">
          <TableHead>
            <TableRow>
              <TableHeaderCell>From</TableHeaderCell>
              <TableHeaderCell>To</TableHeaderCell>
              <TableHeaderCell>Amount (USDT)</TableHeaderCell>
              <TableHeaderCell>Date</TableHeaderCell>
              <TableHeaderCell>Status</TableHeaderCell>
              <TableHeaderCell>Actions</TableHeaderCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((transfer) => {
              const summaryId = `transfer-${transfer.id}`;
              const amount = usdtText(transfer.amount);
              return (
                <TableRow key={transfer.id} data-testid={summaryId}>
                  <UserCell user={transfer.sender} label="From" />
                  <UserCell user={transfer.recipient} label="To" />
                  <TableCell label="Amount (USDT)" className="whitespace-nowrap font-medium">
                    {amount}
                  </TableCell>
                  <DateCell createdAt={transfer.createdAt} decidedAt={transfer.decidedAt} />
                  <StatusCell status={transfer.status}>
                    {transfer.rejectionReason && <p className="mt-1 text-xs text-slate-600">Reason: {transfer.rejectionReason}</p>}
                  </StatusCell>
                  <ActionsCell
                    pending={transfer.status === 'pending'}
                    busy={busyId === transfer.id}
                    summaryId={`${summaryId}-summary`}
                    summary={`Transfer of ${amount} from ${transfer.sender.name} to ${transfer.recipient.name}`}
                    onApprove={() =>
                      openDecision({
                        kind: 'transfers',
                        decision: 'approve',
                        id: transfer.id,
                        description: `${amount} from ${transfer.sender.name} (${transfer.sender.email}) will be credited to ${transfer.recipient.name} (${transfer.recipient.email}).`,
                      })
                    }
                    onReject={() =>
                      openDecision({
                        kind: 'transfers',
                        decision: 'reject',
                        id: transfer.id,
                        description: `${amount} will be returned to ${transfer.sender.name} (${transfer.sender.email}).`,
                      })
                    }
                  />
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </QueueStates>
    </section>
  );
}

export default function TransactionsPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = pickOne(searchParams.get('tab'), TABS, 'deposits');
  const status = pickOne(searchParams.get('status'), STATUS_FILTERS, 'all');
  const refreshing = useIsFetching({ queryKey: adminKeys.queues() }) > 0;
  const decision = useDecision();

  const setParam = (name: 'tab' | 'status', value: string) => {
    const next = new URLSearchParams(searchParams);
    next.set(name, value);
    setSearchParams(next, { replace: true });
  };

  const panelProps = { status, busyId: decision.busyId, openDecision: decision.open };

  return (
    <AdminPage title="Transaction Management" backTo="/admin">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="sm:w-56">
          <FormField label="Status">
            <Select value={status} onChange={(event) => setParam('status', event.target.value)}>
              {STATUS_FILTERS.map((option) => (
                <option key={option} value={option}>
                  {STATUS_FILTER_LABELS[option]}
                </option>
              ))}
            </Select>
          </FormField>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => navigate('/admin')}>
            <ArrowLeft />
            Back
          </Button>
          <Button variant="outline" onClick={() => void queryClient.invalidateQueries({ queryKey: adminKeys.all })} disabled={refreshing} aria-busy={refreshing}>
            <RefreshCw className={refreshing ? 'animate-spin' : undefined} />
            Refresh
          </Button>
        </div>
      </div>

      <Tabs value={tab} onValueChange={(value) => setParam('tab', value)}>
        <TabsList>
          <TabsTrigger value="deposits">Deposits</TabsTrigger>
          <TabsTrigger value="withdrawals">Withdrawals</TabsTrigger>
          <TabsTrigger value="transfers">Transfers</TabsTrigger>
        </TabsList>
        <TabsContent value="deposits">
          <DepositsPanel {...panelProps} />
        </TabsContent>
        <TabsContent value="withdrawals">
          <WithdrawalsPanel {...panelProps} />
        </TabsContent>
        <TabsContent value="transfers">
          <TransfersPanel {...panelProps} />
        </TabsContent>
      </Tabs>
      {decision.dialog}
    </AdminPage>
  );
}
