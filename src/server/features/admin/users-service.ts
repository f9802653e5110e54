import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  OWN_ADMIN_ROLE_MESSAGE,
  OWN_VIP_LEVEL_MESSAGE,
  ROLE_GRANT_SINGLE_ADMIN_MESSAGE,
  userNotFoundMessage,
  type adminUsersQuerySchema,
  type AdminUserDetail,
  type AdminUserSummary,
  type AdminUserTransactions,
  type adminUserTransactionsQuerySchema,
  type UpdateAdminUserRequest,
} from '#shared/contracts/admin';
import { INVALID_PAGE_CURSOR_MESSAGE } from '#shared/contracts/common';
import type { Role } from '#shared/contracts/enums';
import { PENDING_CHANGE_MESSAGES, type PendingChange } from '#shared/contracts/pending-changes';
import { usdtMicrosToWire } from '#shared/money';
import type { AppContext } from '../../context.ts';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { decodeCursor, toPage } from '../../platform/pagination/cursor.ts';
import { findOpenChange, needsSecondAdmin, requestChange, type Actor, type ChangeHandler } from '../pending-changes/service.ts';
import type { PendingChangePayload } from '../pending-changes/kinds.ts';
import { listTransactions } from '../transactions/service.ts';
import { deleteSessionsOfUser } from '../../platform/sessions/repository.ts';
import { reopenAccount } from '../auth/account-closing.ts';
import * as usersRepository from './users-repository.ts';
import type { AdminUserRow } from './users-repository.ts';

export const USER_UPDATE_AUDIT_ACTION = 'user.update';
export const USER_SESSIONS_REVOKE_AUDIT_ACTION = 'user.sessions_revoke';

