import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_CLOSING_MESSAGES } from '#shared/contracts/account-closing';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import * as sessionRepository from '../../platform/sessions/repository.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { endSession } from '../../platform/sessions/service.ts';
import { accountClosedMessage, accountReopenedMessage } from '../notifications/account-mail.ts';
import { getSettings } from '../settings/service.ts';
import * as users from '../users/service.ts';
import { lockAccountForClosing, markClosed, reopenClosed } from './account-closing-repository.ts';
import { checkCurrentPassword } from './current-password.ts';
import * as knownDevices from './known-device-repository.ts';
import * as resetTokenRepository from './reset-token-repository.ts';

const refusal = (message: string) => AppError.conflict(message, 'ACCOUNT_NOT_CLOSABLE');

/**
 * Closes the signed-in customer's own account (issue 32, decision 060): the current password first (limited as
 * sign-in is), then, under the locks of the user's row and wallet, a balance of exactly zero with nothing on its way
 * in or out, no freeze and no admin role. Every session ends, the browsers are forgotten, reset links stop working
 * and the owner is told by e-mail. Nothing is deleted: the records are kept for the retention (decision 060).
 */
export async function closeAccount(
  context: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  session: SessionRecord,
  currentPassword: string,
): Promise<void> {
  await checkCurrentPassword(context, request.ip, session.userId, currentPassword);
  const closedNow = await context.database.db.transaction(async (transaction) => {
    const facts = await lockAccountForClosing(transaction, session.userId);
    // The session lookup found the user: a missing one would be a bug.
    if (facts === undefined) throw new Error('a signed-in user had no account to close');
    // A second close sent at once (a double tap) finds the first one's work done, and its e-mail sent.
    if (facts.closed) return false;
    if (facts.role === 'admin') throw refusal(ACCOUNT_CLOSING_MESSAGES.admin);
    if (facts.frozen) throw refusal(ACCOUNT_CLOSING_MESSAGES.frozen);
    if (facts.balanceUsdtMicros !== 0n) throw refusal(ACCOUNT_CLOSING_MESSAGES.balanceNotZero);
    if (facts.inProgress) throw refusal(ACCOUNT_CLOSING_MESSAGES.inProgress);
    await markClosed(transaction, session.userId);
    await sessionRepository.deleteSessionsOfUser(transaction, session.userId);
    await knownDevices.forgetDevicesOfUser(transaction, session.userId);
    await resetTokenRepository.useUpResetTokensOfUser(transaction, session.userId);
    await recordAudit(transaction, {
      actorUserId: session.userId,
      action: 'account.close',
      targetType: 'user',
      targetId: session.userId,
      targetUserId: session.userId,
      ipAddress: request.ip,
    });
    return true;
  });
  await endSession(context, request, reply);
  if (!closedNow) return;
  try {
    const { db } = context.database;
    const recipient = await users.findEmailAndLanguage(db, session.userId);
    const { recordRetentionYears } = await getSettings(db);
    if (recipient) await context.mailer.send(accountClosedMessage({ to: recipient.email, language: recipient.language }, recordRetentionYears));
  } catch (error) {
    // The account is closed whether or not the e-mail leaves; the failure is logged, as a security e-mail's is.
    request.log.error(
      { userId: session.userId, reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown' },
      'The account-closed e-mail could not be sent',
    );
  }
}

/**
 * An admin reopens a closed account (decision 060), for instance when money reached it after the close: its owner
 * can sign in again with the same password and withdraw it. Audited with the reason; the owner is told by e-mail.
 * One admin may do it: it moves no money, and every withdrawal after it passes the usual checks and approvals.
 */
export async function reopenAccount(context: AppContext, request: FastifyRequest, session: SessionRecord, userId: string, reason: string): Promise<void> {
  const owner = await context.database.db.transaction(async (transaction) => {
    const reopened = await reopenClosed(transaction, userId);
    if (reopened === undefined) throw AppError.conflict(ACCOUNT_CLOSING_MESSAGES.notClosed, 'ACCOUNT_NOT_CLOSED');
    await recordAudit(transaction, {
      actorUserId: session.userId,
      action: 'account.reopen',
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      ipAddress: request.ip,
      after: { reason },
    });
    return reopened;
  });
  try {
    await context.mailer.send(accountReopenedMessage({ to: owner.email, language: owner.language }));
  } catch (error) {
    request.log.error({ userId, reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown' }, 'The account-reopened e-mail could not be sent');
  }
}
