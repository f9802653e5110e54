import {
  FREEZE_MESSAGES,
  KYC_CHECKS,
  kycLevelOf,
  PAN_MESSAGES,
  panCheckState,
  RISK_MESSAGES,
  type AdminKycRecord,
  type KycCheck,
  type KycCheckState,
  type RiskCategory,
} from '#shared/contracts/kyc';
import { matchNames } from '#shared/name-match';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { createNotifications } from '../../platform/notifications/service.ts';
import { accountFrozen, accountReviewFinished } from '../notifications/templates.ts';
import { findOpenChange, needsSecondAdmin, requestChange, type Actor, type ChangeHandler } from '../pending-changes/service.ts';
import { getSettings } from '../settings/service.ts';
import * as kycRepository from './repository.ts';
import type { KycRow } from './repository.ts';
import { factsOf, levelTwoChecksOf, refreshDueAtOf } from './service.ts';

/*
 * What an admin does to a customer's account beyond the PAN review (decision 047): freeze it (nothing
 * leaves it; deposits still credit) and lift the freeze (with two admins, a second one confirms), set
 * the risk category that dates the KYC refresh, and read the customer's KYC on the user page.
 */

function checkOf(row: KycRow, check: KycCheck): { check: KycCheck; state: KycCheckState; at: string | null } {
  const facts = factsOf(row);
  const passed = (value: Date | null) => ({ state: value === null ? ('missing' as const) : ('verified' as const), at: value?.toISOString() ?? null });
  switch (check) {
    case 'email':
      return { check, ...passed(row.emailVerifiedAt) };
    case 'mobile':
      return { check, ...passed(row.phoneVerifiedAt) };
    case 'taxResidence':
      return { check, ...passed(row.taxResidenceDeclaredAt) };
    case 'pan':
      return { check, state: panCheckState(facts), at: (row.panCheckedAt ?? row.panSubmittedAt)?.toISOString() ?? null };
    case 'secondDocument':
    case 'selfie':
    case 'address':
      return {
        check,
        state: levelTwoChecksOf(row)[check].state,
        at: row.levelTwoSubmission === null ? null : new Date(row.levelTwoSubmission.submittedAt).toISOString(),
      };
  }
}

async function recordOf(db: Executor, userId: string): Promise<AdminKycRecord> {
  const row = await kycRepository.findKyc(db, userId);
  if (row === undefined) throw AppError.notFound(PAN_MESSAGES.userNotFound);
  const settings = await getSettings(db);
  const dueAt = refreshDueAtOf(row, settings);
  const unfreeze = await findOpenChange(db, 'account_unfreeze', userId);
  return {
    userId,
    level: kycLevelOf(factsOf(row)),
    checks: KYC_CHECKS.map((check) => checkOf(row, check)),
    pan: {
      pan: row.pan,
      status: row.panStatus,
      registeredName: row.panRegisteredName,
      nameMatch: row.panRegisteredName === null ? null : matchNames(row.panRegisteredName, row.name),
      providerNameScore: row.panProviderNameScore,
      aadhaarLinked: row.panAadhaarLinked,
      checkedBy: row.panCheckedBy,
      submittedAt: row.panSubmittedAt?.toISOString() ?? null,
      checkedAt: row.panCheckedAt?.toISOString() ?? null,
      rejectionReason: row.panRejectionReason,
    },
    freeze: row.frozenAt === null ? null : { frozenAt: row.frozenAt.toISOString(), reason: row.frozenReason ?? '', frozenBy: row.frozenByName },
    unfreezePendingChangeId: unfreeze?.id ?? null,
    riskCategory: row.riskCategory,
    kycDueAt: dueAt?.toISOString() ?? null,
    kycOverdue: dueAt !== null && dueAt.getTime() <= Date.now(),
  };
}

/** GET /api/admin/kyc/customers/:id: the customer's KYC as the user page shows it. */
export async function getAdminKycRecord(db: Database, userId: string): Promise<AdminKycRecord> {
  return recordOf(db, userId);
}

/** Locks the customer's profile for an account control, refusing the admin's own account and an unknown user. */
async function lockedCustomer(db: Executor, actor: Actor, userId: string): Promise<KycRow> {
  if (actor.userId === userId) throw AppError.forbidden(FREEZE_MESSAGES.ownAccount);
  const row = await kycRepository.findKyc(db, userId, { forUpdate: true });
  if (row === undefined) throw AppError.notFound(PAN_MESSAGES.userNotFound);
  return row;
}

/**
 * Freezes the account at once, whatever the number of admins: a freeze only stops money leaving, and
 * waiting for a second admin while it leaves would defeat it (decision 047).
 */
