import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedStatement, queryPreparedIn } from '../../db/prepared.ts';
import { countAttemptSql } from '../../platform/rate-limit/repository.ts';
import { pinFailures, pinResetTokens, userPins, users } from '../../db/schema.ts';

export async function findPinHash(db: Executor, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ pinHash: userPins.pinHash }).from(userPins).where(eq(userPins.userId, userId));
  return row?.pinHash;
}

const lockPinStatement = preparedStatement<{ pinHash: string; failedAttempts: number }>(
  'pin_lock',
  `select pin_hash as "pinHash", failed_attempts as "failedAttempts" from user_pins where user_id = $1 for update`,
);

/** Locks the user's PIN row, so that the outcomes of PIN checks of one user are recorded one after another. */
export async function lockPin(db: Executor, userId: string): Promise<{ pinHash: string; failedAttempts: number } | undefined> {
  const [row] = await queryPreparedIn(db, lockPinStatement, [userId]);
  return row;
}

export async function setFailedAttempts(db: Executor, userId: string, failedAttempts: number): Promise<void> {
  await db.update(userPins).set({ failedAttempts }).where(eq(userPins.userId, userId));
}

export async function insertPin(db: Executor, userId: string, pinHash: string): Promise<boolean> {
  const inserted = await db.insert(userPins).values({ userId, pinHash }).onConflictDoNothing().returning({ userId: userPins.userId });
  return inserted.length === 1;
}

export async function upsertPin(db: Executor, userId: string, pinHash: string): Promise<void> {
  await db
    .insert(userPins)
    .values({ userId, pinHash })
    .onConflictDoUpdate({ target: userPins.userId, set: { pinHash, failedAttempts: 0, updatedAt: sql`now()` } });
}

export async function recordFailure(db: Executor, userId: string): Promise<void> {
  await db.insert(pinFailures).values({ userId });
}

/** How many wrong PINs within how many seconds block the account. */
export interface PinFailureRule {
  limit: number;
  windowSeconds: number;
}

/**
 * The time of the `limit`-th newest wrong PIN within the window, if there are that many (the
 * account is blocked until that failure leaves the window), as a scalar subquery over the user id,
 * the window in seconds and `limit - 1` (see failureRuleValues), so that a statement can read it
 * along with its own reads.
 */
function limitingFailureSql(userId: string, windowSeconds: string, offset: string): string {
  return `(select failed_at from pin_failures where user_id = ${userId} and failed_at > now() - make_interval(secs => ${windowSeconds})
    order by failed_at desc offset ${offset} limit 1)`;
}

/** The window and offset parameters of limitingFailureSql, in their order. */
function failureRuleValues(rule: PinFailureRule): [number, number] {
  return [rule.windowSeconds, rule.limit - 1];
}

const limitingFailureStatement = preparedStatement<{ failedAt: Date | null }>(
  'pin_limiting_failure',
  `select ${limitingFailureSql('$1', '$2', '$3')} as "failedAt"`,
);

export async function findLimitingFailure(db: Executor, userId: string, rule: PinFailureRule): Promise<Date | undefined> {
  const [row] = await queryPreparedIn(db, limitingFailureStatement, [userId, ...failureRuleValues(rule)]);
  return row?.failedAt ?? undefined;
}

export async function clearFailures(db: Executor, userId: string): Promise<void> {
  await db.delete(pinFailures).where(eq(pinFailures.userId, userId));
}

export async function insertResetToken(db: Executor, userId: string, tokenHash: Buffer, lifetimeMinutes: number): Promise<void> {
  await db.insert(pinResetTokens).values({ userId, tokenHash, expiresAt: sql`now() + make_interval(mins => ${lifetimeMinutes})` });
}

/** Marks an unused, unexpired token used and returns its user; every other open token of that user is spent too. */
/** Whether an unused, unexpired PIN reset token with this hash exists; it changes nothing. */
export async function isResetTokenUsable(db: Executor, tokenHash: Buffer): Promise<boolean> {
  const [row] = await db
    .select({ userId: pinResetTokens.userId })
    .from(pinResetTokens)
    .where(and(eq(pinResetTokens.tokenHash, tokenHash), isNull(pinResetTokens.usedAt), sql`${pinResetTokens.expiresAt} > now()`));
  return row !== undefined;
}

export async function claimResetToken(db: Executor, tokenHash: Buffer): Promise<string | undefined> {
  const [claimed] = await db
    .update(pinResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(pinResetTokens.tokenHash, tokenHash), isNull(pinResetTokens.usedAt), sql`${pinResetTokens.expiresAt} > now()`))
    .returning({ userId: pinResetTokens.userId });
  if (!claimed) return undefined;
  await db
    .update(pinResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(pinResetTokens.userId, claimed.userId), isNull(pinResetTokens.usedAt)));
  return claimed.userId;
}

export async function markPinReset(db: Executor, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ pinResetAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** What the first step of a PIN check reads. */
export interface OpenedPinCheck {
  hits: number;
  pinHash: string | undefined;
  limitingFailure: Date | undefined;
}

/**
 * The first step of a PIN check as one statement: counts the attempt under the rate-limit key $1 in
 * a window of $2 seconds (as countAttempt does), and reads the PIN hash of the user $3 and the time
 * of the `limit`-th newest wrong PIN within the window ($4 seconds, offset $5; as findPinHash and
 * findLimitingFailure do).
 */
const openCheckStatement = preparedStatement<{ hits: number | null; pinHash: string | null; limitingFailure: Date | null }>(
  'pin_check_open',
  `with attempt as (${countAttemptSql()})
   select (select hits from attempt) as hits,
     (select pin_hash from user_pins where user_id = $3) as "pinHash",
     ${limitingFailureSql('$3', '$4', '$5')} as "limitingFailure"`,
);

export async function openCheck(
  db: Executor,
  rateLimit: { key: string; windowSeconds: number },
  userId: string,
  failures: PinFailureRule,
): Promise<OpenedPinCheck> {
  const [row] = await queryPreparedIn(db, openCheckStatement, [rateLimit.key, rateLimit.windowSeconds, userId, ...failureRuleValues(failures)]);
  return { hits: Number(row?.hits ?? 0), pinHash: row?.pinHash ?? undefined, limitingFailure: row?.limitingFailure ?? undefined };
}

const recheckStatement = preparedStatement<{ sessionExists: boolean; limitingFailure: Date | null }>(
  'pin_recheck',
  `select exists (select 1 from sessions where id = $1) as "sessionExists", ${limitingFailureSql('$2', '$3', '$4')} as "limitingFailure"`,
);

/**
 * What a PIN check re-reads under the PIN row lock, in one statement: whether the session still
 * exists, and the wrong PIN that blocks the account, if any (as findLimitingFailure).
 */
export async function recheck(
  db: Executor,
  sessionId: string,
  userId: string,
  failures: PinFailureRule,
): Promise<{ sessionExists: boolean; limitingFailure: Date | undefined }> {
  const [row] = await queryPreparedIn(db, recheckStatement, [sessionId, userId, ...failureRuleValues(failures)]);
  return { sessionExists: row?.sessionExists ?? false, limitingFailure: row?.limitingFailure ?? undefined };
}
