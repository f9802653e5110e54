import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { payoutBatchCandidatesQuerySchema, type PayoutBatchCandidate, type PayoutBatchCandidates } from '#shared/contracts/payout-batches';
import { formatInrForDisplay, inrPaiseFromWire } from '#shared/money';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '../../components/ui/table.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useIdempotencyKeys } from '../wallet/index.ts';
import { adminKeys, createPayoutBatch, usePayoutBatchCandidates, type PayoutBatchFilters } from './api.ts';
import { AdminPage } from './components/admin-page.tsx';
import { EmptyState, ErrorState, LoadingState } from './components/list-states.tsx';
import { inrText, shortDateTimeText } from './format.ts';
import { useDebouncedValue } from './use-debounced-value.ts';

/*
 * "New batch" with the rows chosen by the admin (issue 31): the pending withdrawals a batch may take, filtered by
 * amount, age and bank, at most one batch's worth; the chosen ones make the batch. The server checks every rule
 * again when the batch is made.
 */

const NO_FILTERS: PayoutBatchFilters = { minInr: '', maxInr: '', olderThanHours: '', bank: '' };

/** Each filter's message when the typed text is refused, by the same schema the server applies. */
function filterErrors(filters: PayoutBatchFilters): Partial<Record<keyof PayoutBatchFilters, string>> {
  const parsed = payoutBatchCandidatesQuerySchema.safeParse({
    ...filters,
    olderThanHours: filters.olderThanHours.trim() === '' ? undefined : filters.olderThanHours,
  });
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

function FilterFields({
  filters,
  errors,
  onChange,
}: {
  filters: PayoutBatchFilters;
  errors: Partial<Record<keyof PayoutBatchFilters, string>>;
  onChange: (filters: PayoutBatchFilters) => void;
}) {
  const field = (name: keyof PayoutBatchFilters, label: string, inputMode: 'decimal' | 'numeric' | 'text', help?: string) => (
    <FormField label={label} error={errors[name]} {...(help ? { help } : {})}>
      <Input
        value={filters[name]}
        inputMode={inputMode}
        maxLength={100}
        autoComplete="off"
        onChange={(event) => onChange({ ...filters, [name]: event.target.value })}
      />
    </FormField>
  );
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="group" aria-label="Filters">
      {field('minInr', 'Smallest amount (₹)', 'decimal')}
      {field('maxInr', 'Largest amount (₹)', 'decimal')}
      {field('olderThanHours', 'Requested at least (hours ago)', 'numeric')}
      {field('bank', 'Bank', 'text', 'Part of the bank’s name, e.g. HDFC')}
    </div>
  );
}

function CandidateRow({ item, chosen, onToggle }: { item: PayoutBatchCandidate; chosen: boolean; onToggle: () => void }) {
  return (
    <TableRow data-testid={`candidate-${item.id}`}>
      <TableCell label="Choose">
        <input type="checkbox" className="size-5" checked={chosen} onChange={onToggle} aria-label={`Choose ${item.reference}`} />
      </TableCell>
      <TableCell label="Reference" className="font-mono text-xs">
        {item.reference}
      </TableCell>
      <TableCell label="Customer" wide>
        <p className="font-medium text-slate-900">{item.customerName}</p>
        <p className="break-all text-slate-600">{item.customerEmail}</p>
      </TableCell>
      <TableCell label="Pays (INR)" className="whitespace-nowrap font-medium">
        {inrText(item.netInr)}
      </TableCell>
      <TableCell label="To">{item.upiId ?? `${item.bankName} ••••${item.accountNumberLast4}`}</TableCell>
      <TableCell label="Requested" className="whitespace-nowrap">
        <time dateTime={item.createdAt}>{shortDateTimeText(item.createdAt)}</time>
      </TableCell>
    </TableRow>
  );
}

function CandidatesTable({ answer, chosen, setChosen }: { answer: PayoutBatchCandidates; chosen: Set<string>; setChosen: (chosen: Set<string>) => void }) {
  const allChosen = answer.items.length > 0 && answer.items.every((item) => chosen.has(item.id));
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (!next.delete(id)) next.add(id);
    setChosen(next);
  };
  return (
    <>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className="size-5"
          checked={allChosen}
          onChange={() => setChosen(allChosen ? new Set() : new Set(answer.items.map((item) => item.id)))}
        />
        Select all {answer.items.length} shown
      </label>
      <Table label="Pending withdrawals" stacked className="md:min-w-[48rem]">
        <TableHead>
          <TableRow>
            <TableHeaderCell>Choose</TableHeaderCell>
            <TableHeaderCell>Reference</TableHeaderCell>
            <TableHeaderCell>Customer</TableHeaderCell>
            <TableHeaderCell>Pays (INR)</TableHeaderCell>
            <TableHeaderCell>To</TableHeaderCell>
            <TableHeaderCell>Requested</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {answer.items.map((item) => (
            <CandidateRow key={item.id} item={item} chosen={chosen.has(item.id)} onToggle={() => toggle(item.id)} />
          ))}
        </TableBody>
      </Table>
    </>
  );
}

