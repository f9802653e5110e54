import { zodResolver } from '@hookform/resolvers/zod';
import { RefreshCw, X } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import type { AuditLogEntry } from '../../../shared/contracts/admin.ts';
import { formatDecimalShort, formatInrForDisplay, formatUsdtShort, INR_DECIMALS } from '../../../shared/money.ts';
import { AppPage } from '../../components/layout/app-page.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Select } from '../../components/ui/select.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useAuditLog } from './api.ts';
import { EmptyState, ErrorState, LoadingState, LoadMore } from './components/list-states.tsx';
import { fullDateTimeText } from './format.ts';
import { isAuditAction, type AuditAction } from '../../../shared/contracts/enums.ts';

/** A label for every action the server records (AUDIT_ACTIONS); older or unknown actions show as they are stored. */
const ACTION_LABELS: Record<AuditAction, string> = {
  'deposit.approve': 'Deposit approved',
  'deposit.reject': 'Deposit rejected',
  'withdrawal.approve': 'Withdrawal approved',
  'withdrawal.reject': 'Withdrawal rejected',
  'withdrawals.export': 'Pending withdrawals exported (CSV)',
  'transfer.approve': 'Transfer approved',
  'transfer.reject': 'Transfer rejected',
  'settings.update': 'Settings changed',
  'settings.file_upload': 'Settings file uploaded',
  'user.update': 'User role or VIP level changed',
  'user.sessions_revoke': 'User sessions ended',
  'wallet.add': 'Customer wallet verified',
  'wallet.remove': 'Customer wallet removed',
  'payout_batch.create': 'Payout batch created',
  'payout_batch.download': 'Payout file downloaded',
  'payout_batch.results': 'Payout results applied',
  'payout_batch.cancel': 'Payout batch cancelled',
};

const USER_ID_LENGTH = 36;
const USER_ID_MESSAGE = 'Enter a user ID (a UUID such as 0b6f…), or open the audit log from a user’s details page';
/** An empty box shows every user's entries. */
const userFilterFormSchema = z.object({
  targetUserId: z
    .string()
    .trim()
    .refine((text) => text === '' || z.uuid().safeParse(text).success, { message: USER_ID_MESSAGE }),
});

function actionLabel(action: string): string {
  return isAuditAction(action) ? ACTION_LABELS[action] : action;
}

/** The server stores amounts in their integer units and names the unit in the field. */
function amountText(field: string, value: unknown): string | undefined {
  const digits = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  if (!/^-?\d{1,30}$/.test(digits)) return undefined;
  if (/UsdtMicros$/i.test(field)) return `${formatUsdtShort(BigInt(digits))} USDT`;
  if (/rate\w*Paise$/i.test(field)) return `₹${formatDecimalShort(BigInt(digits), INR_DECIMALS)} per USDT`;
  if (/Paise$/i.test(field)) return formatInrForDisplay(BigInt(digits));
  return undefined;
}

