import { setTimeout } from 'node:timers/promises';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { attemptsInWindow, claimTurn, countAttempt } from './repository.ts';

export { attemptsInWindow, recordFailedAttempt } from './repository.ts';

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a few minutes and try again.';

function rateLimited(): AppError {
  return new AppError(429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE);
}

/** Counts this attempt and refuses it with 429 once the key went over its limit in the current window. */
export async function consumeRateLimit(db: Executor, key: string, limit: number, windowSeconds: number): Promise<void> {
  refuseOverLimit(await countAttempt(db, key, windowSeconds), limit);
}

/** Refuses with 429 when an attempt, counted by the caller (countAttempt or countAttemptSql), made the window's hits go over the limit. */
export function refuseOverLimit(hits: number, limit: number): void {
  if (hits > limit) throw rateLimited();
}

/** Refuses when the key already reached its limit in the current window, without counting this call. */
export async function assertUnderRateLimit(db: Executor, key: string, limit: number, windowSeconds: number): Promise<void> {
  if ((await attemptsInWindow(db, key, windowSeconds)) >= limit) throw rateLimited();
}

/**
 * Waits for a turn under `key`, `spacingMilliseconds` after the turn before it, so that the callers of
 * every server take their turns one at a time; refuses with 429 when the turn would be more than
 * `maxWaitMilliseconds` away. The wait holds no database connection.
 */
export async function waitForTurn(db: Executor, key: string, spacingMilliseconds: number, maxWaitMilliseconds: number): Promise<void> {
  const waitMilliseconds = await claimTurn(db, key, spacingMilliseconds, maxWaitMilliseconds);
  if (waitMilliseconds === undefined) throw rateLimited();
  if (waitMilliseconds > 0) await setTimeout(waitMilliseconds);
}
