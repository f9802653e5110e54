import type { FastifyBaseLogger } from 'fastify';
import { INVALID_PIN_RESET_LINK_MESSAGE, PIN_RESET_LINK_SENT_MESSAGE } from '#shared/contracts/pin';
import { formatPauseEnd } from '#shared/contracts/security';
import { LIMITS } from '#shared/limits';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { hashToken, newToken } from '../../http/security.ts';
import { assertUnderRateLimit, consumeRateLimit, recordFailedAttempt, refuseOverLimit } from '../../platform/rate-limit/service.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import * as sessionRepository from '../../platform/sessions/repository.ts';
import { hashSecret, verifySecret } from '../auth/passwords.ts';
import { notifySecurityChange } from '../security/notifications.ts';
import * as users from '../users/service.ts';
import * as pinRepository from './repository.ts';
import { resetLinkMessage } from '../notifications/account-mail.ts';

/**
 * Sign-up stores the PIN chosen on its form (auth/accounts.ts) in the transaction that creates the account, so a
 * new account never exists without it. False when the user already has a PIN.
 */
export function storePinChosenAtSignup(db: Executor, userId: string, pinHash: string): Promise<boolean> {
  return pinRepository.insertPin(db, userId, pinHash);
}

export const PIN_LOCKED_MESSAGE = 'Too many failed attempts';
export const PIN_NOT_SET_MESSAGE = 'PIN setup required';
const PIN_CHANGED_MEANWHILE_MESSAGE = 'Your PIN was changed meanwhile. Please try again.';
const PIN_RESET_LINK_LIFETIME_MINUTES = 30;
/** The per-account ceiling on wrong PINs counts over this window; it is never scaled by RATE_LIMIT_SCALE. */
export const PIN_FAILURE_WINDOW_SECONDS = 24 * 60 * 60;
const PIN_FAILURES: pinRepository.PinFailureRule = { limit: LIMITS.pinFailuresPerDay, windowSeconds: PIN_FAILURE_WINDOW_SECONDS };
/** How often a check re-reads the hash when the PIN changed between reading and recording. */
const PIN_CHANGE_RETRIES = 3;

function pinBlocked(limitingFailure: Date): AppError {
  const until = new Date(limitingFailure.getTime() + PIN_FAILURE_WINDOW_SECONDS * 1000);
  return new AppError(
    429,
    'PIN_BLOCKED',
    `Too many wrong PINs on this account. PIN checks are blocked until ${formatPauseEnd(until)}, or until you reset your PIN by e-mail.`,
  );
}

type Outcome =
  | { kind: 'correct' }
  | { kind: 'not-set' }
  | { kind: 'changed' }
  | { kind: 'session-ended' }
  | { kind: 'blocked'; limitingFailure: Date }
  | { kind: 'locked' }
  | { kind: 'incorrect'; remainingAttempts: number };

/**
 * Checks the customer's PIN and counts wrong ones. The argon2 check runs
 * outside any transaction, holding neither a pooled connection nor a lock, so
 * many checks of one customer cannot starve the pool. Only the outcome is
 * recorded under the user's PIN row lock, where each check re-reads its session,
 * the hash it verified against, and the account's wrong PINs of the last 24
 * hours: concurrent guesses are thus counted one by one, none is counted on a
 * session already ended, and none gets past the per-account ceiling.
 * The third wrong PIN in a row ends every session of the user; the tenth within
 * 24 hours blocks every PIN check of the account (the right PIN too) until the
 * oldest of them is 24 hours old, or the PIN is reset by e-mail.
 * Runs before, and outside of, any money transaction, so a wrong PIN is counted
 * even though the action it guarded is refused.
 */
export async function checkPin(
  context: AppContext,
  request: { ip: string },
  session: SessionRecord,
  pin: string,
  incorrectMessage: (remainingAttempts: number) => string,
): Promise<void> {
  const opened = await pinRepository.openCheck(
    context.database.db,
    { key: `pin:ip:${request.ip}`, windowSeconds: context.rateLimits.windowSeconds },
    session.userId,
    PIN_FAILURES,
  );
  refuseOverLimit(opened.hits, context.rateLimits.pinPerAddress);
  const verified = await verifyAgainst(opened.pinHash, opened.limitingFailure, pin);
  let outcome = verified.kind === 'verified' ? await recordOutcome(context, session, verified.pinHash, verified.correct) : verified;
  for (let attempt = 1; attempt < PIN_CHANGE_RETRIES && outcome.kind === 'changed'; attempt += 1) {
    outcome = await checkOnce(context, session, pin);
  }
  refuseUnlessCorrect(outcome, incorrectMessage);
}

