import { AUDIT_LOG_CSV_MAX_ROWS, type AuditLogEntry, type AuditLogFilters } from '#shared/contracts/admin';
import { INVALID_PAGE_CURSOR_MESSAGE } from '#shared/contracts/common';
import type { Executor } from '../../db/client.ts';
import { decodeCursor, toPage } from '../../platform/pagination/cursor.ts';
import { csvCell } from '../../platform/csv.ts';
import { listAuditLog, type AuditLogRow } from './audit-log-repository.ts';

function person(id: string | null, name: string | null, email: string | null): AuditLogEntry['actor'] {
  return id !== null && name !== null && email !== null ? { id, name, email } : null;
}

function entryOf(row: AuditLogRow): AuditLogEntry {
  return {
    id: row.id.toString(),
    action: row.action,
    actor: person(row.actorUserId, row.actorName, row.actorEmail),
    targetType: row.targetType,
    targetId: row.targetId,
    targetUser: person(row.targetUserId, row.targetName, row.targetEmail),
    before: row.before,
    after: row.after,
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function getAuditLog(
  db: Executor,
  query: AuditLogFilters & { cursor?: string | undefined; limit: number },
): Promise<{ items: AuditLogEntry[]; nextCursor: string | null }> {
  const { cursor, limit, ...filters } = query;
  const rows = await listAuditLog(db, {
    filters,
    cursor: decodeCursor(cursor, { idKind: 'bigint', invalidMessage: INVALID_PAGE_CURSOR_MESSAGE }),
    limit: limit + 1,
  });
  const page = toPage(rows, limit);
  return { items: page.rows.map(entryOf), nextCursor: page.nextCursor };
}

const CSV_COLUMNS = ['Time (India)', 'Action', 'Admin', 'Admin e-mail', 'User', 'User e-mail', 'Target', 'Target ID', 'Before', 'After', 'IP address'];

const indiaTime = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** "2026-03-05 14:30:00", the moment in India time. */
function indiaTimeText(date: Date): string {
  const parts = Object.fromEntries(indiaTime.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

const jsonText = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/**
 * The entries the filters select, newest first, as CSV: at most AUDIT_LOG_CSV_MAX_ROWS of them
 * (`truncated` says more matched). Every cell goes through the formula-safe csvCell of the payout file.
 */
export async function auditLogCsv(db: Executor, filters: AuditLogFilters): Promise<{ csv: string; rows: number; truncated: boolean }> {
  const found = await listAuditLog(db, { filters, cursor: undefined, limit: AUDIT_LOG_CSV_MAX_ROWS + 1 });
  const rows = found.slice(0, AUDIT_LOG_CSV_MAX_ROWS);
  const lines = [CSV_COLUMNS.map(csvCell).join(',')];
  for (const row of rows) {
    lines.push(
      [
        indiaTimeText(row.createdAt),
        row.action,
        row.actorName ?? (row.actorUserId === null ? 'System' : ''),
        row.actorEmail ?? '',
        row.targetName ?? '',
        row.targetEmail ?? '',
        row.targetType,
        row.targetId ?? '',
        jsonText(row.before),
        jsonText(row.after),
        row.ipAddress ?? '',
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return { csv: `${lines.join('\r\n')}\r\n`, rows: rows.length, truncated: found.length > AUDIT_LOG_CSV_MAX_ROWS };
}
