import {
  KYC_MISSING_TEXTS,
  KYC_TEXTS,
  LEVEL_TWO_CHECKS,
  PAN_MESSAGES,
  TAX_RESIDENCE_MESSAGES,
  kycGateMessage,
  kycLevelOf,
  maskPan,
  missingForLevelOne,
  panCardNeeded,
  panCheckState,
  type KycCheck,
  type KycCheckState,
  type KycLevel,
  type KycFacts,
  type KycMissingItem,
  type KycStatus,
  type MoneyLeaving,
  type PanConflict,
  type PanReview,
  type PanStatus,
  type TaxResidenceRequest,
  FREEZE_MESSAGES,
  KYC_REFRESH_MESSAGES,
  kycDueAt,
  kycRefreshOpen,
  refreshMonthsFor,
  type KycRefreshSettings,
} from '#shared/contracts/kyc';
import { inrPaiseToWire } from '#shared/money';
import { matchNames } from '#shared/name-match';
import type { AppContext } from '../../context.ts';
import type { Database, Executor } from '../../db/client.ts';
import { violatesConstraint } from '../../db/database-errors.ts';
import { AppError } from '../../errors.ts';
import { assertConsentAccepted } from '../consent/service.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { decodeCursor, toPageBy } from '../../platform/pagination/cursor.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { getSettings, type SettingsRow } from '../settings/service.ts';
import { verifyPanWithCashfree, type PanCheckResult } from './cashfree.ts';
import * as kycRepository from './repository.ts';
import type { KycRow } from './repository.ts';

/** Each submission may cost a provider call; more than this many a day is not a typo. */
export const PAN_SUBMISSIONS_PER_DAY = 5;
const PAN_UNIQUE_INDEX = 'profiles_pan_unique';

export type LevelLimitSettings = Pick<
  SettingsRow,
  'kycLevel1DailyLimitInrPaise' | 'kycLevel1MonthlyLimitInrPaise' | 'kycLevel2DailyLimitInrPaise' | 'kycLevel2MonthlyLimitInrPaise'
>;

export function factsOf(
  row: Pick<KycRow, 'emailVerifiedAt' | 'phoneVerifiedAt' | 'panStatus' | 'panRegisteredName' | 'panNameAccepted' | 'name' | 'taxResidenceDeclaredAt'> &
    Partial<Pick<KycRow, 'level2Status'>>,
): KycFacts {
  return {
    ...(row.level2Status === undefined ? {} : { levelTwoStatus: row.level2Status }),
    emailVerified: row.emailVerifiedAt !== null,
    mobileVerified: row.phoneVerifiedAt !== null,
    panStatus: row.panStatus,
    panRegisteredName: row.panRegisteredName,
    panNameAccepted: row.panNameAccepted,
    customerName: row.name,
    taxResidenceDeclared: row.taxResidenceDeclaredAt !== null,
  };
}

/** What the money gate reads of a customer: the level's facts, the freeze and what dates the KYC refresh. */
export type MoneyGateRow = Pick<
  KycRow,
  | 'emailVerifiedAt'
  | 'phoneVerifiedAt'
  | 'panStatus'
  | 'panRegisteredName'
  | 'panNameAccepted'
  | 'name'
  | 'taxResidenceDeclaredAt'
  | 'panCheckedAt'
  | 'frozenAt'
  | 'riskCategory'
>;

/** When the customer's KYC must be refreshed (decision 047); null below level 1. */
export function refreshDueAtOf(row: MoneyGateRow, settings: KycRefreshSettings): Date | null {
  if (kycLevelOf(factsOf(row)) === 0) return null;
  return kycDueAt(row, refreshMonthsFor(row.riskCategory, settings));
}

function isOverdue(dueAt: Date | null, now: Date): boolean {
  return dueAt !== null && dueAt.getTime() <= now.getTime();
}

export function accountFrozenError(): AppError {
  return new AppError(403, 'ACCOUNT_FROZEN', FREEZE_MESSAGES.customer);
}

