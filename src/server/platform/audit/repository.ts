import { and, desc, eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { auditLog, profiles, users } from '../../db/schema.ts';
import { cursorTimestamp, olderThan, type PageCursor } from '../pagination/cursor.ts';

export interface AuditLogRow {
  id: bigint;
  action: string;
  actorUserId: string | null;
  actorName: string | null;
  actorEmail: string | null;
  targetType: string;
  targetId: string | null;
  targetUserId: string | null;
  targetName: string | null;
  targetEmail: string | null;
  before: unknown;
  after: unknown;
  ipAddress: string | null;
  createdAt: Date;
  cursorCreatedAt: string;
}

/** Newest first by (created_at, id), the order of every paged list; id breaks ties between entries of one transaction. */
export async function listAuditLog(
  db: Executor,
  options: { action: string | undefined; targetUserId: string | undefined; cursor: PageCursor | undefined; limit: number },
): Promise<AuditLogRow[]> {
  const actorUser = alias(users, 'actor_user');
  const actorProfile = alias(profiles, 'actor_profile');
  const targetUser = alias(users, 'target_user');
  const targetProfile = alias(profiles, 'target_profile');
  const conditions: SQL[] = [];
  if (options.action !== undefined) conditions.push(eq(auditLog.action, options.action));
  if (options.targetUserId !== undefined) conditions.push(eq(auditLog.targetUserId, options.targetUserId));
  const after = olderThan(auditLog.createdAt, auditLog.id, options.cursor, 'bigint');
  if (after) conditions.push(after);
  return db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      actorUserId: auditLog.actorUserId,
      actorName: actorProfile.name,
      actorEmail: actorUser.email,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      targetUserId: auditLog.targetUserId,
      targetName: targetProfile.name,
      targetEmail: targetUser.email,
      before: auditLog.before,
      after: auditLog.after,
      ipAddress: auditLog.ipAddress,
      createdAt: auditLog.createdAt,
      cursorCreatedAt: cursorTimestamp(auditLog.createdAt),
    })
    .from(auditLog)
    .leftJoin(actorUser, eq(actorUser.id, auditLog.actorUserId))
    .leftJoin(actorProfile, eq(actorProfile.userId, auditLog.actorUserId))
    .leftJoin(targetUser, eq(targetUser.id, auditLog.targetUserId))
    .leftJoin(targetProfile, eq(targetProfile.userId, auditLog.targetUserId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(options.limit);
}