function refuseUnlessCorrect(outcome: Outcome, incorrectMessage: (remainingAttempts: number) => string): void {
  switch (outcome.kind) {
    case 'correct':
      return;
    case 'not-set':
      throw new AppError(409, 'PIN_NOT_SET', PIN_NOT_SET_MESSAGE);
    case 'changed':
      throw AppError.conflict(PIN_CHANGED_MEANWHILE_MESSAGE);
    case 'session-ended':
      throw AppError.unauthenticated();
    case 'blocked':
      throw pinBlocked(outcome.limitingFailure);
    case 'locked':
      throw new AppError(401, 'PIN_LOCKED', PIN_LOCKED_MESSAGE, { remainingAttempts: 0 });
    case 'incorrect':
      throw new AppError(400, 'PIN_INCORRECT', incorrectMessage(outcome.remainingAttempts), { remainingAttempts: outcome.remainingAttempts });
  }
}

type Verified = { kind: 'verified'; pinHash: string; correct: boolean };

/** Argon2 against the stored hash, unless there is none or the account is blocked. */
async function verifyAgainst(pinHash: string | undefined, limitingFailure: Date | undefined, pin: string): Promise<Outcome | Verified> {
  if (pinHash === undefined) return { kind: 'not-set' };
  // A blocked account is refused before spending an argon2 check on it.
  if (limitingFailure) return { kind: 'blocked', limitingFailure };
  const correct = /^\d{4}$/.test(pin) && (await verifySecret(pinHash, pin));
  return { kind: 'verified', pinHash, correct };
}

async function checkOnce(context: AppContext, session: SessionRecord, pin: string): Promise<Outcome> {
  const { db } = context.database;
  const { userId } = session;
  const pinHash = await pinRepository.findPinHash(db, userId);
  const limitingFailure = pinHash === undefined ? undefined : await pinRepository.findLimitingFailure(db, userId, PIN_FAILURES);
  const verified = await verifyAgainst(pinHash, limitingFailure, pin);
  if (verified.kind !== 'verified') return verified;
  return recordOutcome(context, session, verified.pinHash, verified.correct);
}

/** Records the outcome of a check against `pinHash` under the user's PIN row lock (see checkPin). */
async function recordOutcome(context: AppContext, session: SessionRecord, pinHash: string, correct: boolean): Promise<Outcome> {
  const { userId } = session;
  return context.database.db.transaction(async (transaction): Promise<Outcome> => {
    const stored = await pinRepository.lockPin(transaction, userId);
    if (!stored) return { kind: 'not-set' };
    if (stored.pinHash !== pinHash) return { kind: 'changed' };
    // A new statement after the lock, so it sees every wrong PIN recorded before the lock was ours.
    const found = await pinRepository.recheck(transaction, session.sessionId, userId, PIN_FAILURES);
    if (!found.sessionExists) return { kind: 'session-ended' };
    if (found.limitingFailure) return { kind: 'blocked', limitingFailure: found.limitingFailure };
    if (correct) {
      if (stored.failedAttempts > 0) await pinRepository.setFailedAttempts(transaction, userId, 0);
      return { kind: 'correct' };
    }
    await pinRepository.recordFailure(transaction, userId);
    const failedAttempts = stored.failedAttempts + 1;
    if (failedAttempts >= LIMITS.pinAttempts) {
      await pinRepository.setFailedAttempts(transaction, userId, 0);
      await sessionRepository.deleteSessionsOfUser(transaction, userId);
      return { kind: 'locked' };
    }
    await pinRepository.setFailedAttempts(transaction, userId, failedAttempts);
    const nowLimiting = await pinRepository.findLimitingFailure(transaction, userId, PIN_FAILURES);
    if (nowLimiting) return { kind: 'blocked', limitingFailure: nowLimiting };
    return { kind: 'incorrect', remainingAttempts: LIMITS.pinAttempts - failedAttempts };
  });
}

export async function verifyPinForSession(context: AppContext, request: { ip: string }, session: SessionRecord, pin: string): Promise<void> {
  await checkPin(context, request, session, pin, (remaining) => `PIN verification failed. ${remaining} attempt${remaining === 1 ? '' : 's'} remaining.`);
  await sessionRepository.markSessionPinVerified(context.database.db, session.sessionId);
}