export async function freezeAccount(db: Database, actor: Actor, userId: string, reason: string): Promise<{ message: string; kyc: AdminKycRecord }> {
  return db.transaction(async (transaction) => {
    await lockedCustomer(transaction, actor, userId);
    if (!(await kycRepository.freezeAccount(transaction, userId, { reason, adminUserId: actor.userId })))
      throw AppError.conflict(FREEZE_MESSAGES.alreadyFrozen);
    await recordAudit(transaction, {
      actorUserId: actor.userId,
      action: 'kyc.freeze',
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      before: { frozen: false },
      after: { frozen: true, reason },
      ipAddress: actor.ipAddress,
    });
    await createNotifications(transaction, [accountFrozen(userId)]);
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'kyc.updated' });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
    return { message: FREEZE_MESSAGES.frozen, kyc: await recordOf(transaction, userId) };
  });
}

async function liftFreeze(transaction: Executor, change: { userId: string; reason: string; frozenAt: string }, actor: Actor): Promise<void> {
  const row = await kycRepository.findKyc(transaction, change.userId, { forUpdate: true });
  // The freeze asked about must still be the one in force: a freeze lifted and made again meanwhile is another one.
  if (row?.frozenAt?.toISOString() !== change.frozenAt) throw AppError.conflict(FREEZE_MESSAGES.notFrozen, 'STALE_CHANGE');
  await kycRepository.unfreezeAccount(transaction, change.userId);
  await recordAudit(transaction, {
    actorUserId: actor.userId,
    action: 'kyc.unfreeze',
    targetType: 'user',
    targetId: change.userId,
    targetUserId: change.userId,
    before: { frozen: true, reason: row.frozenReason },
    after: { frozen: false, reason: change.reason },
    ipAddress: actor.ipAddress,
  });
  await createNotifications(transaction, [accountReviewFinished(change.userId)]);
  await publishEvent(transaction, { type: 'wallet.updated', userId: change.userId, reason: 'kyc.updated' });
  await publishEvent(transaction, { type: 'admin.queue.updated' });
}

/** A second admin's confirm of an unfreeze (decision 033's kinds): the same freeze must still be in force. */
export const accountUnfreezeHandler: ChangeHandler<'account_unfreeze'> = {
  kind: 'account_unfreeze',
  lockSubject: async (transaction, userId) => {
    await kycRepository.findKyc(transaction, userId, { forUpdate: true });
  },
  apply: async (transaction, change, decider) => liftFreeze(transaction, change.payload, decider),
};

/**
 * Lifts a freeze with a reason: at once while a single admin exists, else as a change a second admin
 * confirms (202 with the change's id), since lifting it lets money leave again.
 */
export async function unfreezeAccount(
  db: Database,
  actor: Actor,
  userId: string,
  reason: string,
): Promise<{ statusCode: 200 | 202; body: { message: string; kyc: AdminKycRecord; pendingChangeId: string | null } }> {
  return db.transaction(async (transaction) => {
    const row = await lockedCustomer(transaction, actor, userId);
    if (row.frozenAt === null) throw AppError.conflict(FREEZE_MESSAGES.notFrozen);
    const change = { userId, reason, frozenAt: row.frozenAt.toISOString(), frozenReason: row.frozenReason ?? '' };
    if (await needsSecondAdmin(transaction)) {
      if (await findOpenChange(transaction, 'account_unfreeze', userId))
        throw AppError.conflict(FREEZE_MESSAGES.unfreezeAlreadyWaiting, 'CHANGE_ALREADY_WAITING');
      const pending = await requestChange(transaction, 'account_unfreeze', change, actor);
      return { statusCode: 202, body: { message: FREEZE_MESSAGES.unfreezeWaiting, kyc: await recordOf(transaction, userId), pendingChangeId: pending.id } };
    }
    await liftFreeze(transaction, change, actor);
    return { statusCode: 200, body: { message: FREEZE_MESSAGES.unfrozen, kyc: await recordOf(transaction, userId), pendingChangeId: null } };
  });
}

/** Sets the customer's risk category, which dates their next KYC refresh; audited. */
export async function setRiskCategory(
  db: Database,
  actor: Actor,
  userId: string,
  riskCategory: RiskCategory,
): Promise<{ message: string; kyc: AdminKycRecord }> {
  return db.transaction(async (transaction) => {
    const row = await lockedCustomer(transaction, actor, userId);
    await kycRepository.setRiskCategory(transaction, userId, { riskCategory, adminUserId: actor.userId });
    await recordAudit(transaction, {
      actorUserId: actor.userId,
      action: 'kyc.risk_set',
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      before: { riskCategory: row.riskCategory },
      after: { riskCategory },
      ipAddress: actor.ipAddress,
    });
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'kyc.updated' });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
    return { message: RISK_MESSAGES.saved, kyc: await recordOf(transaction, userId) };
  });
}