/** Makes the batch of the chosen withdrawals after a confirmation, then opens it. */
function CreateChosenBatch({ chosen, items }: { chosen: Set<string>; items: PayoutBatchCandidate[] }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const idempotencyKeys = useIdempotencyKeys();
  const [confirming, setConfirming] = useState(false);
  const [creating, setCreating] = useState(false);
  const ids = items.filter((item) => chosen.has(item.id)).map((item) => item.id);
  const totalPaise = items.filter((item) => chosen.has(item.id)).reduce((sum, item) => sum + inrPaiseFromWire(item.netInr), 0n);

  const create = async () => {
    setCreating(true);
    try {
      // The same key for the same rows until it succeeds: a retry after a lost answer gets the batch already made.
      const { batch, message } = await createPayoutBatch(idempotencyKeys.keyFor({ batch: [...ids].sort().join(',') }), ids);
      idempotencyKeys.forget();
      toast.success(message, { description: `${batch.count} withdrawals, ${inrText(batch.totalInr)}` });
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      await navigate(`/admin/payouts/${batch.id}`);
    } catch (error) {
      toast.error('The payout batch could not be created', { description: errorMessage(error, 'Please try again.') });
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: adminKeys.payoutBatches() });
    } finally {
      setCreating(false);
    }
  };

  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-slate-700" data-testid="chosen-summary" aria-live="polite">
        {ids.length === 0 ? 'No withdrawal chosen.' : `${ids.length} chosen: ${formatInrForDisplay(totalPaise)} to pay.`}
      </p>
      <Button onClick={() => setConfirming(true)} disabled={ids.length === 0 || creating}>
        Create batch of {ids.length}
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !creating && setConfirming(open)}
        title="Create a payout batch?"
        description={`The ${ids.length === 1 ? 'chosen withdrawal moves' : `${ids.length} chosen withdrawals move`} into the batch as Processing; no other batch or single decision can take them.`}
        confirmLabel={creating ? 'Please wait...' : 'Create batch'}
        busy={creating}
        onConfirm={() => void create()}
      />
    </div>
  );
}

export default function PayoutCandidatesPage() {
  const [typed, setTyped] = useState<PayoutBatchFilters>(NO_FILTERS);
  const filters = useDebouncedValue(typed, 300);
  const errors = filterErrors(filters);
  const valid = Object.keys(errors).length === 0;
  const candidates = usePayoutBatchCandidates(filters, valid);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const items = candidates.data?.items ?? [];

  return (
    <AdminPage title="Choose withdrawals for a batch" backTo="/admin/payouts">
      <FilterFields filters={typed} errors={filterErrors(typed)} onChange={setTyped} />
      {candidates.isPending && valid && <LoadingState text="Loading pending withdrawals..." />}
      {candidates.isError && (
        <ErrorState
          title="Failed to load pending withdrawals"
          message={errorMessage(candidates.error, 'Please try again.')}
          onRetry={() => void candidates.refetch()}
        />
      )}
      {candidates.data && (
        <>
          <p className="text-sm text-slate-600" data-testid="candidates-count">
            {candidates.data.totalMatching > candidates.data.items.length
              ? `The ${candidates.data.items.length} oldest of ${candidates.data.totalMatching} matching withdrawals are shown: one batch holds at most ${candidates.data.ceiling}.`
              : `${candidates.data.totalMatching} matching ${candidates.data.totalMatching === 1 ? 'withdrawal' : 'withdrawals'}.`}
          </p>
          {items.length === 0 ? (
            <EmptyState title="No pending withdrawal matches">Change the filters, or come back when customers have asked for withdrawals.</EmptyState>
          ) : (
            <CandidatesTable answer={candidates.data} chosen={chosen} setChosen={setChosen} />
          )}
          <CreateChosenBatch chosen={chosen} items={items} />
        </>
      )}
    </AdminPage>
  );
}
