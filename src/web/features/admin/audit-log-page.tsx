import { Link } from 'react-router';
import { auditLogCsvQuerySchema, type AuditLogEntry } from '#shared/contracts/admin';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { errorMessage } from '../../lib/api.ts';
import { cn } from '../../lib/utils.ts';
import { useAuditLog, type AuditLogFilters } from './api.ts';
import { actionLabel, actionTone, changesOf, type ActionTone } from './audit-log-format.ts';
import { AuditLogFilterCard, useAuditLogFilters } from './audit-log-filters.tsx';
import { AdminPage } from './components/admin-page.tsx';
import { EmptyState, ErrorState, LoadingState, LoadMore } from './components/list-states.tsx';
import { fullDateTimeText } from './format.ts';

const FILTER_NAMES = ['q', 'action', 'targetUserId', 'from', 'to'] as const satisfies readonly (keyof AuditLogFilters)[];

const TONE_LOOK: Record<ActionTone, { card: string; badge: string }> = {
  approval: { card: 'border-l-4 border-l-emerald-500', badge: 'bg-emerald-100 text-emerald-800' },
  rejection: { card: 'border-l-4 border-l-red-500', badge: 'bg-red-100 text-red-800' },
  neutral: { card: 'border-l-4 border-l-slate-300', badge: 'bg-slate-100 text-slate-700' },
};

function Person({ person, fallback }: { person: AuditLogEntry['actor']; fallback: string }) {
  if (!person) return <span className="text-slate-500">{fallback}</span>;
  return (
    <Link className="break-all text-brand-700 hover:underline" to={`/admin/users/${person.id}`}>
      {person.name} <span className="text-slate-600">({person.email})</span>
    </Link>
  );
}

/** Only the fields the action changed, each with its label and formatted values. */
function Changes({ entry }: { entry: AuditLogEntry }) {
  const changes = changesOf(entry.before, entry.after);
  if (changes.length === 0) return null;
  return (
    <dl className="divide-y divide-slate-100 rounded-lg border border-slate-100 text-xs">
      {changes.map((change) => (
        <div key={change.field} data-field={change.field} className="grid gap-x-3 gap-y-0.5 px-2 py-1.5 sm:grid-cols-[11rem_1fr]">
          <dt className="font-medium text-slate-700">{change.label}</dt>
          <dd className="break-all text-slate-900">
            {change.before !== undefined && (
              <>
                <span className="sr-only">Before: </span>
                <span className="text-slate-500 line-through decoration-slate-300">{change.before}</span>
                <span aria-hidden> → </span>
              </>
            )}
            <span className="sr-only">After: </span>
            {change.after ?? '—'}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Entry({ entry, onFilterUser }: { entry: AuditLogEntry; onFilterUser: (userId: string) => void }) {
  const tone = actionTone(entry.action);
  return (
    <Card className={cn('flex flex-col gap-3 p-4 lg:grid lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] lg:gap-6', TONE_LOOK[tone].card)} data-tone={tone}>
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <span className={cn('inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold', TONE_LOOK[tone].badge)}>{actionLabel(entry.action)}</span>
          <time dateTime={entry.createdAt} className="text-xs text-slate-500">
            {fullDateTimeText(entry.createdAt)}
          </time>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-500">Who</dt>
          <dd>
            <Person person={entry.actor} fallback={entry.actor === null ? 'System (automatic)' : 'Unknown'} />
          </dd>
          {entry.targetUser && (
            <>
              <dt className="text-slate-500">User</dt>
              <dd className="flex flex-col items-start">
                <Person person={entry.targetUser} fallback="" />
                <Button variant="link" size="sm" className="h-auto px-0" onClick={() => entry.targetUser && onFilterUser(entry.targetUser.id)}>
                  Only this user
                </Button>
              </dd>
            </>
          )}
          {entry.targetId && !entry.targetUser && (
            <>
              <dt className="text-slate-500">What</dt>
              <dd className="break-all">
                {entry.targetType} <span className="font-mono text-xs text-slate-500">{entry.targetId}</span>
              </dd>
            </>
          )}
          {entry.ipAddress && (
            <>
              <dt className="text-slate-500">IP address</dt>
              <dd className="font-mono text-xs">{entry.ipAddress}</dd>
            </>
          )}
        </dl>
      </div>
      <Changes entry={entry} />
    </Card>
  );
}

export default function AuditLogPage() {
  const { filters, searchText, setSearchText, setFilter } = useAuditLogFilters();

  // The filters are checked with the server's own schema before any request, so a bad date shows here.
  const checked = auditLogCsvQuerySchema.safeParse(
    Object.fromEntries(FILTER_NAMES.filter((name) => filters[name] !== '').map((name) => [name, filters[name]])),
  );
  const problems = checked.success ? {} : Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
  const log = useAuditLog(filters, checked.success);
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = FILTER_NAMES.some((name) => filters[name] !== '');
  const filteredUser = filters.targetUserId ? entries.find((entry) => entry.targetUser?.id === filters.targetUserId)?.targetUser : undefined;

  return (
    <AdminPage title="Audit Log" backTo="/admin">
      <AuditLogFilterCard
        filters={filters}
        problems={problems}
        searchText={searchText}
        onSearchTextChange={setSearchText}
        setFilter={setFilter}
        filteredUser={filteredUser}
        refreshing={log.isFetching}
        onRefresh={() => void log.refetch()}
      />

      {checked.success && log.isPending && <LoadingState text="Loading audit log..." />}
      {checked.success && log.isError && (
        <ErrorState title="Failed to load the audit log" message={errorMessage(log.error, 'Please try again.')} onRetry={() => void log.refetch()} />
      )}
      {log.isSuccess && entries.length === 0 && (
        <EmptyState title="No audit log entries found">{filtered ? 'Try clearing the filters.' : undefined}</EmptyState>
      )}
      {entries.length > 0 && (
        <>
          <ol className="flex flex-col gap-3" aria-label="Audit log, newest first">
            {entries.map((entry) => (
              <li key={entry.id}>
                <Entry entry={entry} onFilterUser={(userId) => setFilter('targetUserId', userId)} />
              </li>
            ))}
          </ol>
          <LoadMore hasMore={log.hasNextPage} loading={log.isFetchingNextPage} onLoadMore={() => void log.fetchNextPage()} />
        </>
      )}
    </AdminPage>
  );
}
