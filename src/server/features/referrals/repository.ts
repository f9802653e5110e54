import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { referralRewardReversals } from '../../db/schema.ts';
import type { PageCursor } from '../../platform/pagination/cursor.ts';

export interface ReferredPersonRow {
  id: string;
  name: string;
  level: number;
  joinedAtIso: string;
  cursorCreatedAt: string;
}

export interface ReferralEarningRow {
  id: string;
  rewardUsdtMicros: bigint;
  level: number;
  earnedAtIso: string;
  cursorCreatedAt: string;
}

/** Level 1: profiles referred by the user; level 2: profiles referred by someone at level 1. */
const referredPeople = (userId: string) => sql`
  select p1.user_id, p1.name, p1.created_at, 1 as level
  from profiles p1
  where p1.referred_by_user_id = ${userId}
  union all
  select p2.user_id, p2.name, p2.created_at, 2 as level
  from profiles p1
  join profiles p2 on p2.referred_by_user_id = p1.user_id
  where p1.referred_by_user_id = ${userId} and p2.user_id <> ${userId}`;

export async function countReferredPeople(db: Executor, userId: string): Promise<{ level1: number; level2: number }> {
  const result = await db.execute<{ level1: number; level2: number }>(sql`
    select count(*) filter (where level = 1)::int as level1, count(*) filter (where level = 2)::int as level2
    from (${referredPeople(userId)}) people`);
  const row = result.rows[0];
  return { level1: row?.level1 ?? 0, level2: row?.level2 ?? 0 };
}

