import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.ts';
import { preparedStatement, queryPrepared } from '../../db/prepared.ts';
import { ledgerAccounts, profiles, referralRewards, sessions, userPins, users } from '../../db/schema.ts';
import { cursorTimestamp, type PageCursor } from '../../platform/pagination/cursor.ts';
import { planLimit } from '../../platform/pagination/keyset-statements.ts';
import { planUserSearch, userSearchSample, type UserSearchPlan, type UserSearchSample } from './user-search-plan.ts';
import { liveSession } from '../../platform/sessions/repository.ts';
import { normalizePhone } from '#shared/contracts/auth';
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
  role: profiles.role,
  vipLevel: profiles.vipLevel,
  balanceUsdtMicros: bigintColumn(sql`coalesce(${ledgerAccounts.balanceUsdtMicros}, 0)`),
  createdAt: users.createdAt,
  cursorCreatedAt: cursorTimestamp(users.createdAt),
};

/**
 * The search's sample reads this many of the table's pages, whatever its size, and keeps rows from
 * them at random, about SEARCH_SAMPLE_ROWS in all. Neighbouring users share a page and often most of
 * their e-mail: a sample of a few whole pages sees a few clusters of look-alikes, and judged
 * different pieces of the same query rare from one sample to the next (round 11 of bench/RESULTS.md).
 */
const SEARCH_SAMPLE_PAGES = 1_000;
const SEARCH_SAMPLE_ROWS = 4_000;
const SEARCH_SAMPLE_MAX_ROWS = 5_000;
/** Until the table is first analysed, its rows are guessed from its pages (about 50 users a page). */
const SEARCH_ROWS_PER_PAGE_GUESS = 50;
const SEARCH_SAMPLE_LIFETIME_MILLISECONDS = 10 * 60 * 1000;

const samplesByDatabase = new WeakMap<Database, { loadedAt: number; sample: Promise<UserSearchSample>; refreshing: boolean }>();

const searchSampleStatement = preparedStatement<{ searchText: string; phone: string; sampledPercent: number }>(
  'user_search_sample',
  `with size as (
     select greatest(1, pg_relation_size('user_search') / current_setting('block_size')::int) as pages,
            (select reltuples from pg_class where oid = 'user_search'::regclass) as counted_rows),
   shares as (
     select least(100, 100.0 * ${SEARCH_SAMPLE_PAGES} / pages) as page_percent,
            case when counted_rows > 0 then counted_rows else pages * ${SEARCH_ROWS_PER_PAGE_GUESS} end as estimated_rows
     from size),
   kept as (select page_percent, least(1, ${SEARCH_SAMPLE_ROWS} / greatest(1, estimated_rows * page_percent / 100)) as row_share from shares)
   select search_text as "searchText", phone, (select page_percent * row_share from kept)::float8 as "sampledPercent"
   from user_search tablesample system ((select page_percent from kept))
   where random() < (select row_share from kept)
   limit ${SEARCH_SAMPLE_MAX_ROWS}`,
);

/** A few thousand users read at random from up to 1,000 pages of user_search (user-search-plan.ts says what for). */
export async function loadSearchSample(db: Database): Promise<UserSearchSample> {
  const rows = await queryPrepared(db, searchSampleStatement, []);
  const sampledPercent = rows[0]?.sampledPercent ?? 100;
  return userSearchSample(rows, Math.round((rows.length * 100) / sampledPercent));
}

/**
 * The sample, read again every few minutes: it only has to say roughly how common a piece of text
 * is. A stale one keeps serving while its successor is read, so no search waits for it but the first.
 */
function searchSample(db: Database): Promise<UserSearchSample> {
  const cached = samplesByDatabase.get(db);
  if (cached !== undefined && (cached.refreshing || Date.now() - cached.loadedAt < SEARCH_SAMPLE_LIFETIME_MILLISECONDS)) return cached.sample;
  const next = loadSearchSample(db);
  if (cached === undefined) {
    samplesByDatabase.set(db, { loadedAt: Date.now(), sample: next, refreshing: false });
    next.catch(() => samplesByDatabase.delete(db));
    return next;
  }
  cached.refreshing = true;
  next.then(
    (sample) => samplesByDatabase.set(db, { loadedAt: Date.now(), sample: Promise.resolve(sample), refreshing: false }),
    () => (cached.refreshing = false),
  );
  return cached.sample;
}

