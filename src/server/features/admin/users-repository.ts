import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { ledgerAccounts, profiles, referralRewards, sessions, userPins, users } from '../../db/schema.ts';
import { cursorTimestamp, olderThan, type PageCursor } from '../../platform/pagination/cursor.ts';
import { liveSession } from '../../platform/sessions/repository.ts';
import type { Role, VipLevel } from '../../../shared/contracts/enums.ts';

export interface AdminUserRow {
  id: string;
  name: string;
  email: string;
  phone: string;
  role: Role;
  vipLevel: VipLevel;
  balanceUsdtMicros: bigint;
  createdAt: Date;
  cursorCreatedAt: string;
}

const bigintColumn = (expression: SQL) => sql<bigint>`${expression}`.mapWith((value) => BigInt(value));

const summaryColumns = {
  id: users.id,
  name: profiles.name,
  email: users.email,
  phone: profiles.phone,
  role: sql<Role>`${profiles.role}`,
  vipLevel: sql<VipLevel>`${profiles.vipLevel}`,
  balanceUsdtMicros: bigintColumn(sql`coalesce(${ledgerAccounts.balanceUsdtMicros}, 0)`),
  createdAt: users.createdAt,
  cursorCreatedAt: cursorTimestamp(users.createdAt),
};

/** Escapes LIKE's wildcards so that a search for "50%" or "a_b" means those characters. */
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** One page of users (and one more row, to tell whether another page exists), newest first. */
export async function searchUsers(db: Executor, options: { query: string | undefined; cursor: PageCursor | undefined; limit: number }): Promise<AdminUserRow[]> {
  const conditions: SQL[] = [];
  if (options.query !== undefined) {
    const pattern = `%${escapeLikePattern(options.query)}%`;
    const phoneDigits = options.query.replace(/[\s\-()]/g, '');
    const phonePattern = `%${escapeLikePattern(phoneDigits)}%`;
    conditions.push(
      sql`(${profiles.name} ilike ${pattern} escape '\\' or ${users.email} ilike ${pattern} escape '\\' or ${profiles.phone} ilike ${phonePattern} escape '\\')`,
    );
  }
  const after = olderThan(users.createdAt, users.id, options.cursor);
  if (after) conditions.push(after);
  return db
    .select(summaryColumns)
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(ledgerAccounts, eq(ledgerAccounts.userId, users.id))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(options.limit);
}

export interface AdminUserDetailRow extends AdminUserRow {
  referralCode: string;
  referredByUserId: string | null;
  hasPin: boolean;
  updatedAt: Date;
}

export async function findUser(db: Executor, userId: string): Promise<AdminUserDetailRow | undefined> {
  const [row] = await db
    .select({
      ...summaryColumns,
      referralCode: profiles.referralCode,
      referredByUserId: profiles.referredByUserId,
      hasPin: sql<boolean>`${userPins.userId} is not null`,
      updatedAt: profiles.updatedAt,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(ledgerAccounts, eq(ledgerAccounts.userId, users.id))
    .leftJoin(userPins, eq(userPins.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

export async function findReferrer(db: Executor, userId: string): Promise<{ id: string; name: string; email: string; referralCode: string } | undefined> {
  const [row] = await db
    .select({ id: users.id, name: profiles.name, email: users.email, referralCode: profiles.referralCode })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId));
  return row;
}

export async function loadReferralStats(db: Executor, userId: string): Promise<{ referralCount: bigint; earningsUsdtMicros: bigint }> {
  const referred = alias(profiles, 'referred');
  const [counted] = await db
    .select({ count: bigintColumn(sql`count(*)`) })
    .from(referred)
    .where(eq(referred.referredByUserId, userId));
  const [earned] = await db
    .select({ total: bigintColumn(sql`coalesce(sum(${referralRewards.rewardUsdtMicros}), 0)`) })
    .from(referralRewards)
    .where(eq(referralRewards.referrerUserId, userId));
  return { referralCount: counted?.count ?? 0n, earningsUsdtMicros: earned?.total ?? 0n };
}

export async function countLiveSessions(db: Executor, userId: string, limits: { idleTimeoutSeconds: number; absoluteTimeoutSeconds: number }): Promise<bigint> {
  const [row] = await db
    .select({ count: bigintColumn(sql`count(*)`) })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        liveSession(limits),
      ),
    );
  return row?.count ?? 0n;
}

/**
 * Locks the profiles of the acting admin and the target (in id order, so two
 * admins acting on each other cannot deadlock) and returns their current roles.
 */
export async function lockProfiles(db: Executor, userIds: string[]): Promise<Map<string, { role: Role; vipLevel: VipLevel }>> {
  const rows = await db
    .select({ userId: profiles.userId, role: profiles.role, vipLevel: profiles.vipLevel })
    .from(profiles)
    .where(inArray(profiles.userId, userIds))
    .orderBy(profiles.userId)
    .for('update');
  return new Map(rows.map((row) => [row.userId, { role: row.role, vipLevel: row.vipLevel }]));
}

export async function updateRoleAndVipLevel(db: Executor, userId: string, changes: { role?: Role; vipLevel?: VipLevel }): Promise<void> {
  await db
    .update(profiles)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(profiles.userId, userId));
}
