import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ACCOUNT_CLOSING_MESSAGES } from '#shared/contracts/account-closing';
import type { signupRequestSchema } from '#shared/contracts/auth';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { hashToken, looksLikeToken, newToken, readDeviceCookie, setDeviceCookie } from '../../http/security.ts';
import { assertUnderRateLimit, attemptsInWindow, consumeRateLimit, recordFailedAttempt, waitForTurn } from '../../platform/rate-limit/service.ts';
import * as sessionRepository from '../../platform/sessions/repository.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { endSession, startSession, usesSecureCookies } from '../../platform/sessions/service.ts';
import * as contactVerification from '../contact-verification/service.ts';
import { notifySecurityChange } from '../security/notifications.ts';
import * as users from '../users/service.ts';
import { createAccount } from './accounts.ts';
import * as knownDevices from './known-device-repository.ts';
import * as resetTokenRepository from './reset-token-repository.ts';
import { checkCurrentPassword, wrongCurrentPassword } from './current-password.ts';
import { hashSecret, verifyAgainstDummy, verifySecret } from './passwords.ts';
import { resetLinkMessage } from '../notifications/account-mail.ts';

const RESET_TOKEN_LIFETIME_MINUTES = 30;
const INVALID_CREDENTIALS_MESSAGE = 'Invalid credentials. Please try again.';
const INVALID_RESET_LINK_MESSAGE = 'This password reset link is invalid or has expired. Please request a new one.';
export const RESET_REQUEST_ANSWER = 'If an account exists for this email, we have sent password reset instructions to it.';

export async function signUp(context: AppContext, request: FastifyRequest, reply: FastifyReply, input: z.output<typeof signupRequestSchema>): Promise<string> {
  const { db } = context.database;
  await consumeRateLimit(db, `signup:ip:${request.ip}`, context.rateLimits.signupPerAddress, context.rateLimits.windowSeconds);
  const { userId, verificationMail } = await db.transaction(async (transaction) => {
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
      language: input.language,
    });
    await startSession(transaction, context, request, reply, userId);
    await rememberThisBrowser(transaction, context, request, reply, userId);
    const mail = await contactVerification.recordSignUp(transaction, context, request, {
      userId,
      email: input.email,
      language: input.language ?? 'en',
      geolocation: input.geolocation,
    });
    return { userId, verificationMail: mail };
  });
  await context.mailer.send(verificationMail);
  return userId;
}

/** The known-browser token this browser holds, when it has one of the right shape. */
function heldBrowserToken(context: AppContext, request: FastifyRequest): string | undefined {
  const held = readDeviceCookie(request, usesSecureCookies(context));
  return looksLikeToken(held) ? held : undefined;
}

/** Marks this browser as known to the account: its token (a new one unless it holds one) is stored as its SHA-256. */
async function rememberThisBrowser(db: Executor, context: AppContext, request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  const token = heldBrowserToken(context, request) ?? newToken();
  await knownDevices.rememberDevice(db, hashToken(token), userId);
  setDeviceCookie(reply, token, usesSecureCookies(context));
}

async function isKnownBrowser(db: Executor, context: AppContext, request: FastifyRequest, email: string): Promise<boolean> {
  const token = heldBrowserToken(context, request);
  return token !== undefined && (await knownDevices.isKnownDevice(db, hashToken(token), email));
}

/** The first delay past the account-wide ceiling of wrong passwords; each further wrong password doubles it. */
export const LOGIN_SLOWDOWN_FIRST_MILLISECONDS = 500;
export const LOGIN_SLOWDOWN_MAX_MILLISECONDS = 10_000;

/** How long an attempt on an account waits, given the wrong passwords for it from all addresses in this window. */
export function loginDelayMilliseconds(accountFailures: number, slowdownAfter: number): number {
  if (accountFailures < slowdownAfter) return 0;
  const doublings = Math.min(accountFailures - slowdownAfter, 20);
  return Math.min(LOGIN_SLOWDOWN_FIRST_MILLISECONDS * 2 ** doublings, LOGIN_SLOWDOWN_MAX_MILLISECONDS);
}

/**
 * Wrong passwords are counted per account and address: one address that keeps
 * guessing is stopped for that account, while the owner signs in from another.
 * Guessing spread over many addresses meets the account-wide ceiling, past
 * which the account's passwords are checked one at a time, each a longer
 * delay after the one before (decision 026). Browsers that signed in to the
 * account before skip that queue, so guessing cannot keep the owner out.
 */
export async function logIn(context: AppContext, request: FastifyRequest, reply: FastifyReply, email: string, password: string): Promise<string> {
  const { db } = context.database;
  const limits = context.rateLimits;
  const account = email.toLowerCase();
  const accountAndAddressKey = `login:account-address:${account}:${request.ip}`;
  const accountKey = `login:account:${account}`;
  await consumeRateLimit(db, `login:ip:${request.ip}`, limits.loginPerAddress, limits.windowSeconds);
  // Only wrong passwords count against the account, so its owner signing in often is never slowed.
  await assertUnderRateLimit(db, accountAndAddressKey, limits.loginPerAccount, limits.windowSeconds);
  const delay = loginDelayMilliseconds(await attemptsInWindow(db, accountKey, limits.windowSeconds), limits.loginSlowdownAfter);
  // Turns, not a plain wait: waits sent at once would run side by side, and so would their checks.
  if (delay > 0 && !(await isKnownBrowser(db, context, request, email))) await waitForTurn(db, accountKey, delay, limits.loginQueueMilliseconds);
  const credentials = await users.findCredentialsByEmail(db, email);
  const valid = credentials ? await verifySecret(credentials.passwordHash, password) : await verifyAgainstDummy(password);
  if (!credentials || !valid) {
    await recordFailedAttempt(db, accountAndAddressKey, limits.windowSeconds);
    await recordFailedAttempt(db, accountKey, limits.windowSeconds);
    throw new AppError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS_MESSAGE);
  }
  // Said only to whoever knows the password: to anyone else a closed account answers as any wrong password does.
  if (credentials.closedAt !== null) throw new AppError(403, 'ACCOUNT_CLOSED', ACCOUNT_CLOSING_MESSAGES.signInRefused);
  await startSession(db, context, request, reply, credentials.id);
  await rememberThisBrowser(db, context, request, reply, credentials.id);
  return credentials.id;
}

