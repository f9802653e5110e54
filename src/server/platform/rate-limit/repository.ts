import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedStatement, queryPreparedIn } from '../../db/prepared.ts';

/*
 * Fixed-window attempt counters kept in PostgreSQL, so that every server
 * process on one database shares them. A window starts at the first attempt
 * and lasts `windowSeconds`; the next attempt after it starts a new one.
 */

/**
 * Counts one attempt under the key $1 in a window of $2 seconds and returns the window's hits, this
 * one included; only when `condition` (SQL text) holds, and otherwise counts nothing and returns no
 * row. Exported as text so that a statement that counts an attempt along with its reads (the PIN
 * check) counts it exactly the same way.
 */
export function countAttemptSql(condition = 'true'): string {
  return `insert into rate_limit_buckets (key, window_started_at, hits)
    select $1::text, now(), 1 where ${condition}
    on conflict (key) do update set
      hits = case when rate_limit_buckets.window_started_at < now() - make_interval(secs => $2)
                  then 1 else rate_limit_buckets.hits + 1 end,
      window_started_at = case when rate_limit_buckets.window_started_at < now() - make_interval(secs => $2)
                  then now() else rate_limit_buckets.window_started_at end
    returning hits`;
}

const countAttemptStatement = preparedStatement<{ hits: number }>('rate_limit_count_attempt', countAttemptSql());

/** Counts one attempt under `key` and answers the attempts of the current window, this one included. */
export async function countAttempt(db: Executor, key: string, windowSeconds: number): Promise<number> {
  const [row] = await queryPreparedIn(db, countAttemptStatement, [key, windowSeconds]);
  return Number(row?.hits ?? 0);
}

/** Records a failed attempt (a wrong password or PIN) against `key`, for a limit checked before the next attempt. */
export async function recordFailedAttempt(db: Executor, key: string, windowSeconds: number): Promise<void> {
  await countAttempt(db, key, windowSeconds);
}

/** The attempts of the current window under `key`, without counting one. */
export async function attemptsInWindow(db: Executor, key: string, windowSeconds: number): Promise<number> {
  const result = await db.execute<{ hits: number }>(sql`
    select hits from rate_limit_buckets
    where key = ${key} and window_started_at >= now() - make_interval(secs => ${windowSeconds})`);
  return Number(result.rows[0]?.hits ?? 0);
}

/*
 * Turns taken one at a time under a key, by every server process on one database: a row holds when
 * the last turn claimed may start.
 */
const claimTurnStatement = preparedStatement<{ wait_milliseconds: number }>(
  'rate_limit_claim_turn',
  `insert into rate_limit_slots as slot (key, next_check_at) values ($1, now() + $2::int * interval '1 millisecond')
   on conflict (key) do update
     set next_check_at = greatest(slot.next_check_at, now()) + $2::int * interval '1 millisecond'
     where greatest(slot.next_check_at, now()) <= now() + ($3::int - $2::int) * interval '1 millisecond'
   returning ceil(extract(epoch from slot.next_check_at - now()) * 1000)::int as wait_milliseconds`,
);

/**
 * Claims the turn `spacingMilliseconds` after the last one claimed under `key` (or after now, when that
 * one has passed), unless it would start more than `maxWaitMilliseconds` from now: then it claims nothing
 * and answers undefined. Otherwise it answers how long to wait for the turn, by the database's clock.
 */
export async function claimTurn(db: Executor, key: string, spacingMilliseconds: number, maxWaitMilliseconds: number): Promise<number | undefined> {
  const [row] = await queryPreparedIn(db, claimTurnStatement, [key, spacingMilliseconds, maxWaitMilliseconds]);
  return row?.wait_milliseconds;
}