/**
 * The money gate: nothing leaves a frozen account (decision 047), nor one below level 1 (decision 042),
 * nor one whose KYC is overdue for its refresh (decision 047). Deposits are still credited; they wait
 * in the balance.
 */
export function assertMoneyMayLeave(leaving: MoneyLeaving, row: MoneyGateRow, settings: KycRefreshSettings, now = new Date()): void {
  if (row.frozenAt !== null) throw accountFrozenError();
  const missing = missingForLevelOne(factsOf(row));
  if (missing.length > 0) throw new AppError(403, 'KYC_LEVEL_REQUIRED', kycGateMessage(leaving, missing));
  if (isOverdue(refreshDueAtOf(row, settings), now)) throw new AppError(403, 'KYC_REFRESH_REQUIRED', KYC_REFRESH_MESSAGES.overdue);
}

/** The gate for a transfer's sender, read in the transfer's transaction. */
export async function assertMayTransfer(db: Executor, userId: string): Promise<void> {
  const [row, settings] = [await kycRepository.findKyc(db, userId), await getSettings(db)];
  if (row === undefined) throw new Error(`user ${userId} has no profile`);
  assertMoneyMayLeave('transfers', row, settings);
}

/** Frozen customers cannot change where money goes (their bank accounts): read in the caller's transaction. */
export async function assertAccountNotFrozen(db: Executor, userId: string): Promise<void> {
  if (await kycRepository.isFrozen(db, userId)) throw accountFrozenError();
}

/**
 * An admin's approval that would pay out a frozen customer's money (a withdrawal still pending, a
 * transfer to another customer) is refused until the freeze is lifted; rejecting, which refunds, is not.
 */
export async function assertApprovalWhileNotFrozen(db: Executor, userId: string): Promise<void> {
  if (await kycRepository.isFrozen(db, userId)) throw AppError.conflict(FREEZE_MESSAGES.approvalRefused, 'ACCOUNT_FROZEN');
}

/** The level's INR limits (null: none): level 2's once an admin approved level 2 (decision 050), else level 1's. */
export function levelLimitsOf(settings: LevelLimitSettings & { level2Status: KycRow['level2Status'] }): {
  dailyInrPaise: bigint | null;
  monthlyInrPaise: bigint | null;
} {
  if (settings.level2Status === 'approved')
    return { dailyInrPaise: settings.kycLevel2DailyLimitInrPaise, monthlyInrPaise: settings.kycLevel2MonthlyLimitInrPaise };
  return { dailyInrPaise: settings.kycLevel1DailyLimitInrPaise, monthlyInrPaise: settings.kycLevel1MonthlyLimitInrPaise };
}

/**
 * The TDS rate of a withdrawal: the settings' rate, or the no-PAN rate (section 206AA) when the PAN is
 * known to be inoperative (not linked to Aadhaar), whichever is higher. No TDS while TDS is off.
 */
export function tdsBasisPointsFor(settings: Pick<SettingsRow, 'tdsBasisPoints' | 'tdsNoPanBasisPoints'>, panAadhaarLinked: boolean | null): number {
  if (settings.tdsBasisPoints === 0 || panAadhaarLinked !== false) return settings.tdsBasisPoints;
  return Math.max(settings.tdsBasisPoints, settings.tdsNoPanBasisPoints);
}

function checkMessage(check: KycCheck, state: KycStatus['checks']['email']['state']): string {
  if (state === 'verified') return check === 'taxResidence' ? 'Declared' : 'Verified';
  if (state === 'pending') return 'Waiting for the check';
  if (state === 'rejected') return 'Not accepted';
  if (state === 'not_available') return 'Not available yet';
  return `Missing: ${KYC_MISSING_TEXTS[check]}`;
}