function valueText(value: unknown, field = ''): string {
  if (value === null || value === undefined || value === '') return '—';
  const amount = amountText(field, value);
  if (amount) return amount;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Before and after side by side, one line per field, changed fields marked. */
function Changes({ before, after }: { before: unknown; after: unknown }) {
  if (before === null && after === null) return null;
  if (!isRecord(before ?? {}) || !isRecord(after ?? {})) {
    return (
      <dl className="grid gap-1 text-xs">
        <dt className="font-semibold text-slate-500">Before</dt>
        <dd className="break-all font-mono">{valueText(before)}</dd>
        <dt className="font-semibold text-slate-500">After</dt>
        <dd className="break-all font-mono">{valueText(after)}</dd>
      </dl>
    );
  }
  const beforeFields = (before ?? {}) as Record<string, unknown>;
  const afterFields = (after ?? {}) as Record<string, unknown>;
  const names = [...new Set([...Object.keys(beforeFields), ...Object.keys(afterFields)])];
  // One line per field on wide screens, three short lines on phones; the labels are read out either way.
  return (
    <div className="rounded-lg border border-slate-100 text-xs">
      <div className="hidden grid-cols-[10rem_1fr_1fr] gap-2 border-b border-slate-100 px-2 py-1 font-semibold text-slate-500 sm:grid" aria-hidden>
        <span>Field</span>
        <span>Before</span>
        <span>After</span>
      </div>
      <dl className="divide-y divide-slate-100">
        {names.map((name) => {
          const oldText = name in beforeFields ? valueText(beforeFields[name], name) : '—';
          const newText = name in afterFields ? valueText(afterFields[name], name) : '—';
          const changed = oldText !== newText;
          return (
            <div key={name} data-field={name} className={`grid gap-x-2 gap-y-0.5 px-2 py-1.5 sm:grid-cols-[10rem_1fr_1fr] ${changed ? 'bg-amber-50' : ''}`}>
              <dt className="font-medium text-slate-700">
                {name}
                {changed && <span className="sr-only"> (changed)</span>}
              </dt>
              <dd className="break-all font-mono text-slate-600">
                <span className="font-sans text-slate-500 sm:sr-only">Before: </span>
                {oldText}
              </dd>
              <dd className="break-all font-mono text-slate-900">
                <span className="font-sans text-slate-500 sm:sr-only">After: </span>
                {newText}
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

function Entry({ entry, onFilterUser }: { entry: AuditLogEntry; onFilterUser: (userId: string) => void }) {
  return (
    <Card className="flex flex-col gap-3 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <Badge tone="brand">{actionLabel(entry.action)}</Badge>
        <time dateTime={entry.createdAt} className="text-xs text-slate-500">
          {fullDateTimeText(entry.createdAt)}
        </time>
      </div>
      <dl className="grid gap-x-3 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-slate-500">Who</dt>
        <dd className="break-all">{entry.actor ? `${entry.actor.name} (${entry.actor.email})` : 'Unknown'}</dd>
        <dt className="text-slate-500">What</dt>
        <dd className="break-all">
          {entry.targetType}
          {entry.targetId && <span className="ml-1 font-mono text-xs text-slate-500">{entry.targetId}</span>}
        </dd>
        {entry.targetUser && (
          <>
            <dt className="text-slate-500">User</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <Link className="break-all text-brand-700 hover:underline" to={`/admin/users/${entry.targetUser.id}`}>
                {entry.targetUser.name} ({entry.targetUser.email})
              </Link>
              <Button variant="link" size="sm" className="h-auto px-0" onClick={() => entry.targetUser && onFilterUser(entry.targetUser.id)}>
                Only this user
              </Button>
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
      <Changes before={entry.before} after={entry.after} />
    </Card>
  );
}

export default function AuditLogPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const action = searchParams.get('action') ?? '';
  const targetUserId = searchParams.get('targetUserId') ?? '';
  const userFilter = useForm<z.input<typeof userFilterFormSchema>, unknown, z.output<typeof userFilterFormSchema>>({
    resolver: zodResolver(userFilterFormSchema),
    defaultValues: { targetUserId },
    reValidateMode: 'onSubmit',
  });
  const userIdError = userFilter.formState.errors.targetUserId?.message;
  const log = useAuditLog({ action, targetUserId });
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  const filteredUser = targetUserId ? entries.find((entry) => entry.targetUser?.id === targetUserId)?.targetUser : undefined;

  const setFilter = (name: 'action' | 'targetUserId', value: string) => {
    const next = new URLSearchParams(searchParams);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearchParams(next, { replace: true });
  };

  const filterUser = (userId: string) => {
    userFilter.reset({ targetUserId: userId });
    setFilter('targetUserId', userId);
  };

  return (
    <AppPage title="Audit Log" backTo="/admin">
      <Card className="flex flex-col gap-4 p-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Action">
            <Select value={action} onChange={(event) => setFilter('action', event.target.value)}>
              <option value="">All actions</option>
              {Object.entries(ACTION_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </FormField>
          <form
            className="flex items-end gap-2"
            onSubmit={(event) => void userFilter.handleSubmit((values) => filterUser(values.targetUserId))(event)}
          >
            <div className="flex-1">
              <FormField label="Target user ID" error={userIdError}>
                <Input
                  className="font-mono text-sm"
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={USER_ID_LENGTH}
                  {...userFilter.register('targetUserId')}
                  placeholder="Any user"
                />
              </FormField>
            </div>
            <Button type="submit" variant="outline" className={userIdError ? 'mb-7' : undefined}>
              Apply
            </Button>
          </form>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex flex-wrap gap-2">
            {targetUserId && (
              <Button variant="secondary" size="sm" onClick={() => filterUser('')}>
                <X />
                {filteredUser ? `User: ${filteredUser.name}` : 'User filter'} (clear)
              </Button>
            )}
            {action && (
              <Button variant="secondary" size="sm" onClick={() => setFilter('action', '')}>
                <X />
                {actionLabel(action)} (clear)
              </Button>
            )}
          </div>
          <Button variant="outline" size="sm" onClick={() => void log.refetch()} disabled={log.isFetching} aria-busy={log.isFetching}>
            <RefreshCw className={log.isFetching ? 'animate-spin' : undefined} />
            Refresh
          </Button>
        </div>
      </Card>

      {log.isPending && <LoadingState text="Loading audit log..." />}
      {log.isError && <ErrorState title="Failed to load the audit log" message={errorMessage(log.error, 'Please try again.')} onRetry={() => void log.refetch()} />}
      {log.isSuccess && entries.length === 0 && <EmptyState title="No audit log entries found">{action || targetUserId ? 'Try clearing the filters.' : undefined}</EmptyState>}
      {entries.length > 0 && (
        <>
          <ol className="flex flex-col gap-3" aria-label="Audit log, newest first">
            {entries.map((entry) => (
              <li key={entry.id}>
                <Entry entry={entry} onFilterUser={filterUser} />
              </li>
            ))}
          </ol>
          <LoadMore hasMore={log.hasNextPage} loading={log.isFetchingNextPage} onLoadMore={() => void log.fetchNextPage()} />
        </>
      )}
    </AppPage>
  );
}
