import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { signupRequestSchema } from '../../../shared/contracts/auth.ts';
import { PRODUCT_NAME } from '../../../shared/limits.ts';
import type { AppContext } from '../../context.ts';
import { passwordResetTokens } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { hashToken, newToken } from '../../http/security.ts';
import { escapeHtml } from '../../platform/mail/mailer.ts';
import { assertUnderRateLimit, consumeRateLimit } from '../../platform/rate-limit/service.ts';
import * as sessionRepository from '../../platform/sessions/repository.ts';
import { endSession, startSession } from '../../platform/sessions/service.ts';
import * as users from '../users/service.ts';
import { createAccount } from './accounts.ts';
import { hashSecret, verifyAgainstDummy, verifySecret } from './passwords.ts';

const RESET_TOKEN_LIFETIME_MINUTES = 30;
const INVALID_CREDENTIALS_MESSAGE = 'Invalid credentials. Please try again.';
const INVALID_RESET_LINK_MESSAGE = 'This password reset link is invalid or has expired. Please request a new one.';
export const RESET_REQUEST_ANSWER = 'If an account exists for this email, we have sent password reset instructions to it.';

export async function signUp(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: z.output<typeof signupRequestSchema>,
): Promise<string> {
  const { db } = context.database;
  await consumeRateLimit(db, `signup:ip:${request.ip}`, context.rateLimits.signupPerAddress, context.rateLimits.windowSeconds);
  return db.transaction(async (transaction) => {
    let referredByUserId: string | undefined;
    if (input.referralCode !== undefined) {
      referredByUserId = await users.findUserIdByReferralCode(transaction, input.referralCode);
      if (!referredByUserId) throw AppError.fieldError('referralCode', 'This referral code does not exist. Check it or leave the field empty.');
    }
    const userId = await createAccount(transaction, {
      email: input.email,
      password: input.password,
      name: input.fullName,
      phone: input.phone,
      pin: input.pin,
      role: 'user',
      referredByUserId,
    });
    await startSession(transaction, context, request, reply, userId);
    return userId;
  });
}

export async function logIn(context: AppContext, request: FastifyRequest, reply: FastifyReply, email: string, password: string): Promise<string> {
  const { db } = context.database;
  const limits = context.rateLimits;
  const accountKey = `login:account:${email.toLowerCase()}`;
  await consumeRateLimit(db, `login:ip:${request.ip}`, limits.loginPerAddress, limits.windowSeconds);
  // Only wrong passwords count against the account, so its owner signing in often is never locked out.
  await assertUnderRateLimit(db, accountKey, limits.loginPerAccount, limits.windowSeconds);
  const credentials = await users.findCredentialsByEmail(db, email);
  const valid = credentials ? await verifySecret(credentials.passwordHash, password) : await verifyAgainstDummy(password);
  if (!credentials || !valid) {
    await consumeRateLimit(db, accountKey, Number.MAX_SAFE_INTEGER, limits.windowSeconds);
    throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS_MESSAGE);
  }
  await startSession(db, context, request, reply, credentials.id);
  return credentials.id;
}

export async function logOut(context: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await endSession(context, request, reply);
}

/** Always answers the same, whether or not the e-mail belongs to an account. */
export async function requestPasswordReset(context: AppContext, request: FastifyRequest, email: string): Promise<void> {
  const { db } = context.database;
  const limits = context.rateLimits;
  await consumeRateLimit(db, `reset:ip:${request.ip}`, limits.resetRequestsPerAddress, limits.windowSeconds);
  const credentials = await users.findCredentialsByEmail(db, email);
  if (!credentials) return;
  // The per-account limit is counted only for real accounts, and silently: the answer must not reveal that the account exists.
  try {
    await consumeRateLimit(db, `reset:account:${credentials.id}`, limits.resetRequestsPerAccount, limits.windowSeconds);
  } catch (error) {
    if (error instanceof AppError && error.code === 'RATE_LIMITED') return;
    throw error;
  }
  const token = newToken();
  await db.insert(passwordResetTokens).values({
    userId: credentials.id,
    tokenHash: hashToken(token),
    expiresAt: sql`now() + make_interval(mins => ${RESET_TOKEN_LIFETIME_MINUTES})`,
  });
  const link = `${context.config.appOrigin}/reset-password?token=${encodeURIComponent(token)}`;
  await context.mailer.send({
    to: credentials.email,
    subject: `${PRODUCT_NAME}: reset your password`,
    text: [
      'We received a request to reset the password of your account.',
      '',
      `Open this link within ${RESET_TOKEN_LIFETIME_MINUTES} minutes to choose a new password:`,
      link,
      '',
      'If you did not ask for this, ignore this e-mail; your password stays as it is.',
      '',
      `- ${PRODUCT_NAME}`,
    ].join('\n'),
    html: `<p>We received a request to reset the password of your account.</p><p>Open this link within ${RESET_TOKEN_LIFETIME_MINUTES} minutes to choose a new password:</p><p><a href="${escapeHtml(link)}">Reset your password</a></p><p>If you did not ask for this, ignore this e-mail; your password stays as it is.</p><p>${PRODUCT_NAME}</p>`,
  });
}

/** Uses a reset token once: sets the new password and ends every session of the user. */
export async function resetPassword(context: AppContext, token: string, password: string): Promise<void> {
  const passwordHash = await hashSecret(password);
  await context.database.db.transaction(async (transaction) => {
    const [claimed] = await transaction
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResetTokens.tokenHash, hashToken(token)), isNull(passwordResetTokens.usedAt), sql`${passwordResetTokens.expiresAt} > now()`))
      .returning({ userId: passwordResetTokens.userId });
    if (!claimed) throw new AppError(400, 'INVALID_RESET_TOKEN', INVALID_RESET_LINK_MESSAGE);
    await users.updatePasswordHash(transaction, claimed.userId, passwordHash);
    // Other outstanding links of this user stop working too: the password they were meant to replace is gone.
    await transaction
      .update(passwordResetTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResetTokens.userId, claimed.userId), isNull(passwordResetTokens.usedAt)));
    await sessionRepository.deleteSessionsOfUser(transaction, claimed.userId);
  });
}
