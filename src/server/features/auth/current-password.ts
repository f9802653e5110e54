import { WRONG_CURRENT_PASSWORD_MESSAGE } from '#shared/contracts/auth';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { assertUnderRateLimit, consumeRateLimit, recordFailedAttempt } from '../../platform/rate-limit/service.ts';
import * as users from '../users/service.ts';
import { verifySecret } from './passwords.ts';

export const wrongCurrentPassword = () =>
  new AppError(400, 'INVALID_CREDENTIALS', WRONG_CURRENT_PASSWORD_MESSAGE, { fields: { currentPassword: WRONG_CURRENT_PASSWORD_MESSAGE } });

/**
 * The signed-in customer's current password, asked before a change of password or e-mail. Both share the login's
 * limits per address and per account, so neither can be used to guess the password faster than the login.
 * Answers the hash it checked, so a password change replaces only that one.
 */
export async function checkCurrentPassword(context: AppContext, address: string, userId: string, currentPassword: string): Promise<string> {
  const { db } = context.database;
  const limits = context.rateLimits;
  const accountKey = `password:account:${userId}`;
  await consumeRateLimit(db, `password-change:ip:${address}`, limits.loginPerAddress, limits.windowSeconds);
  await assertUnderRateLimit(db, accountKey, limits.loginPerAccount, limits.windowSeconds);
  const passwordHash = await users.findPasswordHash(db, userId);
  if (!passwordHash || !(await verifySecret(passwordHash, currentPassword))) {
    await recordFailedAttempt(db, accountKey, limits.windowSeconds);
    throw wrongCurrentPassword();
  }
  return passwordHash;
}
