import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import {
  CODE_EXPIRED_MESSAGE,
  codeSentMessage,
  CONTACT_LIMITS,
  type ContactStatus,
  dailyLimitMessage,
  EMAIL_ALREADY_VERIFIED_MESSAGE,
  EMAIL_CHANGE_SENT_MESSAGE,
  EMAIL_CHANGED_MESSAGE,
  EMAIL_TAKEN_MESSAGE,
  EMAIL_VERIFIED_MESSAGE,
  maskedPhoneNumber,
  PHONE_ALREADY_VERIFIED_MESSAGE,
  PHONE_VERIFIED_MESSAGE,
  SAME_EMAIL_MESSAGE,
  SMS_NOT_SENT_MESSAGE,
  VERIFICATION_LINK_EXPIRED_MESSAGE,
  VERIFICATION_LINK_INVALID_MESSAGE,
  VERIFICATION_LINK_SENT_MESSAGE,
  VERIFICATION_LINK_USED_MESSAGE,
  waitBeforeResendMessage,
  wrongCodeMessage,
} from '#shared/contracts/contact-verification';
import type { Language } from '#shared/contracts/enums';
import type { SignupGeolocation } from '#shared/contracts/signup-trail';
import { PRODUCT_NAME } from '#shared/limits';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { AppError, RetryLaterError } from '../../errors.ts';
import { hashToken, looksLikeToken, newToken } from '../../http/security.ts';
import type { MailMessage } from '../../platform/mail/mailer.ts';
import { consumeRateLimit } from '../../platform/rate-limit/service.ts';
import { checkCurrentPassword } from '../auth/current-password.ts';
import { changeLinkMessage, emailChangeNoticeMessage, verificationLinkMessage } from './mail.ts';
import * as repository from './repository.ts';
import { sendSms } from './sms-sender.ts';

/**
 * The contact checks of issue 32 (decision 041): the e-mail verification link, the change of e-mail,
 * the mobile one-time code, and the sign-up trail. Each send is counted from the stored links and codes
 * themselves (not the unlogged rate-limit counters), under a lock of the account, so the daily limits
 * hold across restarts and concurrent requests.
 */

function verificationPageLink(context: AppContext, token: string): string {
  return `${context.config.appOrigin}/verify-email?token=${encodeURIComponent(token)}`;
}

const SECONDS_PER_DAY = 24 * 60 * 60;

/** Refuses a send that comes too soon after the last one, or past the day's limit, with a 429 that says which and when to retry. */
function refuseEarlyOrExcessSend(history: repository.SendHistory, pauseSeconds: number, perDay: number, what: 'e-mail' | 'code'): void {
  if (history.secondsSinceLast !== undefined && history.secondsSinceLast < pauseSeconds) {
    const wait = Math.max(1, Math.ceil(pauseSeconds - history.secondsSinceLast));
    throw new RetryLaterError(429, 'RATE_LIMITED', waitBeforeResendMessage(wait, what), wait);
  }
  if (history.sentToday >= perDay) {
    throw new RetryLaterError(429, 'RATE_LIMITED', dailyLimitMessage(perDay, what === 'e-mail' ? 'e-mails' : 'codes', 'account'), SECONDS_PER_DAY);
  }
}

async function newEmailLink(db: Executor, context: AppContext, userId: string, email: string, purpose: 'verify' | 'change'): Promise<string> {
  const token = newToken();
  await repository.insertEmailToken(db, { userId, tokenHash: hashToken(token), email, purpose, lifetimeHours: CONTACT_LIMITS.emailLinkLifetimeHours });
  return verificationPageLink(context, token);
}

/**
 * Inside the sign-up's transaction: records where and when the account was opened and draws its first
 * verification link. Answers the e-mail to send once the account is committed.
 */
