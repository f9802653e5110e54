import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { hashSecret, verifySecret } from '../auth/passwords.ts';
import { assertUnderRateLimit, consumeRateLimit } from '../../platform/rate-limit/service.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import * as sessionRepository from '../../platform/sessions/repository.ts';
import * as users from '../users/service.ts';
import * as pinRepository from './repository.ts';
import { LIMITS } from '../../../shared/limits.ts';

/** Sign-up stores the PIN chosen on its form (auth/accounts.ts). */
export { insertPin } from './repository.ts';

export const PIN_LOCKED_MESSAGE = 'Too many failed attempts';
export const PIN_NOT_SET_MESSAGE = 'PIN setup required';

/**
 * Checks the customer's PIN and counts wrong ones. The third wrong PIN in a row
 * ends every session of the user. Checks of one user are serialized by a row
 * lock, and each re-reads its session under that lock, so concurrent guesses
 * are counted one by one and none is counted on a session already ended.
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
  const { db } = context.database;
  await consumeRateLimit(db, `pin:ip:${request.ip}`, context.rateLimits.pinPerAddress, context.rateLimits.windowSeconds);
  const outcome = await db.transaction(async (transaction) => {
    const stored = await pinRepository.lockPin(transaction, session.userId);
    if (!stored) return { kind: 'not-set' as const };
    if (!(await sessionRepository.sessionExists(transaction, session.sessionId))) return { kind: 'session-ended' as const };
    if (/^\d{4}$/.test(pin) && (await verifySecret(stored.pinHash, pin))) {
      if (stored.failedAttempts > 0) await pinRepository.setFailedAttempts(transaction, session.userId, 0);
      return { kind: 'correct' as const };
    }
    const failedAttempts = stored.failedAttempts + 1;
    if (failedAttempts >= LIMITS.pinAttempts) {
      await pinRepository.setFailedAttempts(transaction, session.userId, 0);
      await sessionRepository.deleteSessionsOfUser(transaction, session.userId);
      return { kind: 'locked' as const };
    }
    await pinRepository.setFailedAttempts(transaction, session.userId, failedAttempts);
    return { kind: 'incorrect' as const, remainingAttempts: LIMITS.pinAttempts - failedAttempts };
  });
  switch (outcome.kind) {
    case 'correct':
      return;
    case 'not-set':
      throw new AppError(409, 'PIN_NOT_SET', PIN_NOT_SET_MESSAGE);
    case 'session-ended':
      throw AppError.unauthenticated();
    case 'locked':
      throw new AppError(401, 'PIN_LOCKED', PIN_LOCKED_MESSAGE, { remainingAttempts: 0 });
    case 'incorrect':
      throw new AppError(400, 'PIN_INCORRECT', incorrectMessage(outcome.remainingAttempts), { remainingAttempts: outcome.remainingAttempts });
  }
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

/** A forgotten PIN is replaced only by someone who knows the account password. */
export async function resetPin(context: AppContext, request: { ip: string }, session: SessionRecord, password: string, pin: string): Promise<void> {
  const { db } = context.database;
  const accountKey = `password:account:${session.userId}`;
  await consumeRateLimit(db, `pin:ip:${request.ip}`, context.rateLimits.pinPerAddress, context.rateLimits.windowSeconds);
  await assertUnderRateLimit(db, accountKey, context.rateLimits.loginPerAccount, context.rateLimits.windowSeconds);
  const passwordHash = await users.findPasswordHash(db, session.userId);
  if (!passwordHash || !(await verifySecret(passwordHash, password))) {
    await consumeRateLimit(db, accountKey, Number.MAX_SAFE_INTEGER, context.rateLimits.windowSeconds);
    throw new AppError(400, 'INVALID_CREDENTIALS', 'The account password is incorrect.', { fields: { password: 'The account password is incorrect.' } });
  }
  const pinHash = await hashSecret(pin);
  await db.transaction(async (transaction) => {
    await pinRepository.upsertPin(transaction, session.userId, pinHash);
    await sessionRepository.markSessionPinVerified(transaction, session.sessionId);
  });
}

export async function changePin(context: AppContext, request: { ip: string }, session: SessionRecord, currentPin: string, newPin: string): Promise<void> {
  await checkPin(context, request, session, currentPin, () => 'Current PIN is incorrect');
  await pinRepository.upsertPin(context.database.db, session.userId, await hashSecret(newPin));
}
