import type { KeyboardEvent, ReactNode } from 'react';
import type { WithdrawalStatus } from '#shared/contracts/enums';
import { Button } from '../../../components/ui/button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '../../../components/ui/table.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useMe } from '../../../lib/session.ts';
import { usePayoutOverview, type QueueKind, type StatusFilter } from '../api.ts';
import { shortDateTimeText } from '../format.ts';
import type { DecisionTarget } from '../use-decision.tsx';
import { EmptyState, ErrorState, LoadingState, LoadMore } from './list-states.tsx';
import { StatusBadge } from './status-badge.tsx';

/** What every request in an approval queue has. */
export interface QueueRow {
  id: string;
  status: WithdrawalStatus;
  createdAt: string;
  decidedAt: string | null;
}

/** One column of a queue's own: its header (repeated above the cell on narrow screens) and its cell's content. */
export interface QueueColumn<Row> {
  header: string;
  /** The cell takes the card's full width on narrow screens. */
  wide?: boolean;
  className?: string;
  cell: (row: Row) => ReactNode;
}

/** The page of queued requests a query loads, page by page. */
export interface QueueQuery<Row> {
  data: { pages: { items: Row[] }[] } | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * One kind of request in the approval queues: how to load it, its own columns (Date, Status
 * and Actions follow them in every queue), and the texts of its rows and decisions.
 */
export interface QueueDefinition<Row extends QueueRow> {
  kind: QueueKind;
  /** The section's heading and the table's name. */
  title: string;
  /** A control beside the heading. */
  headingAction?: ReactNode;
  /** Each row's test id is `${rowName}-${id}`. */
  rowName: string;
  tableClassName: string;
  loadingText: string;
  emptyText: string;
  failureTitle: string;
  useQueue: (status: StatusFilter) => QueueQuery<Row>;
  columns: readonly QueueColumn<Row>[];
  /** What the Status cell shows under the badge (reason, payout reference). */
  statusDetails: (row: Row) => ReactNode;
  /** The users a request is about: an admin among them may not decide it (four eyes; the server refuses too). */
  usersOf: (row: Row) => string[];
  /** Names the row for screen readers, since every row has the same two buttons. */
  summary: (row: Row) => string;
  /** What the confirmation says will happen; `viaProvider`: a payout provider pays approved withdrawals (decision 043). */
  describeDecision: (row: Row, decision: DecisionTarget['decision'], options: { viaProvider: boolean }) => string;
  /** The rail a withdrawal is paid by, for the form of its UTR (decision 049). */
  paymentModeOf?: (row: Row) => DecisionTarget['paymentMode'];
}

function ActionsCell({
  summaryId,
  summary,
  busy,
  own,
  onApprove,
  onReject,
}: {
  summaryId: string;
  summary: string;
  busy: boolean;
  own: boolean;
  onApprove: () => void;
  onReject: () => void;
}) {
  const ownId = `${summaryId}-own`;
  const describedBy = own ? `${summaryId} ${ownId}` : summaryId;
  return (
    <TableCell label="Actions" wide>
      <span id={summaryId} hidden>
        {summary}
      </span>
      <div className="flex gap-2">
        <Button size="sm" className="max-md:flex-1" onClick={onApprove} disabled={busy || own} aria-describedby={describedBy}>
          Approve
        </Button>
        <Button
          size="sm"
          variant="outline"
          className="border-red-300 text-red-700 hover:bg-red-50 max-md:flex-1"
          onClick={onReject}
          disabled={busy || own}
          aria-describedby={describedBy}
        >
          Reject
        </Button>
      </div>
      {own && (
        <p id={ownId} className="mt-1 text-xs text-slate-500">
          {OWN_REQUEST_NOTE}
        </p>
      )}
    </TableCell>
  );
}

const OWN_REQUEST_NOTE = 'Your own request: another admin must decide it.';

/** Keys typed into a field (a row's own note or search) are text, not shortcuts. */
function isTypingTarget(target: EventTarget): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** Who may decide a queued row, and the decision it opens from its buttons or its A and R keys. */
function useQueueRowDecision<Row extends QueueRow>(definition: QueueDefinition<Row>, row: Row, busy: boolean, openDecision: (target: DecisionTarget) => void) {
  const myId = useMe().data?.id;
  const own = myId !== undefined && definition.usersOf(row).includes(myId);
  const viaProvider = (usePayoutOverview(definition.kind === 'withdrawals').data?.provider ?? null) !== null;
  const decide = (decision: DecisionTarget['decision']) =>
    openDecision({
      kind: definition.kind,
      decision,
      id: row.id,
      description: definition.describeDecision(row, decision, { viaProvider }),
      paymentMode: definition.paymentModeOf?.(row),
    });
  const pending = row.status === 'pending';
  // Desk shortcuts: on a focused pending row, A opens the approval and R the rejection, each with its confirmation.
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (!pending || busy || own || event.altKey || event.ctrlKey || event.metaKey || isTypingTarget(event.target)) return;
    const key = event.key.toLowerCase();
    if (key !== 'a' && key !== 'r') return;
    event.preventDefault();
    decide(key === 'a' ? 'approve' : 'reject');
  };
  return { own, pending, decide, onKeyDown };
}

