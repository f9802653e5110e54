import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AuditLogFilters } from '#shared/contracts/admin';
import type { Executor } from '../../db/client.ts';
import { auditLog, profiles, userSearch, users } from '../../db/schema.ts';
import { cursorTimestamp, olderThan, type PageCursor } from '../../platform/pagination/cursor.ts';
import { escapeLikePattern } from './user-search-plan.ts';

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

/** The start of a calendar day in India as a timestamp. */
const startOfIndiaDay = (day: string, daysLater = 0) => sql`((${day}::date + ${daysLater}::int)::timestamp at time zone 'Asia/Kolkata')`;

function conditionsOf(filters: AuditLogFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.action !== undefined) conditions.push(eq(auditLog.action, filters.action));
  if (filters.targetUserId !== undefined) conditions.push(eq(auditLog.targetUserId, filters.targetUserId));
  if (filters.from !== undefined) conditions.push(gte(auditLog.createdAt, startOfIndiaDay(filters.from)));
  if (filters.to !== undefined) conditions.push(lt(auditLog.createdAt, startOfIndiaDay(filters.to, 1)));
  if (filters.q !== undefined) {
    // The people are found in user_search (trigram indexes of migration 0006), then their entries as actor or as the user concerned.
    const pattern = `%${escapeLikePattern(filters.q)}%`;
    const people = (column: typeof auditLog.actorUserId | typeof auditLog.targetUserId) =>
      inArray(
        column,
        sql`(select ${userSearch.userId} from ${userSearch} where ${userSearch.name} ilike ${pattern} escape '\\' or ${userSearch.email} ilike ${pattern} escape '\\')`,
      );
    const either = or(people(auditLog.actorUserId), people(auditLog.targetUserId));
    if (either) conditions.push(either);
  }
  return conditions;
}

/**
 * Audit entries newest first by (created_at, id), the order of every paged list; id breaks ties between
 * entries of one transaction. The actor and the user concerned come with their current name and e-mail.
 */
export async function listAuditLog(db: Executor, options: { filters: AuditLogFilters; cursor: PageCursor | undefined; limit: number }): Promise<AuditLogRow[]> {
  const actorUser = alias(users, 'actor_user');
  const actorProfile = alias(profiles, 'actor_profile');
  const targetUser = alias(users, 'target_user');
  const targetProfile = alias(profiles, 'target_profile');
  const conditions = conditionsOf(options.filters);
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