export async function recordSignUp(
  db: Executor,
  context: AppContext,
  request: FastifyRequest,
  account: { userId: string; email: string; language: Language; geolocation: SignupGeolocation | undefined },
): Promise<MailMessage> {
  const { geolocation } = account;
  const userAgent = request.headers['user-agent'];
  await repository.insertSignupTrail(db, {
    userId: account.userId,
    ipAddress: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, CONTACT_LIMITS.userAgentLength) : null,
    geolocationStatus: geolocation?.status ?? 'not_asked',
    latitude: geolocation?.status === 'granted' ? geolocation.latitude : null,
    longitude: geolocation?.status === 'granted' ? geolocation.longitude : null,
    accuracyMeters: geolocation?.status === 'granted' ? geolocation.accuracyMeters : null,
  });
  return verificationLinkMessage(account.email, account.language, await newEmailLink(db, context, account.userId, account.email, 'verify'));
}

export async function contactStatus(context: AppContext, userId: string): Promise<ContactStatus> {
  const row = await repository.readContact(context.database.db, userId);
  if (!row) throw new Error(`session refers to a missing user ${userId}`);
  return {
    email: row.email,
    emailVerifiedAt: row.emailVerifiedAt?.toISOString() ?? null,
    pendingEmail: row.pendingEmail,
    phone: maskedPhoneNumber(row.phone),
    phoneVerifiedAt: row.phoneVerifiedAt?.toISOString() ?? null,
    codeOpen: row.codeOpen,
  };
}

async function lockedContact(db: Executor, userId: string): Promise<repository.LockedContact> {
  const contact = await repository.lockContact(db, userId);
  if (!contact) throw new Error(`session refers to a missing user ${userId}`);
  return contact;
}

/** E-mails a new verification link to the account's address, within the limits. */
export async function resendEmailLink(context: AppContext, userId: string): Promise<string> {
  const message = await context.database.db.transaction(async (transaction) => {
    const contact = await lockedContact(transaction, userId);
    if (contact.emailVerifiedAt) throw AppError.conflict(EMAIL_ALREADY_VERIFIED_MESSAGE);
    const history = await repository.emailLinkHistory(transaction, userId);
    refuseEarlyOrExcessSend(history, CONTACT_LIMITS.emailLinkPauseSeconds, CONTACT_LIMITS.emailLinksPerAccountPerDay, 'e-mail');
    return verificationLinkMessage(contact.email, contact.language, await newEmailLink(transaction, context, userId, contact.email, 'verify'));
  });
  await context.mailer.send(message);
  return VERIFICATION_LINK_SENT_MESSAGE;
}

/**
 * Starts a change of e-mail: the current password is needed (wrong ones counted with the password
 * change's, per account and per address), the link goes to the new address, and nothing changes until it
 * is opened. The current address is told at once.
 */
export async function requestEmailChange(
  context: AppContext,
  request: FastifyRequest,
  userId: string,
  input: { currentPassword: string; newEmail: string },
): Promise<string> {
  const { db } = context.database;
  await checkCurrentPassword(context, request.ip, userId, input.currentPassword);
  const { link, currentEmail, language } = await db.transaction(async (transaction) => {
    const contact = await lockedContact(transaction, userId);
    if (contact.email.toLowerCase() === input.newEmail.toLowerCase()) throw AppError.fieldError('newEmail', SAME_EMAIL_MESSAGE);
    if (await repository.emailInUse(transaction, input.newEmail)) {
      throw new AppError(409, 'EMAIL_TAKEN', EMAIL_TAKEN_MESSAGE, { fields: { newEmail: EMAIL_TAKEN_MESSAGE } });
    }
    const history = await repository.emailLinkHistory(transaction, userId);
    refuseEarlyOrExcessSend(history, CONTACT_LIMITS.emailLinkPauseSeconds, CONTACT_LIMITS.emailLinksPerAccountPerDay, 'e-mail');
    const link = await newEmailLink(transaction, context, userId, input.newEmail, 'change');
    return { link, currentEmail: contact.email, language: contact.language };
  });
  await context.mailer.send(changeLinkMessage(input.newEmail, language, link));
  await context.mailer.send(
    emailChangeNoticeMessage({ to: currentEmail, language, newEmail: input.newEmail, stage: 'asked', appOrigin: context.config.appOrigin }),
  );
  return EMAIL_CHANGE_SENT_MESSAGE;
}

