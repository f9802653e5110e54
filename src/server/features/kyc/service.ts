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
  panCheckState,
  type KycCheck,
  type KycFacts,
  type KycStatus,
  type MoneyLeaving,
  type PanConflict,
  type PanReview,
  type PanStatus,
  type TaxResidenceRequest,
} from '#shared/contracts/kyc';
import { inrPaiseToWire } from '#shared/money';
import { matchNames } from '#shared/name-match';
import type { AppContext } from '../../context.ts';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { createNotifications } from '../../platform/notifications/service.ts';
import { decodeCursor, toPageBy } from '../../platform/pagination/cursor.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { getSettings, type SettingsRow } from '../settings/service.ts';
import { verifyPanWithCashfree, type PanCheckResult } from './cashfree.ts';
import * as kycRepository from './repository.ts';
import type { KycRow } from './repository.ts';

/** Each submission may cost a provider call; more than this many a day is not a typo. */
export const PAN_SUBMISSIONS_PER_DAY = 5;
const PAN_UNIQUE_INDEX = 'profiles_pan_unique';

export type LevelLimitSettings = Pick<SettingsRow, 'kycLevel1DailyLimitInrPaise' | 'kycLevel1MonthlyLimitInrPaise'>;

export function factsOf(row: Pick<KycRow, 'emailVerifiedAt' | 'phoneVerifiedAt' | 'panStatus' | 'panRegisteredName' | 'panNameAccepted' | 'name' | 'taxResidenceDeclaredAt'>): KycFacts {
  return {
    emailVerified: row.emailVerifiedAt !== null,
    mobileVerified: row.phoneVerifiedAt !== null,
    panStatus: row.panStatus,
    panRegisteredName: row.panRegisteredName,
    panNameAccepted: row.panNameAccepted,
    customerName: row.name,
    taxResidenceDeclared: row.taxResidenceDeclaredAt !== null,
  };
}

/**
 * The money gate: below level 1 no money leaves the account (withdrawals, transfers to other customers).
 * Deposits are still credited; they wait in the balance until level 1.
 */
export function assertMoneyMayLeave(leaving: MoneyLeaving, facts: KycFacts): void {
  const missing = missingForLevelOne(facts);
  if (missing.length > 0) throw new AppError(403, 'KYC_LEVEL_REQUIRED', kycGateMessage(leaving, missing));
}

/** The gate for a transfer's sender, read in the transfer's transaction. */
export async function assertMayTransfer(db: Executor, userId: string): Promise<void> {
  const row = await kycRepository.findKyc(db, userId);
  if (row === undefined) throw new Error(`user ${userId} has no profile`);
  assertMoneyMayLeave('transfers', factsOf(row));
}