export function kycStatusOf(row: KycRow, settings: LevelLimitSettings & KycRefreshSettings, now = new Date()): KycStatus {
  const facts = factsOf(row);
  const level = kycLevelOf(facts);
  const levelTwo = levelTwoChecksOf(row);
  const missingChecks: KycCheck[] =
    level === 0 ? missingForLevelOne(facts) : level === 1 ? LEVEL_TWO_CHECKS.filter((check) => levelTwo[check].state !== 'verified') : [];
  const simple = (check: KycCheck, passed: boolean) => {
    const state = passed ? ('verified' as const) : ('missing' as const);
    return { state, message: checkMessage(check, state) };
  };
  const panState = panCheckState(facts);
  const panRejection =
    row.panStatus === 'verified' && panState === 'rejected'
      ? 'Your name changed since the PAN was verified: it no longer matches the PAN.'
      : row.panRejectionReason;
  const limits = levelLimitsOf({ ...settings, level2Status: level === 2 ? 'approved' : 'none' });
  const dueAt = refreshDueAtOf(row, settings);
  const overdue = isOverdue(dueAt, now);
  return {
    level,
    nextLevel: level === 0 ? 1 : level === 1 ? 2 : null,
    nextLevelUnlocks: level === 0 ? KYC_TEXTS.unlocks[1] : level === 1 ? KYC_TEXTS.unlocks[2] : null,
    checks: {
      email: simple('email', facts.emailVerified),
      mobile: simple('mobile', facts.mobileVerified),
      pan: {
        state: panState,
        message: panState === 'rejected' && panRejection ? panRejection : checkMessage('pan', panState),
        pan: row.pan === null ? null : maskPan(row.pan),
        rejectionReason: panState === 'rejected' ? panRejection : null,
        aadhaarLinked: row.panAadhaarLinked,
        cardImage: panCardNeeded(row) ? 'needed' : row.panStatus === 'pending_review' && row.panCardImageId !== null ? 'received' : 'not_needed',
        cardRequestReason: row.panStatus === 'pending_review' ? row.panCardRequestReason : null,
      },
      taxResidence: {
        ...simple('taxResidence', facts.taxResidenceDeclared),
        residence: row.taxResidence,
        otherCountry: row.taxResidenceOtherCountry,
        declaredAt: row.taxResidenceDeclaredAt?.toISOString() ?? null,
      },
      secondDocument: levelTwo.secondDocument,
      selfie: levelTwo.selfie,
      address: levelTwo.address,
    },
    levelTwo: levelTwoStateOf(row),
    missing: missingItemsOf(row, missingChecks).map((check) => ({ check, message: KYC_MISSING_TEXTS[check] })),
    moneyBlockedMessage: moneyBlockedMessageOf(row, level, missingChecks, overdue),
    levelLimits: {
      dailyInr: level === 0 || limits.dailyInrPaise === null ? null : inrPaiseToWire(limits.dailyInrPaise),
      monthlyInr: level === 0 || limits.monthlyInrPaise === null ? null : inrPaiseToWire(limits.monthlyInrPaise),
    },
    accountFrozenMessage: row.frozenAt === null ? null : FREEZE_MESSAGES.customer,
    refresh: dueAt === null ? null : refreshOf(dueAt, overdue, kycRefreshOpen(dueAt, now)),
  };
}

/** The missing checks, with the PAN card's photo right after the PAN while a person waits for it to verify the PAN (decision 066). */
function missingItemsOf(row: KycRow, missingChecks: readonly KycCheck[]): KycMissingItem[] {
  if (!panCardNeeded(row)) return [...missingChecks];
  return missingChecks.flatMap((check): KycMissingItem[] => (check === 'pan' ? ['pan', 'panCard'] : [check]));
}

/** Level 2's three checks from its submission: sent together, decided together; an item asked for again is missing. */
export function levelTwoChecksOf(row: KycRow): Record<'secondDocument' | 'selfie' | 'address', { state: KycCheckState; message: string }> {
  const again = row.level2Status === 'resubmit_requested' ? row.levelTwoSubmission?.requestedAgain : undefined;
  const stateOf = (items: readonly string[]): KycCheckState => {
    if (again !== undefined && again !== null && items.includes(again)) return 'missing';
    // A case sent without the live selfie waits for it: it cannot be approved without one.
    if (items.includes('selfie') && row.levelTwoSubmission !== null && !row.levelTwoSubmission.hasSelfie && row.level2Status !== 'approved') return 'missing';
    switch (row.level2Status) {
      case 'none':
        return 'missing';
      case 'approved':
        return 'verified';
      case 'rejected':
        return 'rejected';
      case 'pending_review':
      case 'resubmit_requested':
        return 'pending';
    }
  };
  const entry = (check: KycCheck, items: readonly string[]) => {
    const state = stateOf(items);
    return { state, message: checkMessage(check, state) };
  };
  return {
    secondDocument: entry('secondDocument', ['document_front', 'document_back']),
    selfie: entry('selfie', ['selfie']),
    address: entry('address', ['address']),
  };
}