export async function setUpPin(context: AppContext, session: SessionRecord, pin: string): Promise<void> {
  const pinHash = await hashSecret(pin);
  await context.database.db.transaction(async (transaction) => {
    const created = await pinRepository.insertPin(transaction, session.userId, pinHash);
    if (!created) throw AppError.conflict('A transaction PIN is already set. Use Change PIN or Forgot PIN instead.');
    await sessionRepository.markSessionPinVerified(transaction, session.sessionId);
  });
}

/**
 * Step 1 of replacing a forgotten PIN: the account password, then a single-use
 * link to the account's e-mail address. Neither the PIN nor the session changes
 * here, so a session that knows only the password gains nothing.
 */
export async function sendPinResetLink(context: AppContext, request: { ip: string }, session: SessionRecord, password: string): Promise<string> {
  const { db } = context.database;
  const limits = context.rateLimits;
  const accountKey = `password:account:${session.userId}`;
  await consumeRateLimit(db, `pin:ip:${request.ip}`, limits.pinPerAddress, limits.windowSeconds);
  await assertUnderRateLimit(db, accountKey, limits.loginPerAccount, limits.windowSeconds);
  const passwordHash = await users.findPasswordHash(db, session.userId);
  if (!passwordHash || !(await verifySecret(passwordHash, password))) {
    await recordFailedAttempt(db, accountKey, limits.windowSeconds);
    throw new AppError(400, 'INVALID_CREDENTIALS', 'The account password is incorrect.', { fields: { password: 'The account password is incorrect.' } });
  }
  await consumeRateLimit(db, `pin-reset:account:${session.userId}`, limits.resetRequestsPerAccount, limits.windowSeconds);
  const account = await users.findEmailAndLanguage(db, session.userId);
  if (account === undefined) throw AppError.unauthenticated();
  const recipient = { to: account.email, language: account.language };
  const token = newToken();
  await pinRepository.insertResetToken(db, session.userId, hashToken(token), PIN_RESET_LINK_LIFETIME_MINUTES);
  const link = `${context.config.appOrigin}/reset-pin?token=${encodeURIComponent(token)}`;
  await context.mailer.send(resetLinkMessage('pin', recipient, link, PIN_RESET_LINK_LIFETIME_MINUTES));
  return PIN_RESET_LINK_SENT_MESSAGE;
}

/** Whether a PIN reset link still works, so its page can say at once that it does not. Limited per address like the reset requests. */
export async function checkPinResetLink(context: AppContext, request: { ip: string }, token: string): Promise<boolean> {
  const { db } = context.database;
  await consumeRateLimit(db, `pin-reset-check:ip:${request.ip}`, context.rateLimits.resetRequestsPerAddress, context.rateLimits.windowSeconds);
  return pinRepository.isResetTokenUsable(db, hashToken(token));
}

/**
 * Step 2: the e-mailed token sets the new PIN once. It clears the wrong-PIN
 * counts (the e-mail proves the owner), starts the cooling-off and ends every
 * other session of the user. The session that completes it, when it belongs to
 * the same user, stays and is PIN-verified.
 */
export async function completePinReset(
  context: AppContext,
  log: FastifyBaseLogger,
  session: SessionRecord | undefined,
  token: string,
  pin: string,
): Promise<{ signedIn: boolean }> {
  const pinHash = await hashSecret(pin);
  const result = await context.database.db.transaction(async (transaction) => {
    const userId = await pinRepository.claimResetToken(transaction, hashToken(token));
    if (!userId) throw new AppError(400, 'INVALID_RESET_TOKEN', INVALID_PIN_RESET_LINK_MESSAGE, { fields: { token: INVALID_PIN_RESET_LINK_MESSAGE } });
    const keptSessionId = session?.userId === userId ? session.sessionId : undefined;
    await pinRepository.upsertPin(transaction, userId, pinHash);
    await pinRepository.clearFailures(transaction, userId);
    await pinRepository.markPinReset(transaction, userId);
    await sessionRepository.deleteOtherSessionsOfUser(transaction, userId, keptSessionId);
    if (keptSessionId !== undefined) await sessionRepository.markSessionPinVerified(transaction, keptSessionId);
    return { userId, signedIn: keptSessionId !== undefined };
  });
  await notifySecurityChange(context, result.userId, 'pin-reset', log);
  return { signedIn: result.signedIn };
}

export async function changePin(
  context: AppContext,
  request: { ip: string; log: FastifyBaseLogger },
  session: SessionRecord,
  currentPin: string,
  newPin: string,
): Promise<void> {
  await checkPin(context, request, session, currentPin, () => 'Current PIN is incorrect');
  await pinRepository.upsertPin(context.database.db, session.userId, await hashSecret(newPin));
  await notifySecurityChange(context, session.userId, 'pin-changed', request.log);
}