/** The level's INR limits (null: none); level 2 is not reachable yet, so level 1's are the ones that apply. */
export function levelLimitsOf(settings: LevelLimitSettings): { dailyInrPaise: bigint | null; monthlyInrPaise: bigint | null } {
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

export function kycStatusOf(row: KycRow, settings: LevelLimitSettings): KycStatus {
  const facts = factsOf(row);
  const level = kycLevelOf(facts);
  const missingChecks: KycCheck[] = level === 0 ? missingForLevelOne(facts) : [...LEVEL_TWO_CHECKS];
  const simple = (check: KycCheck, passed: boolean) => {
    const state = passed ? ('verified' as const) : ('missing' as const);
    return { state, message: checkMessage(check, state) };
  };
  const panState = panCheckState(facts);
  const panRejection =
    row.panStatus === 'verified' && panState === 'rejected' ? 'Your name changed since the PAN was verified: it no longer matches the PAN.' : row.panRejectionReason;
  const limits = levelLimitsOf(settings);
  const notAvailable = { state: 'not_available' as const, message: checkMessage('selfie', 'not_available') };
  return {
    level,
    nextLevel: level === 0 ? 1 : 2,
    nextLevelUnlocks: level === 0 ? KYC_TEXTS.unlocks[1] : KYC_TEXTS.unlocks[2],
    checks: {
      email: simple('email', facts.emailVerified),
      mobile: simple('mobile', facts.mobileVerified),
      pan: {
        state: panState,
        message: panState === 'rejected' && panRejection ? panRejection : checkMessage('pan', panState),
        pan: row.pan === null ? null : maskPan(row.pan),
        rejectionReason: panState === 'rejected' ? panRejection : null,
        aadhaarLinked: row.panAadhaarLinked,
      },
      taxResidence: {
        ...simple('taxResidence', facts.taxResidenceDeclared),
        residence: row.taxResidence,
        otherCountry: row.taxResidenceOtherCountry,
        declaredAt: row.taxResidenceDeclaredAt?.toISOString() ?? null,
      },
      secondDocument: notAvailable,
      selfie: notAvailable,
      address: notAvailable,
    },
    missing: missingChecks.map((check) => ({ check, message: KYC_MISSING_TEXTS[check] })),
    moneyBlockedMessage: level === 0 ? `${kycGateMessage('withdrawals', missingChecks)} ${KYC_TEXTS.levelZeroHolds}` : null,
    levelLimits: {
      dailyInr: level === 0 || limits.dailyInrPaise === null ? null : inrPaiseToWire(limits.dailyInrPaise),
      monthlyInr: level === 0 || limits.monthlyInrPaise === null ? null : inrPaiseToWire(limits.monthlyInrPaise),
    },
  };
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

function violates(error: unknown, constraint: string): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if ((current as { constraint?: unknown }).constraint === constraint) return true;
  }
  return false;
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
    return { ...base, status: 'rejected', registeredName: null, nameAccepted: null, providerNameScore: null, aadhaarLinked: null, rejectionReason: PAN_MESSAGES.rejectedInvalid };
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
  const current = await kycRowOf(db, userId);
  if (current.pan === pan && current.panStatus !== 'rejected' && current.panStatus !== 'none') {
    return { message: current.panStatus === 'verified' ? PAN_MESSAGES.verified : PAN_MESSAGES.pendingReview, kyc: kycStatusOf(current, await getSettings(db)) };
  }
  if (current.panStatus === 'verified') throw AppError.conflict(PAN_MESSAGES.verifiedAlready);
  if ((await kycRepository.findOtherHolderOfPan(db, userId, pan)) !== undefined) {
    await recordConflict(db, userId, pan, ipAddress);
    throw panTaken();
  }
  try {
    await db.transaction(async (transaction) => {
      const locked = await kycRepository.findKyc(transaction, userId, { forUpdate: true });
      if (locked === undefined) throw new Error(`user ${userId} has no profile`);
      if (locked.panStatus === 'verified') throw AppError.conflict(PAN_MESSAGES.verifiedAlready);
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
    if (violates(error, PAN_UNIQUE_INDEX)) {
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

function reviewOf(row: KycRow, otherAccountsWithPan: number): PanReview {
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
  };
}

export async function listPanReviews(db: Database, query: { cursor?: string | undefined; limit: number }): Promise<{ items: PanReview[]; nextCursor: string | null }> {
  const cursor = decodeCursor(query.cursor);
  const rows = await kycRepository.listPendingPanReviews(db, cursor, query.limit);
  const page = toPageBy(rows, query.limit, (row) => ({ createdAt: row.cursorCreatedAt, id: row.userId }));
  return { items: page.rows.map((row) => reviewOf(row, row.otherAccountsWithPan)), nextCursor: page.nextCursor };
}

export async function listPanConflicts(db: Database, query: { cursor?: string | undefined; limit: number }): Promise<{ items: PanConflict[]; nextCursor: string | null }> {
  const cursor = decodeCursor(query.cursor, { idKind: 'bigint' });
  const rows = await kycRepository.listPanConflicts(db, cursor, query.limit);
  const page = toPageBy(rows, query.limit, (row) => ({ createdAt: row.cursorCreatedAt, id: row.id }));
  return {
    items: page.rows.map((row) => ({
      id: row.id,
      pan: row.pan,
      source: row.source,
      user: { id: row.userId, name: row.userName, email: row.userEmail },
      existingUser: row.existingUserId === null || row.existingName === null || row.existingEmail === null ? null : { id: row.existingUserId, name: row.existingName, email: row.existingEmail },
      createdAt: row.createdAt.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}

export type PanReviewDecision = { outcome: 'verified'; registeredName: string; aadhaarLinked?: boolean | undefined } | { outcome: 'rejected'; reason: string };

/**
 * An admin verifies a waiting PAN (with the name on the card, which the name rule compares with the
 * customer's) or rejects it with a reason the customer sees. Verifying accepts the customer's name as
 * it is now, so an admin may accept a partial match the rule left to a person.
 */
export async function reviewPan(
  db: Database,
  admin: { userId: string; ipAddress: string },
  customerId: string,
  decision: PanReviewDecision,
): Promise<{ message: string; review: PanReview & { status: PanStatus } }> {
  if (admin.userId === customerId) throw AppError.forbidden(PAN_MESSAGES.reviewOwnAccount);
  return db.transaction(async (transaction) => {
    const row = await kycRepository.findKyc(transaction, customerId, { forUpdate: true });
    if (row === undefined) throw AppError.notFound(PAN_MESSAGES.userNotFound);
    if (row.panStatus !== 'pending_review' || row.pan === null) throw AppError.conflict(PAN_MESSAGES.reviewNotPending);
    const values: kycRepository.PanCheckValues =
      decision.outcome === 'verified'
        ? {
            status: 'verified',
            checkedBy: 'admin',
            registeredName: decision.registeredName,
            nameAccepted: row.name,
            providerNameScore: row.panProviderNameScore,
            aadhaarLinked: decision.aadhaarLinked ?? row.panAadhaarLinked,
            providerReference: null,
            rejectionReason: null,
            reviewedByUserId: admin.userId,
          }
        : {
            status: 'rejected',
            checkedBy: 'admin',
            registeredName: row.panRegisteredName,
            nameAccepted: null,
            providerNameScore: row.panProviderNameScore,
            aadhaarLinked: row.panAadhaarLinked,
            providerReference: null,
            rejectionReason: decision.reason,
            reviewedByUserId: admin.userId,
          };
    const recorded = await kycRepository.recordPanCheck(transaction, customerId, row.pan, values);
    if (!recorded) throw new Error(`the locked PAN review of ${customerId} was not recorded`);
    await recordAudit(transaction, {
      actorUserId: admin.userId,
      action: 'kyc.pan_review',
      targetType: 'user',
      targetId: customerId,
      targetUserId: customerId,
      before: { status: row.panStatus },
      after: {
        status: values.status,
        pan: maskPan(row.pan),
        registeredName: values.registeredName,
        nameMatch: values.registeredName === null ? null : matchNames(values.registeredName, row.name),
        reason: values.rejectionReason,
        aadhaarLinked: values.aadhaarLinked,
      },
      ipAddress: admin.ipAddress,
    });
    const verified = values.status === 'verified';
    await createNotifications(transaction, [
      {
        userId: customerId,
        kind: 'kyc_updated',
        title: verified ? 'PAN verified' : 'PAN not accepted',
        body: verified ? 'Your PAN is verified.' : `Your PAN was not accepted: ${decision.outcome === 'rejected' ? decision.reason : ''}`,
        link: '/kyc',
        emailSubject: verified ? 'Your PAN is verified' : 'Your PAN was not accepted',
        emailText: verified
          ? 'Your PAN is verified. Open the KYC page in the app to see your level.'
          : `Your PAN was not accepted: ${decision.outcome === 'rejected' ? decision.reason : ''}\n\nOpen the KYC page in the app to enter it again.`,
      },
    ]);
    const after = await kycRowOf(transaction, customerId);
    const otherAccounts = await kycRepository.countOtherAccountsWithPan(transaction, customerId, row.pan);
    return { message: verified ? PAN_MESSAGES.verified : 'PAN rejected', review: { ...reviewOf(after, otherAccounts), status: after.panStatus } };
  });
}