function levelTwoStateOf(row: KycRow): KycStatus['levelTwo'] {
  const submission = row.levelTwoSubmission;
  return {
    status: row.level2Status,
    documentType: submission?.documentType ?? null,
    submittedAt: submission === null ? null : new Date(submission.submittedAt).toISOString(),
    reason: row.level2Status === 'rejected' || row.level2Status === 'resubmit_requested' ? (submission?.reason ?? null) : null,
    requestedAgain: row.level2Status === 'resubmit_requested' ? (submission?.requestedAgain ?? null) : null,
  };
}

function refreshOf(dueAt: Date, overdue: boolean, open: boolean): NonNullable<KycStatus['refresh']> {
  const message = overdue ? KYC_REFRESH_MESSAGES.overdue : open ? KYC_REFRESH_MESSAGES.due : KYC_REFRESH_MESSAGES.notDue;
  return { dueAt: dueAt.toISOString(), overdue, open, message };
}

/** Why money cannot leave the account now, in the order the gate refuses: the freeze, the level, the overdue refresh. */
function moneyBlockedMessageOf(row: KycRow, level: KycLevel, missing: KycCheck[], overdue: boolean): string | null {
  if (row.frozenAt !== null) return FREEZE_MESSAGES.customer;
  if (level === 0) return `${kycGateMessage('withdrawals', missing)} ${KYC_TEXTS.levelZeroHolds}`;
  return overdue ? KYC_REFRESH_MESSAGES.overdue : null;
}

async function kycRowOf(db: Executor, userId: string): Promise<KycRow> {
  const row = await kycRepository.findKyc(db, userId);
  if (row === undefined) throw new Error(`user ${userId} has no profile`);
  return row;
}

export async function getKycStatus(db: Database, userId: string): Promise<KycStatus> {
  const [row, settings] = await Promise.all([kycRowOf(db, userId), getSettings(db)]);
  return kycStatusOf(row, settings);
}

function panTaken(): AppError {
  return new AppError(409, 'PAN_TAKEN', PAN_MESSAGES.taken, { fields: { pan: PAN_MESSAGES.taken } });
}

/** Records a refused second account's attempt for the admins (committed even though the submission is refused). */
async function recordConflict(db: Database, userId: string, pan: string, ipAddress: string): Promise<void> {
  await db.transaction(async (transaction) => {
    const existingUserId = (await kycRepository.findOtherHolderOfPan(transaction, userId, pan)) ?? null;
    await kycRepository.insertPanConflict(transaction, { pan, userId, existingUserId, ipAddress });
  });
}

/** What a provider's answer makes of the PAN: verified in the customer's name, for an admin to decide, or rejected. */
function checkValuesOf(result: Exclude<PanCheckResult, { outcome: 'unavailable' }>, customerName: string): kycRepository.PanCheckValues {
  const base = { checkedBy: 'cashfree' as const, reviewedByUserId: null, providerReference: result.reference };
  if (result.outcome === 'invalid') {
    return {
      ...base,
      status: 'rejected',
      registeredName: null,
      nameAccepted: null,
      providerNameScore: null,
      aadhaarLinked: null,
      rejectionReason: PAN_MESSAGES.rejectedInvalid,
    };
  }
  const verdict = matchNames(result.registeredName, customerName).verdict;
  const status: Exclude<PanStatus, 'none'> = verdict === 'match' ? 'verified' : verdict === 'partial' ? 'pending_review' : 'rejected';
  return {
    ...base,
    status,
    registeredName: result.registeredName,
    nameAccepted: status === 'verified' ? customerName : null,
    providerNameScore: result.providerNameScore,
    aadhaarLinked: result.aadhaarLinked,
    rejectionReason: status === 'rejected' ? PAN_MESSAGES.rejectedName : null,
  };
}

