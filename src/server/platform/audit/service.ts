import type { z } from 'zod';
import type { AuditLogEntry, auditLogQuerySchema } from '../../../shared/contracts/admin.ts';
import { INVALID_PAGE_CURSOR_MESSAGE } from '../../../shared/contracts/common.ts';
import type { Executor } from '../../db/client.ts';
import { decodeCursor, toPage } from '../pagination/cursor.ts';
import { listAuditLog, type AuditLogRow } from './repository.ts';

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
  query: z.output<typeof auditLogQuerySchema>,
): Promise<{ items: AuditLogEntry[]; nextCursor: string | null }> {
  const rows = await listAuditLog(db, {
    action: query.action,
    targetUserId: query.targetUserId,
    cursor: decodeCursor(query.cursor, { idKind: 'bigint', invalidMessage: INVALID_PAGE_CURSOR_MESSAGE }),
    limit: query.limit + 1,
  });
  const page = toPage(rows, query.limit);
  return { items: page.rows.map(entryOf), nextCursor: page.nextCursor };
}