export async function logOut(context: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await endSession(context, request, reply);
}

/**
 * Always answers the same, whether or not the e-mail belongs to an account, and
 * after the same work: both paths count the request against the address, draw
 * and hash a token and run the one statement that stores it (which stores
 * nothing for an unknown e-mail), and the unknown path then spends the round
 * trip the real one spends recording the mail. Otherwise the answer time would
 * tell which e-mails have accounts.
 */
export async function requestPasswordReset(context: AppContext, request: FastifyRequest, email: string): Promise<void> {
  const { db } = context.database;
  const limits = context.rateLimits;
  await consumeRateLimit(db, `reset:ip:${request.ip}`, limits.resetRequestsPerAddress, limits.windowSeconds);
  // Counted per e-mail address, known or not, and silently: a refusal must not reveal that the account exists.
  const addressKey = `reset:email:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
  let withinLimit = true;
  try {
    await consumeRateLimit(db, addressKey, limits.resetRequestsPerAccount, limits.windowSeconds);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'RATE_LIMITED')) throw error;
    withinLimit = false;
  }
  const token = newToken();
  const stored = await users.insertPasswordResetTokenForEmail(db, email, hashToken(token), RESET_TOKEN_LIFETIME_MINUTES, withinLimit);
  if (!stored) {
    await users.roundTrip(db);
    return;
  }
  const credentials = stored;
  const link = `${context.config.appOrigin}/reset-password?token=${encodeURIComponent(token)}`;
  await context.mailer.send(resetLinkMessage('password', { to: credentials.email, language: credentials.language }, link, RESET_TOKEN_LIFETIME_MINUTES));
}

/** Whether a password reset link still works, so its page can say at once that it does not. Limited per address like the reset requests. */
export async function checkPasswordResetLink(context: AppContext, request: { ip: string }, token: string): Promise<boolean> {
  const { db } = context.database;
  await consumeRateLimit(db, `reset-check:ip:${request.ip}`, context.rateLimits.resetRequestsPerAddress, context.rateLimits.windowSeconds);
  return resetTokenRepository.isResetTokenUsable(db, hashToken(token));
}

/**
 * Changes the password of a signed-in, PIN-verified user who knows the current one. Wrong
 * current passwords are limited as sign-in limits them: per address, and per account (counted
 * together with the PIN reset's password check, so neither path gives extra guesses). Like a
 * reset, a change ends the user's other sessions, forgets the other browsers, uses up open reset
 * links, starts the cooling-off of withdrawals and transfers and tells the owner by e-mail.
 */
export async function changePassword(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  session: SessionRecord,
  input: { currentPassword: string; newPassword: string },
): Promise<number> {
  const { db } = context.database;
  const currentHash = await checkCurrentPassword(context, request.ip, session.userId, input.currentPassword);
  const passwordHash = await hashSecret(input.newPassword);
  const sessionsEnded = await db.transaction(async (transaction) => {
    // Only the hash this request checked is replaced: two changes at once cannot both pass on the same old password.
    const replaced = await users.replacePasswordHash(transaction, session.userId, currentHash, passwordHash);
    if (!replaced) throw wrongCurrentPassword();
    await users.markPasswordReset(transaction, session.userId);
    await resetTokenRepository.useUpResetTokensOfUser(transaction, session.userId);
    const ended = await sessionRepository.deleteOtherSessionsOfUser(transaction, session.userId, session.sessionId);
    await knownDevices.forgetDevicesOfUser(transaction, session.userId);
    await rememberThisBrowser(transaction, context, request, reply, session.userId);
    return ended;
  });
  await notifySecurityChange(context, session.userId, 'password-changed', request.log);
  return sessionsEnded;
}

/**
 * Uses a reset token once: sets the new password, ends every session of the
 * user, starts the cooling-off of withdrawals and transfers and tells the owner.
 */
export async function resetPassword(context: AppContext, log: FastifyBaseLogger, token: string, password: string): Promise<void> {
  const passwordHash = await hashSecret(password);
  const userId = await context.database.db.transaction(async (transaction) => {
    const claimed = await resetTokenRepository.claimResetToken(transaction, hashToken(token));
    if (!claimed) throw new AppError(400, 'INVALID_RESET_TOKEN', INVALID_RESET_LINK_MESSAGE);
    await users.updatePasswordHash(transaction, claimed.userId, passwordHash);
    await users.markPasswordReset(transaction, claimed.userId);
    // Other outstanding links of this user stop working too: the password they were meant to replace is gone.
    await resetTokenRepository.useUpResetTokensOfUser(transaction, claimed.userId);
    await sessionRepository.deleteSessionsOfUser(transaction, claimed.userId);
    // Whoever signed in with the old password keeps no way past the queue of guesses either.
    await knownDevices.forgetDevicesOfUser(transaction, claimed.userId);
    return claimed.userId;
  });
  await notifySecurityChange(context, userId, 'password-reset', log);
}