/** Newest first; one row more than `limit` tells whether another page exists. */
export async function listReferredPeople(db: Executor, userId: string, cursor: PageCursor | undefined, limit: number): Promise<ReferredPersonRow[]> {
  const after = cursor ? sql`where (people.created_at, people.user_id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : sql``;
  const result = await db.execute<{ id: string; name: string; level: number; joined_at_iso: string; cursor_created_at: string }>(sql`
    select people.user_id as id, people.name, people.level,
      to_char(people.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as joined_at_iso,
      to_char(people.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_created_at
    from (${referredPeople(userId)}) people
    ${after}
    order by people.created_at desc, people.user_id desc
    limit ${limit + 1}`);
  return result.rows.map((row) => ({ id: row.id, name: row.name, level: row.level, joinedAtIso: row.joined_at_iso, cursorCreatedAt: row.cursor_created_at }));
}

export async function sumRewards(db: Executor, userId: string): Promise<bigint> {
  const result = await db.execute<{ total: bigint }>(sql`
    select coalesce(sum(reward_usdt_micros), 0)::bigint as total from referral_rewards r
    where referrer_user_id = ${userId} and not exists (select 1 from referral_reward_reversals v where v.reward_id = r.id)`);
  return result.rows[0]?.total ?? 0n;
}

export async function listRewards(db: Executor, userId: string, cursor: PageCursor | undefined, limit: number): Promise<ReferralEarningRow[]> {
  const after = cursor ? sql`and (r.created_at, r.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : sql``;
  const result = await db.execute<{ id: string; reward_usdt_micros: bigint; level: number; earned_at_iso: string; cursor_created_at: string }>(sql`
    select r.id, r.reward_usdt_micros, r.level::int as level,
      to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as earned_at_iso,
      to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_created_at
    from referral_rewards r
    where r.referrer_user_id = ${userId} ${after}
    order by r.created_at desc, r.id desc
    limit ${limit + 1}`);
  return result.rows.map((row) => ({
    id: row.id,
    rewardUsdtMicros: row.reward_usdt_micros,
    level: row.level,
    earnedAtIso: row.earned_at_iso,
    cursorCreatedAt: row.cursor_created_at,
  }));
}

export interface ReferralRewardDetailRow {
  id: string;
  rewardUsdtMicros: bigint;
  level: number;
  earnedAtIso: string;
  referredName: string;
  depositId: string;
  depositAmountUsdtMicros: bigint;
}

/** One reward, only when it was paid to `userId`: anyone else's reward is "not found". */
export async function findOwnedReward(db: Executor, userId: string, rewardId: string): Promise<ReferralRewardDetailRow | undefined> {
  const result = await db.execute<{
    id: string;
    reward_usdt_micros: bigint;
    level: number;
    earned_at_iso: string;
    referred_name: string;
    deposit_id: string;
    deposit_amount_usdt_micros: bigint;
  }>(sql`
    select r.id, r.reward_usdt_micros, r.level::int as level,
      to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as earned_at_iso,
      p.name as referred_name, d.id as deposit_id, d.amount_usdt_micros as deposit_amount_usdt_micros
    from referral_rewards r
    join profiles p on p.user_id = r.referred_user_id
    join usdt_deposits d on d.id = r.deposit_id
    where r.id = ${rewardId} and r.referrer_user_id = ${userId}`);
  const row = result.rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    rewardUsdtMicros: row.reward_usdt_micros,
    level: row.level,
    earnedAtIso: row.earned_at_iso,
    referredName: row.referred_name,
    depositId: row.deposit_id,
    depositAmountUsdtMicros: row.deposit_amount_usdt_micros,
  };
}

export interface RewardToReverseRow {
  id: string;
  referrerUserId: string;
  rewardUsdtMicros: bigint;
  level: number;
}

/** The rewards paid on a deposit and not yet taken back, locked, in a fixed order. */
export async function lockUnreversedRewardsOfDeposit(db: Executor, depositId: string): Promise<RewardToReverseRow[]> {
  const result = await db.execute<{ id: string; referrer_user_id: string; reward_usdt_micros: bigint; level: number }>(sql`
    select r.id, r.referrer_user_id, r.reward_usdt_micros, r.level::int as level
    from referral_rewards r
    where r.deposit_id = ${depositId} and not exists (select 1 from referral_reward_reversals v where v.reward_id = r.id)
    order by r.level, r.id
    for update of r`);
  return result.rows.map((row) => ({ id: row.id, referrerUserId: row.referrer_user_id, rewardUsdtMicros: BigInt(row.reward_usdt_micros), level: row.level }));
}

export async function insertReversal(
  db: Executor,
  values: { rewardId: string; incidentId: string; takenBackUsdtMicros: bigint; writtenOffUsdtMicros: bigint },
): Promise<void> {
  // Stamped when written, after the caller's locked balance read, not at the transaction's start: a refund compares it
  // with its hold's time, and a hold committed before that read was counted as spent (decision 045, round 22, c).
  await db.insert(referralRewardReversals).values({ ...values, createdAt: sql`clock_timestamp()` });
}

export interface WrittenOffReversalRow {
  rewardId: string;
  rewardUsdtMicros: bigint;
  writtenOffUsdtMicros: bigint;
}

/** The referrer's reversals with a written-off part, recorded after `since`, locked, oldest first. */
export async function lockWrittenOffReversalsSince(db: Executor, referrerUserId: string, since: Date): Promise<WrittenOffReversalRow[]> {
  const result = await db.execute<{ reward_id: string; reward_usdt_micros: string; written_off_usdt_micros: string }>(sql`
    select v.reward_id, r.reward_usdt_micros::text, v.written_off_usdt_micros::text
    from referral_reward_reversals v join referral_rewards r on r.id = v.reward_id
    where r.referrer_user_id = ${referrerUserId} and v.written_off_usdt_micros > 0 and v.created_at > ${since.toISOString()}::timestamptz
    order by v.created_at, v.reward_id
    for update of v`);
  return result.rows.map((row) => ({
    rewardId: row.reward_id,
    rewardUsdtMicros: BigInt(row.reward_usdt_micros),
    writtenOffUsdtMicros: BigInt(row.written_off_usdt_micros),
  }));
}

/** Moves `amountUsdtMicros` of a reversal from written off to taken back. */
export async function moveWrittenOffToTakenBack(db: Executor, rewardId: string, amountUsdtMicros: bigint): Promise<void> {
  const result = await db.execute(sql`
    update referral_reward_reversals
    set taken_back_usdt_micros = taken_back_usdt_micros + ${amountUsdtMicros.toString()}::bigint,
      written_off_usdt_micros = written_off_usdt_micros - ${amountUsdtMicros.toString()}::bigint
    where reward_id = ${rewardId} and written_off_usdt_micros >= ${amountUsdtMicros.toString()}::bigint`);
  // The caller read and locked the reversal: moving the money without this change would leave the ledger check to find it.
  if (result.rowCount !== 1) throw new Error(`the written-off part of reward ${rewardId} changed while it was locked`);
}

/**
 * Serializes a referrer's write-offs with the refunds that repay them (decision 045, round 22, c): an incident's
 * settlement takes this lock before it reads the referrer's balance, every refund before it reads the write-offs.
 * Taken before any ledger account and write-off row, by key order when several are taken at once; a key space of
 * its own.
 */
export async function lockReferrersForWriteOffs(db: Executor, referrerUserIds: readonly string[]): Promise<void> {
  if (referrerUserIds.length === 0) return;
  await db.execute(sql`
    select count(pg_advisory_xact_lock(hashtext('referral-write-offs'), k.key))
    from (select distinct hashtext(id) as key from unnest(${sql.param([...new Set(referrerUserIds)])}::text[]) as t(id) order by key) as k`);
}

/** The referrers paid a reward on the deposit. */
export async function findReferrersOfDeposit(db: Executor, depositId: string): Promise<string[]> {
  const result = await db.execute<{ referrer_user_id: string }>(sql`select distinct referrer_user_id from referral_rewards where deposit_id = ${depositId}`);
  return result.rows.map((row) => row.referrer_user_id);
}
