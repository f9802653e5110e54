import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.ts';
import { preparedStatement, queryPrepared } from '../../db/prepared.ts';
import { ledgerAccounts, profiles, referralRewards, sessions, userPins, users } from '../../db/schema.ts';
import { cursorTimestamp, type PageCursor } from '../../platform/pagination/cursor.ts';
import { planLimit } from '../../platform/pagination/keyset-statements.ts';
import { liveSession } from '../../platform/sessions/repository.ts';
import type { Role, VipLevel } from '#shared/contracts/enums';

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

/** How many of the newest users a search looks through before it asks the trigram indexes instead. */
const NEWEST_USERS_SCANNED = 1000;

/**
 * One page of users, newest first, optionally those whose name, e-mail or phone contains the
 * query. The cursor carries the last user's created_at at full microsecond precision and id.
 *
 * It reads user_search (migrations 0006 and 0017), in one statement, in two steps: the newest
 * NEWEST_USERS_SCANNED users are looked through in order (a common name fills the page there);
 * only when they hold less than a page are the matches collected from the trigram indexes and
 * sorted (a rare name, an e-mail, a phone number). Either way the answer is the first page of all
 * matches in order.
 */
export async function searchUsers(db: Database, options: { query: string | undefined; cursor: PageCursor | undefined; limit: number }): Promise<AdminUserRow[]> {
  const pageRows = planLimit(options.limit);
  const values: unknown[] = [];
  let match = 'true';
  if (options.query !== undefined) {
    const phoneDigits = options.query.replace(/[\s\-()]/g, '');
    values.push(`%${escapeLikePattern(options.query)}%`, `%${escapeLikePattern(phoneDigits)}%`);
    // ILIKE, kept lowered once: search_text is lower(name) and lower(email) (migration 0017).
    match = `(search_text like lower($1) escape '\\' or phone like lower($2) escape '\\')`;
  }
  let after = 'true';
  if (options.cursor !== undefined) {
    values.push(options.cursor.createdAt, options.cursor.id);
    after = `(created_at, user_id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`;
  }
  // A search must be planned for its own pattern on every request: one generic plan cannot serve
  // both a common name (walk the newest users) and a rare e-mail (ask the trigram indexes), and on
  // 100,000 users the wrong one took 0.4 s. Its page size stays a parameter, which keeps PostgreSQL
  // on plans for the values sent (a generic plan with an unknown limit is always the dearer), while
  // the statement is still parsed once per connection (sent unnamed, parsing it again cost more
  // than the plan). The list without a search has one good plan: its page size is written in.
  const limit = options.query === undefined ? String(pageRows) : `$${values.push(pageRows)}`;
  const text = `with recent as (
       select user_id, created_at
       from (select user_id, created_at, search_text, phone from user_search where ${after}
             order by created_at desc, user_id desc limit ${NEWEST_USERS_SCANNED}) as newest
       where ${match}
       order by created_at desc, user_id desc
       limit ${limit}
     ), page as (
       select user_id, created_at from recent where (select count(*) from recent) = ${limit}
       union all
       (select user_id, created_at from user_search
        where (select count(*) from recent) < ${limit} and ${match} and ${after}
        order by created_at desc, user_id desc
        limit ${limit})
     )
     select u.id, p.name, u.email, p.phone, p.role, p.vip_level as "vipLevel",
       coalesce(l.balance_usdt_micros, 0)::bigint as "balanceUsdtMicros", u.created_at as "createdAt",
        to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorCreatedAt"
     from page
       join users u on u.id = page.user_id
       join profiles p on p.user_id = page.user_id
       left join ledger_accounts l on l.user_id = page.user_id
     order by page.created_at desc, page.user_id desc`;
  const name =
    options.query === undefined
      ? `admin_users_all_${options.cursor === undefined ? 'first' : 'after'}_${pageRows}`
      : `admin_users_search_${options.cursor === undefined ? 'first' : 'after'}`;
  return queryPrepared(db, preparedStatement<AdminUserRow>(name, text), values);
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
