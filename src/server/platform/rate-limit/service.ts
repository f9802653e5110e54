import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';

/**
 * A fixed-window counter kept in PostgreSQL, so that every server process on
 * one database shares the same limits. Returns normally while under the limit.
 */
export async function consumeRateLimit(db: Executor, key: string, limit: number, windowSeconds: number): Promise<void> {
  const result = await db.execute<{ hits: number }>(sql`
    insert into rate_limit_buckets (key, window_started_at, hits)
    values (${key}, now(), 1)
    on conflict (key) do update set
      hits = case when rate_limit_buckets.window_started_at < now() - make_interval(secs => ${windowSeconds})
                  then 1 else rate_limit_buckets.hits + 1 end,
      window_started_at = case when rate_limit_buckets.window_started_at < now() - make_interval(secs => ${windowSeconds})
                  then now() else rate_limit_buckets.window_started_at end
    returning hits`);
  const hits = Number(result.rows[0]?.hits ?? 0);
  if (hits > limit) {
    throw new AppError(429, 'RATE_LIMITED', 'Too many attempts. Please wait a few minutes and try again.');
  }
}

/** Refuses when the key already reached its limit in the current window, without counting this call. */
export async function assertUnderRateLimit(db: Executor, key: string, limit: number, windowSeconds: number): Promise<void> {
  if ((await countHits(db, key, windowSeconds)) >= limit) {
    throw new AppError(429, 'RATE_LIMITED', 'Too many attempts. Please wait a few minutes and try again.');
  }
}

/** The hits counted for the key in its current window (0 when none). */
export async function countHits(db: Executor, key: string, windowSeconds: number): Promise<number> {
  const result = await db.execute<{ hits: number }>(sql`
    select hits from rate_limit_buckets
    where key = ${key} and window_started_at >= now() - make_interval(secs => ${windowSeconds})`);
  return Number(result.rows[0]?.hits ?? 0);
}
