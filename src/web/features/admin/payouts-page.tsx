import { useQueryClient } from '@tanstack/react-query';
import { ListChecks, Plus, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { PayoutBatch } from '#shared/contracts/payout-batches';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '../../components/ui/table.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useIdempotencyKeys } from '../wallet/index.ts';
import { adminKeys, createPayoutBatch, useAdminDashboard, usePayoutBatches } from './api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { EmptyState, ErrorState, LoadingState, LoadMore } from './components/list-states.tsx';
import { PayoutBatchStatus } from './components/payout-batch-status.tsx';
import { inrText, shortDateTimeText } from './format.ts';
import { TdsReportCard } from './tds-report-card.tsx';

function BatchRow({ batch }: { batch: PayoutBatch }) {
  return (
    <TableRow data-testid={`payout-batch-${batch.id}`}>
      <TableCell label="Created" className="whitespace-nowrap">
        <Link to={`/admin/payouts/${batch.id}`} className="font-medium text-brand-700 hover:underline">
          <time dateTime={batch.createdAt}>{shortDateTimeText(batch.createdAt)}</time>
        </Link>
      </TableCell>
      <TableCell label="Created by" wide>
        {batch.createdBy ? (
          <>
            <p className="font-medium text-slate-900">{batch.createdBy.name}</p>
            <p className="break-all text-slate-600">{batch.createdBy.email}</p>
          </>
        ) : (
          <span className="text-slate-500">Unknown</span>
        )}
      </TableCell>
      <TableCell label="Withdrawals">{batch.count}</TableCell>
      <TableCell label="Total (INR)" className="whitespace-nowrap font-medium">
        {inrText(batch.totalInr)}
      </TableCell>
      <TableCell label="State">
        <PayoutBatchStatus batch={batch} />
      </TableCell>
      <TableCell label="Actions" wide>
        <Button size="sm" variant="outline" asChild>
          <Link to={`/admin/payouts/${batch.id}`} aria-label={`Open the batch of ${shortDateTimeText(batch.createdAt)}`}>
            Open
          </Link>
        </Button>
      </TableCell>
    </TableRow>
  );
}

type PendingWithdrawals = { count: number; totalInr: string } | undefined;

function PendingForBatchText({ pending }: { pending: PendingWithdrawals }) {
  return (
    <p className="text-sm text-slate-600" data-testid="pending-for-batch">
      {pending
        ? pending.count === 0
          ? 'No withdrawals are waiting for a payout batch.'
          : `${pending.count === 1 ? '1 withdrawal is' : `${pending.count} withdrawals are`} waiting for a payout batch: ${inrText(pending.totalInr)}.`
        : 'Pending withdrawals go into a payout batch, whose bank file pays them all.'}
    </p>
  );
}

function BatchesTable({ items }: { items: PayoutBatch[] }) {
  return (
    <Table label="Payout batches" stacked className="md:min-w-[48rem]">
      <TableHead>
        <TableRow>
          <TableHeaderCell>Created</TableHeaderCell>
          <TableHeaderCell>Created by</TableHeaderCell>
          <TableHeaderCell>Withdrawals</TableHeaderCell>
          <TableHeaderCell>Total (INR)</TableHeaderCell>
          <TableHeaderCell>State</TableHeaderCell>
          <TableHeaderCell>Actions</TableHeaderCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {items.map((batch) => (
          <BatchRow key={batch.id} batch={batch} />
        ))}
      </TableBody>
    </Table>
  );
}

/** Creates a batch of the oldest pending withdrawals and opens it; `confirming` is the confirmation dialog's state. */
function useCreateBatch() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const idempotencyKeys = useIdempotencyKeys();
  const [confirming, setConfirming] = useState(false);
  const [creating, setCreating] = useState(false);

  const create = async () => {
    setCreating(true);
    try {
      // The same key until it succeeds: a retry after a lost answer gets the batch already made.
      const { batch, message } = await createPayoutBatch(idempotencyKeys.keyFor({ batch: 'oldest pending' }));
      idempotencyKeys.forget();
      toast.success(message, { description: `${batch.count} withdrawals, ${inrText(batch.totalInr)}` });
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      await navigate(`/admin/payouts/${batch.id}`);
    } catch (error) {
      toast.error('The payout batch could not be created', { description: errorMessage(error, 'Please try again.') });
      setConfirming(false);
    } finally {
      setCreating(false);
    }
  };
  return { confirming, setConfirming, creating, create };
}

function NewBatchDialog({ pending, batch }: { pending: PendingWithdrawals; batch: ReturnType<typeof useCreateBatch> }) {
  return (
    <ConfirmDialog
      open={batch.confirming}
      onOpenChange={(open) => !batch.creating && batch.setConfirming(open)}
      title="Create a payout batch?"
      description={
        pending
          ? `The ${pending.count === 1 ? 'pending withdrawal' : `${Math.min(pending.count, 500)} oldest pending withdrawals`} (at most 500) move into the batch as Processing; no other batch or single decision can take them.`
          : 'The oldest pending withdrawals (at most 500) move into the batch as Processing.'
      }
      confirmLabel={batch.creating ? 'Please wait...' : 'Create batch'}
      busy={batch.creating}
      onConfirm={() => void batch.create()}
    />
  );
}

/** The payout batches, newest first, and "New batch" for the pending withdrawals. */
export default function PayoutsPage() {
  const batches = usePayoutBatches();
  const dashboard = useAdminDashboard();
  const newBatch = useCreateBatch();
  const items = batches.data?.pages.flatMap((page) => page.items) ?? [];
  const pending = dashboard.data?.pendingWithdrawals;

  return (
    <AdminPage title="Payouts" backTo="/admin">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <PendingForBatchText pending={pending} />
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => void batches.refetch()} disabled={batches.isFetching} aria-busy={batches.isFetching}>
            <RefreshCw className={batches.isFetching ? 'animate-spin' : undefined} />
            Refresh
          </Button>
          <Button variant="outline" asChild>
            <Link to="/admin/payouts/new">
              <ListChecks />
              Choose withdrawals
            </Link>
          </Button>
          <Button onClick={() => newBatch.setConfirming(true)} disabled={newBatch.creating || pending?.count === 0}>
            <Plus />
            New batch
          </Button>
        </div>
      </div>

      {batches.isPending && <LoadingState text="Loading payout batches..." />}
      {batches.isError && (
        <ErrorState title="Failed to load payout batches" message={errorMessage(batches.error, 'Please try again.')} onRetry={() => void batches.refetch()} />
      )}
      {batches.isSuccess && items.length === 0 && (
        <EmptyState title="No payout batches yet">Create one from the pending withdrawals with New batch.</EmptyState>
      )}
      {items.length > 0 && (
        <>
          <BatchesTable items={items} />
          <LoadMore hasMore={batches.hasNextPage} loading={batches.isFetchingNextPage} onLoadMore={() => void batches.fetchNextPage()} />
        </>
      )}

      <TdsReportCard />

      <NewBatchDialog pending={pending} batch={newBatch} />
    </AdminPage>
  );
}