/**
 * One page of users, newest first, optionally those whose name, e-mail or phone contains the
 * query. The cursor carries the last user's created_at at full microsecond precision and id.
 *
 * It reads user_search (migrations 0006 and 0017), a copy of the searched fields, in one statement
 * planned once per connection. A search either walks the users newest first or collects every
 * match from the trigram indexes and sorts them, as user-search-plan.ts chooses. The query is
 * compared case-insensitively: search_text is lower(name) and lower(email) (migration 0017), with
 * a separator no query contains; the phone is compared with the query without the spaces, dashes
 * and brackets people type in phone numbers.
 */
export async function searchUsers(
  db: Database,
  options: { query: string | undefined; cursor: PageCursor | undefined; limit: number; plan?: UserSearchPlan },
): Promise<AdminUserRow[]> {
  const pageRows = planLimit(options.limit);
  const values: unknown[] = [];
  const parameter = (value: unknown) => `$${values.push(value)}`;
  let match = 'true';
  let shape = 'all';
  let collectMatches = false;
  if (options.query !== undefined) {
    const phoneDigits = normalizePhone(options.query);
    const plan = options.plan ?? planUserSearch(options.query, phoneDigits, pageRows, await searchSample(db));
    // A phone is "+" and digits (the profiles_phone_shape check): only such a query can be in one.
    const phoneCanMatch = /^[+0-9]*$/.test(phoneDigits);
    shape = `${plan.way.replaceAll('-', '_')}${phoneCanMatch ? '_or_phone' : ''}`;
    collectMatches = plan.way === 'collect-matches';
    // The lowered query is an InitPlan, computed once per search instead of once per row.
    const inText = `strpos(search_text, (select lower(${parameter(options.query)}::text))) <> 0`;
    const inPhone = phoneCanMatch ? `strpos(phone, (select ${parameter(phoneDigits)}::text)) <> 0` : undefined;
    if (plan.way === 'walk-newest') {
      match = inPhone === undefined ? inText : `(${inText} or ${inPhone})`;
    } else {
      // Hidden in InitPlans, the patterns look the same to PostgreSQL for every search, so one
      // plan serves them all: collect from the indexes, as the app chose.
      const textMatches = `(search_text like (select lower(${parameter(plan.searchTextPattern)}::text)) escape '\\' and ${inText})`;
      match =
        inPhone === undefined ? textMatches : `(${textMatches} or (phone like (select ${parameter(plan.phonePattern)}::text) escape '\\' and ${inPhone}))`;
    }
  }
  let after = 'true';
  if (options.cursor !== undefined) {
    values.push(options.cursor.createdAt, options.cursor.id);
    after = `(created_at, user_id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`;
  }
  // "offset 0" keeps PostgreSQL from walking the created_at order to find the matches instead.
  const page = collectMatches
    ? `select user_id, created_at from (select user_id, created_at from user_search where ${match} and ${after} offset 0) as matches
         order by created_at desc, user_id desc limit ${pageRows}`
    : `select user_id, created_at from user_search where ${match} and ${after}
         order by created_at desc, user_id desc limit ${pageRows}`;
  const text = `select u.id, p.name, u.email, p.phone, p.role, p.vip_level as "vipLevel",
       coalesce(l.balance_usdt_micros, 0)::bigint as "balanceUsdtMicros", u.created_at as "createdAt",
       to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorCreatedAt"
     from (${page}) as page
       join users u on u.id = page.user_id
       join profiles p on p.user_id = page.user_id
       left join ledger_accounts l on l.user_id = page.user_id
     order by page.created_at desc, page.user_id desc`;
  const name = `admin_users_${shape}_${options.cursor === undefined ? 'first' : 'after'}_${pageRows}`;
  return queryPrepared(db, preparedStatement<AdminUserRow>(name, text), values);
}

export interface AdminUserDetailRow extends AdminUserRow {
  referralCode: string;
  referredByUserId: string | null;
  hasPin: boolean;
  updatedAt: Date;
  closedAt: Date | null;
}

export async function findUser(db: Executor, userId: string): Promise<AdminUserDetailRow | undefined> {
  const [row] = await db
    .select({
      ...summaryColumns,
      referralCode: profiles.referralCode,
      referredByUserId: profiles.referredByUserId,
      hasPin: sql<boolean>`${userPins.userId} is not null`,
      updatedAt: profiles.updatedAt,
      closedAt: users.closedAt,
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
    .where(and(eq(sessions.userId, userId), liveSession(limits)));
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