function QueueRowView<Row extends QueueRow>({
  definition,
  row,
  busy,
  openDecision,
}: {
  definition: QueueDefinition<Row>;
  row: Row;
  busy: boolean;
  openDecision: (target: DecisionTarget) => void;
}) {
  const rowId = `${definition.rowName}-${row.id}`;
  const { own, pending, decide, onKeyDown } = useQueueRowDecision(definition, row, busy, openDecision);
  return (
    <TableRow
      data-testid={rowId}
      {...(pending
        ? {
            tabIndex: 0,
            onKeyDown,
            'aria-keyshortcuts': 'A R',
            'aria-describedby': `${rowId}-summary`,
            className: 'focus:outline-2 focus:outline-offset-[-2px] focus:outline-brand-500',
          }
        : {})}
    >
      {definition.columns.map((column) => (
        <TableCell key={column.header} label={column.header} wide={column.wide ?? false} className={column.className}>
          {column.cell(row)}
        </TableCell>
      ))}
      <TableCell label="Date" className="whitespace-nowrap">
        <time dateTime={row.createdAt}>{shortDateTimeText(row.createdAt)}</time>
        {row.decidedAt && (
          <p className="text-xs text-slate-500">
            Decided <time dateTime={row.decidedAt}>{shortDateTimeText(row.decidedAt)}</time>
          </p>
        )}
      </TableCell>
      <TableCell label="Status">
        <StatusBadge status={row.status} />
        {definition.statusDetails(row)}
      </TableCell>
      {row.status === 'pending' ? (
        <ActionsCell
          summaryId={`${rowId}-summary`}
          summary={definition.summary(row)}
          busy={busy}
          own={own}
          onApprove={() => decide('approve')}
          onReject={() => decide('reject')}
        />
      ) : (
        <TableCell label="Actions" wide className="text-slate-400 max-md:hidden">
          <span aria-label="No actions">—</span>
        </TableCell>
      )}
    </TableRow>
  );
}

/** One approval queue: its heading, its loading, failure and empty states, the table, and Load more. */
export function QueueTable<Row extends QueueRow>({
  definition,
  status,
  busyId,
  openDecision,
}: {
  definition: QueueDefinition<Row>;
  status: StatusFilter;
  busyId: string | null;
  openDecision: (target: DecisionTarget) => void;
}) {
  const query = definition.useQueue(status);
  const rows = query.data?.pages.flatMap((page) => page.items) ?? [];
  const headingId = `${definition.kind}-heading`;
  const heading = (
    <h2 id={headingId} className="text-base font-semibold">
      {definition.title}
    </h2>
  );

  let content: ReactNode;
  if (query.isPending) content = <LoadingState text={definition.loadingText} />;
  else if (query.isError)
    content = (
      <ErrorState
        title={definition.failureTitle}
        message={errorMessage(query.error, 'Failed to fetch transaction data')}
        onRetry={() => void query.refetch()}
      />
    );
  else if (rows.length === 0) content = <EmptyState title={definition.emptyText} />;
  else content = <QueueRows definition={definition} query={query} rows={rows} busyId={busyId} openDecision={openDecision} />;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      {definition.headingAction ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          {heading}
          {definition.headingAction}
        </div>
      ) : (
        heading
      )}
      {content}
    </section>
  );
}

/** A queue with rows: the keyboard hint, the table and Load more. */
function QueueRows<Row extends QueueRow>({
  definition,
  query,
  rows,
  busyId,
  openDecision,
}: {
  definition: QueueDefinition<Row>;
  query: QueueQuery<Row>;
  rows: Row[];
  busyId: string | null;
  openDecision: (target: DecisionTarget) => void;
}) {
  return (
    <>
      <p className="hidden text-xs text-slate-500 lg:block">
        Keyboard: Tab to a pending row, then <kbd className="rounded border border-slate-300 px-1 font-mono">A</kbd> approves and{' '}
        <kbd className="rounded border border-slate-300 px-1 font-mono">R</kbd> rejects, after a confirmation.
      </p>
      <Table label={definition.title} stacked className={definition.tableClassName}>
        <TableHead>
          <TableRow>
            {definition.columns.map((column) => (
              <TableHeaderCell key={column.header}>{column.header}</TableHeaderCell>
            ))}
            <TableHeaderCell>Date</TableHeaderCell>
            <TableHeaderCell>Status</TableHeaderCell>
            <TableHeaderCell>Actions</TableHeaderCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <QueueRowView key={row.id} definition={definition} row={row} busy={busyId === row.id} openDecision={openDecision} />
          ))}
        </TableBody>
      </Table>
      <LoadMore hasMore={query.hasNextPage} loading={query.isFetchingNextPage} onLoadMore={() => void query.fetchNextPage()} />
    </>
  );
}