/**
 * The customer's PAN for KYC (and TDS): one PAN per account (a second account's submission is refused
 * and listed for the admins), saved as waiting for its check, then checked by the provider when one is
 * configured; without a provider an admin verifies it. A verified PAN is not replaced here.
 */
export async function submitPan(context: AppContext, session: SessionRecord, pan: string, ipAddress: string): Promise<{ message: string; kyc: KycStatus }> {
  const { db } = context.database;
  const userId = session.userId;
  await assertConsentAccepted(db, userId);
  const [current, settings] = [await kycRowOf(db, userId), await getSettings(db)];
  // From 14 days before the KYC refresh is due, the verified PAN is checked again when the customer submits it (decision 047).
  const refreshing = (row: KycRow) => row.panStatus === 'verified' && row.pan === pan && kycRefreshOpen(refreshDueAtOf(row, settings), new Date());
  if (!refreshing(current) && current.pan === pan && current.panStatus !== 'rejected' && current.panStatus !== 'none') {
    return { message: current.panStatus === 'verified' ? PAN_MESSAGES.verified : PAN_MESSAGES.pendingReview, kyc: kycStatusOf(current, settings) };
  }
  if (current.panStatus === 'verified' && !refreshing(current)) throw AppError.conflict(PAN_MESSAGES.verifiedAlready);
  if ((await kycRepository.findOtherHolderOfPan(db, userId, pan)) !== undefined) {
    await recordConflict(db, userId, pan, ipAddress);
    throw panTaken();
  }
  try {
    await db.transaction(async (transaction) => {
      const locked = await kycRepository.findKyc(transaction, userId, { forUpdate: true });
      if (locked === undefined) throw new Error(`user ${userId} has no profile`);
      if (locked.panStatus === 'verified' && !refreshing(locked)) throw AppError.conflict(PAN_MESSAGES.verifiedAlready);
      if ((await kycRepository.countPanSubmissionsSince(transaction, userId, 24)) >= PAN_SUBMISSIONS_PER_DAY) {
        throw new AppError(429, 'RATE_LIMITED', PAN_MESSAGES.tooManyAttempts);
      }
      await kycRepository.savePanForCheck(transaction, userId, pan);
      await recordAudit(transaction, {
        actorUserId: userId,
        action: 'kyc.pan_submit',
        targetType: 'user',
        targetId: userId,
        targetUserId: userId,
        before: { pan: locked.pan === null ? null : maskPan(locked.pan), status: locked.panStatus },
        after: { pan: maskPan(pan), status: 'pending_review' },
        ipAddress,
      });
    });
  } catch (error) {
    // Another account saved the same PAN between the read above and this write.
    if (violatesConstraint(error, PAN_UNIQUE_INDEX)) {
      await recordConflict(db, userId, pan, ipAddress);
      throw panTaken();
    }
    throw error;
  }
  const message = context.config.kyc === undefined ? PAN_MESSAGES.pendingReview : await checkWithProvider(context, userId, pan, current.name);
  return { message, kyc: await getKycStatus(db, userId) };
}

async function checkWithProvider(context: AppContext, userId: string, pan: string, customerName: string): Promise<string> {
  const { db } = context.database;
  const config = context.config.kyc;
  if (config === undefined) return PAN_MESSAGES.pendingReview;
  const result = await verifyPanWithCashfree(config, pan, customerName);
  if (result.outcome === 'unavailable') return PAN_MESSAGES.providerUnavailable;
  const values = checkValuesOf(result, customerName);
  await db.transaction(async (transaction) => {
    if (!(await kycRepository.recordPanCheck(transaction, userId, pan, values))) return;
    await recordAudit(transaction, {
      actorUserId: null,
      action: 'kyc.pan_check',
      targetType: 'user',
      targetId: userId,
      targetUserId: userId,
      after: {
        pan: maskPan(pan),
        status: values.status,
        providerNameScore: values.providerNameScore,
        nameMatch: values.registeredName === null ? null : matchNames(values.registeredName, customerName),
        aadhaarLinked: values.aadhaarLinked,
        reference: values.providerReference,
      },
    });
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'kyc.updated' });
  });
  if (values.status === 'verified') return PAN_MESSAGES.verified;
  if (values.status === 'pending_review') return PAN_MESSAGES.pendingReview;
  return values.rejectionReason ?? PAN_MESSAGES.rejectedInvalid;
}