function summaryOf(row: AdminUserRow): AdminUserSummary {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    vipLevel: row.vipLevel,
    balanceUsdt: usdtMicrosToWire(row.balanceUsdtMicros),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listUsers(
  db: Database,
  query: z.output<typeof adminUsersQuerySchema>,
): Promise<{ items: AdminUserSummary[]; nextCursor: string | null }> {
  const cursor = decodeCursor(query.cursor, { invalidMessage: INVALID_PAGE_CURSOR_MESSAGE });
  const rows = await usersRepository.searchUsers(db, { query: query.q, cursor, limit: query.limit + 1 });
  const page = toPage(rows, query.limit);
  return { items: page.rows.map(summaryOf), nextCursor: page.nextCursor };
}

/** The user, or the spec's 'User with ID {id} was not found'. */
export async function requireUser(db: Executor, userId: string): Promise<usersRepository.AdminUserDetailRow> {
  const row = await usersRepository.findUser(db, userId);
  if (!row) throw AppError.notFound(userNotFoundMessage(userId));
  return row;
}

export async function getUserDetail(context: AppContext, db: Executor, userId: string): Promise<AdminUserDetail> {
  const row = await requireUser(db, userId);
  const [referrer, referralStats, activeSessionCount] = await Promise.all([
    row.referredByUserId ? usersRepository.findReferrer(db, row.referredByUserId) : undefined,
    usersRepository.loadReferralStats(db, userId),
    usersRepository.countLiveSessions(db, userId, context.sessionSettings),
  ]);
  return {
    ...summaryOf(row),
    referralCode: row.referralCode,
    referredBy: referrer ?? null,
    referralCount: Number(referralStats.referralCount),
    referralEarningsUsdt: usdtMicrosToWire(referralStats.earningsUsdtMicros),
    hasPin: row.hasPin,
    activeSessionCount: Number(activeSessionCount),
    updatedAt: row.updatedAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}

/** Reopens a closed account (decision 060); the spec's 404 for an unknown user, 409 for an open one. */
export async function reopenUser(context: AppContext, request: FastifyRequest, session: SessionRecord, userId: string, reason: string): Promise<void> {
  await requireUser(context.database.db, userId);
  await reopenAccount(context, request, session, userId, reason);
}

/** The user's own history, as the customer sees it, with who they are above it. */
export async function getUserTransactions(
  db: Database,
  userId: string,
  query: z.output<typeof adminUserTransactionsQuerySchema>,
): Promise<AdminUserTransactions> {
  const row = await requireUser(db, userId);
  const page = await listTransactions(db, { userId, type: query.type, cursor: query.cursor, limit: query.limit });
  const { id, name, email, phone, balanceUsdt } = summaryOf(row);
  return { user: { id, name, email, phone, balanceUsdt }, ...page };
}

/**
 * Sets a user's role and/or VIP level. The acting admin's own role is re-read
 * under lock, so an admin demoted a moment ago cannot still change roles, and
 * no admin can remove their own admin role: at least one admin always remains.
 */
export async function updateUser(
  context: AppContext,
  request: FastifyRequest,
  session: SessionRecord,
  userId: string,
  changes: UpdateAdminUserRequest,
): Promise<{ user: AdminUserDetail; pendingChange: PendingChange | null }> {
  const { db } = context.database;
  const pendingChange = await db.transaction(async (transaction) => {
    const locked = await usersRepository.lockProfiles(transaction, [...new Set([session.userId, userId])]);
    if (locked.get(session.userId)?.role !== 'admin') throw AppError.forbidden('Access denied');
    const current = locked.get(userId);
    if (!current) throw AppError.notFound(userNotFoundMessage(userId));
    if (userId === session.userId && changes.role !== undefined && changes.role !== 'admin') {
      throw new AppError(409, 'CONFLICT', OWN_ADMIN_ROLE_MESSAGE, { fields: { role: OWN_ADMIN_ROLE_MESSAGE } });
    }
    // The VIP rate pays more rupees per USDT: an admin does not set it for their own withdrawals.
    if (userId === session.userId && changes.vipLevel !== undefined && changes.vipLevel !== current.vipLevel) {
      throw new AppError(403, 'FORBIDDEN', OWN_VIP_LEVEL_MESSAGE, { fields: { vipLevel: OWN_VIP_LEVEL_MESSAGE } });
    }
    const actor = { userId: session.userId, ipAddress: request.ip };
    const grantsAdmin = changes.role === 'admin' && current.role !== 'admin';
    const removesAdmin = changes.role !== undefined && changes.role !== 'admin' && current.role === 'admin';
    // Taking the role away waits too while two admins exist: otherwise one admin could demote the other and then act alone.
    const removalWaits = removesAdmin && (await needsSecondAdmin(transaction));
    let pending: PendingChange | null = null;
    if (grantsAdmin) pending = await requestAdminRoleGrant(transaction, { userId, from: current.role }, actor);
    if (removalWaits) pending = await requestAdminRoleRemoval(transaction, { userId }, actor);
    const roleWaits = grantsAdmin || removalWaits;
    const wanted = { role: roleWaits ? current.role : (changes.role ?? current.role), vipLevel: changes.vipLevel ?? current.vipLevel };
    if (wanted.role === current.role && wanted.vipLevel === current.vipLevel) return pending;
    await usersRepository.updateRoleAndVipLevel(transaction, userId, wanted);
    await recordAudit(transaction, {
      actorUserId: session.userId,
      action: USER_UPDATE_AUDIT_ACTION,
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      before: current,
      after: wanted,
      ipAddress: request.ip,
    });
    return pending;
  });
  return { user: await getUserDetail(context, db, userId), pendingChange };
}

/**
 * The admin role is granted by two admins (issue 9): the first one's request waits as a pending
 * change for a second admin. With a single admin there is no second one, so only the server's
 * command (`npm run admin -- promote`) grants it; otherwise one admin could make an accomplice an
 * admin and approve their own requests through them.
 */
async function requestAdminRoleGrant(transaction: Executor, payload: PendingChangePayload<'admin_role_grant'>, actor: Actor): Promise<PendingChange> {
  if (!(await needsSecondAdmin(transaction))) {
    throw new AppError(409, 'CONFLICT', ROLE_GRANT_SINGLE_ADMIN_MESSAGE, { fields: { role: ROLE_GRANT_SINGLE_ADMIN_MESSAGE } });
  }
  if (await findOpenChange(transaction, 'admin_role_grant', payload.userId)) {
    throw new AppError(409, 'CHANGE_ALREADY_WAITING', PENDING_CHANGE_MESSAGES.roleGrantAlreadyWaiting, {
      fields: { role: PENDING_CHANGE_MESSAGES.roleGrantAlreadyWaiting },
    });
  }
  return requestChange(transaction, 'admin_role_grant', payload, actor);
}

async function requestAdminRoleRemoval(transaction: Executor, payload: PendingChangePayload<'admin_role_removal'>, actor: Actor): Promise<PendingChange> {
  if (await findOpenChange(transaction, 'admin_role_removal', payload.userId)) {
    throw new AppError(409, 'CHANGE_ALREADY_WAITING', PENDING_CHANGE_MESSAGES.roleRemovalAlreadyWaiting, {
      fields: { role: PENDING_CHANGE_MESSAGES.roleRemovalAlreadyWaiting },
    });
  }
  return requestChange(transaction, 'admin_role_removal', payload, actor);
}

/**
 * A second admin's confirm of a change of someone's role: their profile is locked, their role must
 * still be what it was when the change was asked for (else 409: stale), then it changes, audited.
 * Every request reads the role afresh, so a removal takes the admin area from their sessions at once.
 */
function roleChangeHandler<Kind extends 'admin_role_grant' | 'admin_role_removal'>(
  kind: Kind,
  role: Role,
  stillAsAsked: (current: Role, payload: PendingChangePayload<Kind>) => boolean,
  staleMessage: string,
): ChangeHandler<Kind> {
  return {
    kind,
    lockSubject: async (transaction, userId) => {
      await usersRepository.lockProfiles(transaction, [userId]);
    },
    apply: async (transaction, change, decider) => {
      const { payload } = change;
      const current = (await usersRepository.lockProfiles(transaction, [payload.userId])).get(payload.userId);
      if (!current || !stillAsAsked(current.role, payload)) throw AppError.conflict(staleMessage, 'STALE_CHANGE');
      const changed = { role, vipLevel: current.vipLevel };
      await usersRepository.updateRoleAndVipLevel(transaction, payload.userId, changed);
      await recordAudit(transaction, {
        actorUserId: decider.userId,
        action: USER_UPDATE_AUDIT_ACTION,
        targetType: 'user',
        targetId: payload.userId,
        targetUserId: payload.userId,
        before: current,
        after: changed,
        ipAddress: decider.ipAddress,
      });
    },
  };
}

/** A grant: the user must still have the role they had when it was asked for. */
export const adminRoleGrantHandler = roleChangeHandler(
  'admin_role_grant',
  'admin',
  (current, payload) => current === payload.from,
  PENDING_CHANGE_MESSAGES.staleRoleGrant,
);

/** A removal (the admin concerned may confirm it): the user must still be an admin. */
export const adminRoleRemovalHandler = roleChangeHandler(
  'admin_role_removal',
  'user',
  (current) => current === 'admin',
  PENDING_CHANGE_MESSAGES.staleRoleRemoval,
);

/** Ends every session of the user at once, e.g. after a lost phone; they must log in again. */
export async function revokeSessions(context: AppContext, request: FastifyRequest, session: SessionRecord, userId: string): Promise<number> {
  return context.database.db.transaction(async (transaction) => {
    await requireUser(transaction, userId);
    const ended = await deleteSessionsOfUser(transaction, userId);
    await recordAudit(transaction, {
      actorUserId: session.userId,
      action: USER_SESSIONS_REVOKE_AUDIT_ACTION,
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      before: { sessions: ended },
      after: { sessions: 0 },
      ipAddress: request.ip,
    });
    return ended;
  });
}