const invalidLink = () => new AppError(400, 'VERIFICATION_LINK_INVALID', VERIFICATION_LINK_INVALID_MESSAGE);

function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof Error && 'cause' in error ? error.cause : undefined;
  return [error, cause].some((candidate) => typeof candidate === 'object' && candidate !== null && 'code' in candidate && candidate.code === '23505');
}

/**
 * Opens a verification link once: a `verify` link marks the account's address verified (while it is still
 * the account's address); a `change` link replaces the address with the verified new one, uses up every
 * other link of the account and tells the old address.
 */
export async function verifyEmailLink(context: AppContext, request: FastifyRequest, token: string): Promise<{ message: string; email: string }> {
  const { db } = context.database;
  await consumeRateLimit(db, `email-verify:ip:${request.ip}`, context.rateLimits.resetRequestsPerAddress, context.rateLimits.windowSeconds);
  if (!looksLikeToken(token)) throw invalidLink();
  let outcome: { email: string; previousEmail: string | undefined; language: Language };
  try {
    outcome = await db.transaction(async (transaction) => {
      const link = await repository.lockEmailToken(transaction, hashToken(token));
      if (!link) throw invalidLink();
      if (link.used) throw new AppError(409, 'VERIFICATION_LINK_USED', VERIFICATION_LINK_USED_MESSAGE);
      if (link.expired) throw new AppError(410, 'VERIFICATION_LINK_EXPIRED', VERIFICATION_LINK_EXPIRED_MESSAGE);
      const contact = await lockedContact(transaction, link.userId);
      if (link.purpose === 'verify') {
        // A link drawn for an address the account no longer has proves nothing about the current one.
        if (contact.email.toLowerCase() !== link.email.toLowerCase() || !(await repository.markEmailVerified(transaction, link.userId, link.email)))
          throw invalidLink();
        await repository.useUpEmailTokens(transaction, link.userId, 'verify');
        return { email: contact.email, previousEmail: undefined, language: contact.language };
      }
      if (await repository.emailInUse(transaction, link.email)) throw new AppError(409, 'EMAIL_TAKEN', EMAIL_TAKEN_MESSAGE);
      const previousEmail = await repository.replaceEmail(transaction, link.userId, link.email);
      await repository.useUpEmailTokens(transaction, link.userId, undefined);
      return { email: link.email, previousEmail, language: contact.language };
    });
  } catch (error) {
    // Two accounts confirming the same new address at once: the unique index decides, the loser is told plainly.
    if (isUniqueViolation(error)) throw new AppError(409, 'EMAIL_TAKEN', EMAIL_TAKEN_MESSAGE);
    throw error;
  }
  if (outcome.previousEmail === undefined) return { message: EMAIL_VERIFIED_MESSAGE, email: outcome.email };
  await context.mailer.send(
    emailChangeNoticeMessage({
      to: outcome.previousEmail,
      language: outcome.language,
      newEmail: outcome.email,
      stage: 'done',
      appOrigin: context.config.appOrigin,
    }),
  );
  return { message: EMAIL_CHANGED_MESSAGE, email: outcome.email };
}

function codeHash(salt: Buffer, code: string): Buffer {
  return createHash('sha256').update(salt).update(code).digest();
}

/**
 * Texts a new 6-digit code to the account's number, within the limits per account and per number. Only
 * the newest code works; it is stored as a salted SHA-256 and never logged.
 */