/** The customer's self-declaration of tax residence, recorded with its time and IP address. */
export async function declareTaxResidence(
  db: Database,
  session: SessionRecord,
  input: Pick<TaxResidenceRequest, 'residence' | 'otherCountry'>,
  ipAddress: string,
): Promise<{ message: string; kyc: KycStatus }> {
  await assertConsentAccepted(db, session.userId);
  const otherCountry = input.residence === 'other' ? (input.otherCountry ?? null) : null;
  await db.transaction(async (transaction) => {
    await kycRepository.saveTaxResidence(transaction, session.userId, { residence: input.residence, otherCountry, ipAddress });
    await recordAudit(transaction, {
      actorUserId: session.userId,
      action: 'kyc.tax_residence',
      targetType: 'user',
      targetId: session.userId,
      targetUserId: session.userId,
      after: { residence: input.residence, otherCountry },
      ipAddress,
    });
    await publishEvent(transaction, { type: 'wallet.updated', userId: session.userId, reason: 'kyc.updated' });
  });
  return { message: TAX_RESIDENCE_MESSAGES.declared, kyc: await getKycStatus(db, session.userId) };
}

/* ---------- admin ---------- */

export function reviewOf(row: KycRow, otherAccountsWithPan: number): PanReview {
  if (row.pan === null) throw new Error(`review of user ${row.userId} without a PAN`);
  return {
    userId: row.userId,
    name: row.name,
    email: row.email,
    pan: row.pan,
    submittedAt: row.panSubmittedAt?.toISOString() ?? null,
    registeredName: row.panRegisteredName,
    providerNameScore: row.panProviderNameScore,
    nameMatch: row.panRegisteredName === null ? null : matchNames(row.panRegisteredName, row.name),
    aadhaarLinked: row.panAadhaarLinked,
    otherAccountsWithPan,
    riskCategory: row.riskCategory,
    cardImageId: row.panCardImageId,
    cardImageNeeded: panCardNeeded(row),
    cardRequestReason: row.panCardRequestReason,
  };
}

export async function listPanReviews(
  db: Database,
  query: { cursor?: string | undefined; limit: number },
): Promise<{ items: PanReview[]; nextCursor: string | null }> {
  const cursor = decodeCursor(query.cursor);
  const rows = await kycRepository.listPendingPanReviews(db, cursor, query.limit);
  const page = toPageBy(rows, query.limit, (row) => ({ createdAt: row.cursorCreatedAt, id: row.userId }));
  return { items: page.rows.map((row) => reviewOf(row, row.otherAccountsWithPan)), nextCursor: page.nextCursor };
}

export async function listPanConflicts(
  db: Database,
  query: { cursor?: string | undefined; limit: number },
): Promise<{ items: PanConflict[]; nextCursor: string | null }> {
  const cursor = decodeCursor(query.cursor, { idKind: 'bigint' });
  const rows = await kycRepository.listPanConflicts(db, cursor, query.limit);
  const page = toPageBy(rows, query.limit, (row) => ({ createdAt: row.cursorCreatedAt, id: row.id }));
  return {
    items: page.rows.map((row) => ({
      id: row.id,
      pan: row.pan,
      source: row.source,
      user: { id: row.userId, name: row.userName, email: row.userEmail },
      existingUser:
        row.existingUserId === null || row.existingName === null || row.existingEmail === null
          ? null
          : { id: row.existingUserId, name: row.existingName, email: row.existingEmail },
      createdAt: row.createdAt.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}
