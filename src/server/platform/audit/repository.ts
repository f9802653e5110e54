import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { auditLog, profiles, users } from '../../db/schema.ts';

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
}

/** Newest first by id: ids only grow, so a page boundary is exact and no entry is skipped or repeated. */
export async function listAuditLog(
  db: Executor,
  options: { action: string | undefined; targetUserId: string | undefined; beforeId: bigint | undefined; limit: number },
): Promise<AuditLogRow[]> {
  const actorUser = alias(users, 'actor_user');
  const actorProfile = alias(profiles, 'actor_profile');
  const targetUser = alias(users, 'target_user');
  const targetProfile = alias(profiles, 'target_profile');
  const conditions: SQL[] = [];
  if (options.action !== undefined) conditions.push(eq(auditLog.action, options.action));
  if (options.targetUserId !== undefined) conditions.push(eq(auditLog.targetUserId, options.targetUserId));
  if (options.beforeId !== undefined) conditions.push(lt(auditLog.id, options.beforeId));
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
    })
    .from(auditLog)
    .leftJoin(actorUser, eq(actorUser.id, auditLog.actorUserId))
    .leftJoin(actorProfile, eq(actorProfile.userId, auditLog.actorUserId))
    .leftJoin(targetUser, eq(targetUser.id, auditLog.targetUserId))
    .leftJoin(targetProfile, eq(targetProfile.userId, auditLog.targetUserId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(options.limit);
}