export async function sendPhoneCode(context: AppContext, request: FastifyRequest, userId: string, log: FastifyBaseLogger): Promise<string> {
  const { db } = context.database;
  await consumeRateLimit(db, `sms:ip:${request.ip}`, context.rateLimits.resetRequestsPerAddress, context.rateLimits.windowSeconds);
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  const phone = await db.transaction(async (transaction) => {
    const contact = await lockedContact(transaction, userId);
    if (contact.phoneVerifiedAt) throw AppError.conflict(PHONE_ALREADY_VERIFIED_MESSAGE);
    await repository.lockNumber(transaction, contact.phone);
    const history = await repository.codeHistory(transaction, userId, contact.phone);
    refuseEarlyOrExcessSend(history, CONTACT_LIMITS.codePauseSeconds, CONTACT_LIMITS.codesPerAccountPerDay, 'code');
    if (history.sentToNumberToday >= CONTACT_LIMITS.codesPerNumberPerDay) {
      throw new RetryLaterError(429, 'RATE_LIMITED', dailyLimitMessage(CONTACT_LIMITS.codesPerNumberPerDay, 'codes', 'number'), SECONDS_PER_DAY);
    }
    await repository.closeOpenCodes(transaction, userId);
    const codeSalt = randomBytes(16);
    await repository.insertCode(transaction, {
      userId,
      phone: contact.phone,
      codeSalt,
      codeHash: codeHash(codeSalt, code),
      lifetimeMinutes: CONTACT_LIMITS.codeLifetimeMinutes,
    });
    return contact.phone;
  });
  const sent = await sendSms(
    db,
    context.config.sms,
    {
      to: phone,
      text: `${code} is your ${PRODUCT_NAME} verification code. It works for ${CONTACT_LIMITS.codeLifetimeMinutes} minutes. Never share it with anyone.`,
      variables: { otp: code },
    },
    log,
  );
  if (!sent) {
    // The code that never arrived is closed; the send still counts against the limits, so a failing provider is not hammered.
    await repository.closeOpenCodes(db, userId);
    throw new AppError(502, 'SMS_NOT_SENT', SMS_NOT_SENT_MESSAGE);
  }
  return codeSentMessage(maskedPhoneNumber(phone));
}

type CodeOutcome = { kind: 'verified' } | { kind: 'dead' } | { kind: 'wrong'; attemptsLeft: number };

/** Checks an entered code against the account's newest open code: the fifth wrong entry closes it. */
export async function verifyPhoneCode(context: AppContext, request: FastifyRequest, userId: string, code: string): Promise<string> {
  const { db } = context.database;
  await consumeRateLimit(db, `code-verify:ip:${request.ip}`, context.rateLimits.pinPerAddress, context.rateLimits.windowSeconds);
  // The outcome is decided and written in the transaction and refused after it, so a wrong entry's count is committed.
  const outcome = await db.transaction(async (transaction): Promise<CodeOutcome> => {
    const contact = await lockedContact(transaction, userId);
    if (contact.phoneVerifiedAt) throw AppError.conflict(PHONE_ALREADY_VERIFIED_MESSAGE);
    const open = await repository.lockNewestOpenCode(transaction, userId);
    if (!open) return { kind: 'dead' };
    if (open.expired || open.phone !== contact.phone) {
      await repository.closeCode(transaction, open.id);
      return { kind: 'dead' };
    }
    if (!timingSafeEqual(codeHash(open.codeSalt, code), open.codeHash)) {
      const failures = await repository.recordWrongCode(transaction, open.id, CONTACT_LIMITS.codeAttempts);
      return { kind: 'wrong', attemptsLeft: Math.max(0, CONTACT_LIMITS.codeAttempts - failures) };
    }
    await repository.closeCode(transaction, open.id);
    if (!(await repository.markPhoneVerified(transaction, userId, open.phone))) return { kind: 'dead' };
    return { kind: 'verified' };
  });
  if (outcome.kind === 'dead') throw new AppError(400, 'CODE_EXPIRED', CODE_EXPIRED_MESSAGE, { fields: { code: CODE_EXPIRED_MESSAGE } });
  if (outcome.kind === 'wrong') {
    const message = wrongCodeMessage(outcome.attemptsLeft);
    throw new AppError(400, 'CODE_INCORRECT', message, { fields: { code: message }, remainingAttempts: outcome.attemptsLeft });
  }
  return PHONE_VERIFIED_MESSAGE;
}
