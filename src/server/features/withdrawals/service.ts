import { withdrawalStatusSchema } from '#shared/contracts/enums';
import type { z } from 'zod';
import {
  MIN_WITHDRAWAL_USDT_MICROS,
  WITHDRAWAL_DECIMALS,
  WITHDRAWAL_MESSAGES,
  quoteWithdrawal,
  type AdminWithdrawal,
  type Withdrawal,
  type withdrawalRequestSchema,
} from '#shared/contracts/withdrawals';
import { lastFourDigits } from '#shared/contracts/bank-accounts';
import { inrPaiseToWire, ratePaiseToWire, usdtMicrosToWire } from '#shared/money';
import {
  limitTierOf,
  tdsInrPaiseFor,
  tdsPercentToWire,
  TDS_REPORT_MAX_ROWS,
  WITHDRAWAL_RULE_MESSAGES,
  type LimitTier,
  type WithdrawalLimits,
} from '#shared/contracts/withdrawal-rules';
import type { AppContext } from '../../context.ts';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { decideInTransaction, type ApprovalGate, type DecisionOutcome, type RequestKind, type Settlement } from '../../platform/decisions/decide.ts';
import { PENDING_CHANGE_MESSAGES, type FirstApprovalResponse } from '#shared/contracts/pending-changes';
import {
  confirmOpenChange,
  discardOpenChange,
  findOpenChange,
  needsSecondAdmin,
  requestChange,
  type Actor,
  type ChangeHandler,
  type PendingChangeRow,
  type WithdrawalApprovalPayload,
} from '../pending-changes/service.ts';
import { withdrawalDecided } from '../notifications/templates.ts';
import { findEarlierAnswer, hashRequest, runOnce, type Answer, type IdempotencyScope } from '../../platform/idempotency/service.ts';
import { validatedInrPaise, validatedUsdtMicros } from '../../platform/ledger/amounts.ts';
import { house, moveMoney, wallet } from '../../platform/ledger/ledger.ts';
import { PIN_FAILURES, PinNeedsItsOwnTransaction, startPinCheck } from '../pin/service.ts';
import { accountPauseFrom, assertWithdrawalAllowedFor } from '../security/cooling-off.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { getSettings, tierLimits } from '../settings/service.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { decodeCursor, toPage, toPageBy } from '../../platform/pagination/cursor.ts';
import * as withdrawalRepository from './repository.ts';
import { refuseUsedPayoutReference } from './payout-reference.ts';
import { rollingWindowOverLimit } from './two-admin-rolling-window.ts';
import * as requestRepository from './request-repository.ts';
import type { WithdrawalRow, WithdrawalWithUserRow } from './repository.ts';

/** The wallet summary shows what is pending and which rate applies. */

function commonView(row: WithdrawalRow) {
  return {
    id: row.id,
    amountUsdt: usdtMicrosToWire(row.amountUsdtMicros),
    amountInr: inrPaiseToWire(row.amountInrPaise),
    tdsInr: inrPaiseToWire(row.tdsInrPaise),
    netInr: inrPaiseToWire(row.amountInrPaise - row.tdsInrPaise),
    tdsPercent: tdsPercentToWire(row.tdsBasisPoints),
    rateInr: ratePaiseToWire(row.rateInrPaise),
    rateTier: row.rateTier,
    status: row.status,
    bankAccountId: row.bankAccountId,
    createdAt: row.createdAt.toISOString(),
    approvedAt: row.approvedAt?.toISOString() ?? null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    payoutReference: row.payoutReference,
    rejectionReason: row.rejectionReason,
    reference: row.reference,
  };
}

export function toWithdrawalView(row: WithdrawalRow): Withdrawal {
  // Object.assign rather than a spread with further properties, which V8 copies property by property (decision 014).
  return Object.assign(commonView(row), {
    bank: {
      accountHolderName: row.accountHolderName,
      bankName: row.bankName,
      accountNumberLast4: lastFourDigits(row.accountNumber),
      ifscCode: row.ifscCode,
      upiId: row.upiId,
    },
  });
}

export function toAdminWithdrawalView(row: WithdrawalWithUserRow): AdminWithdrawal {
  const withdrawal = row.withdrawal;
  return Object.assign(commonView(withdrawal), {
    user: row.user,
    bank: {
      accountHolderName: withdrawal.accountHolderName,
      bankName: withdrawal.bankName,
      accountNumber: withdrawal.accountNumber,
      ifscCode: withdrawal.ifscCode,
      upiId: withdrawal.upiId,
    },
  });
}

/** Another customer's account is as unknown as a missing one: 404, so ids cannot be probed. */
function bankAccountNotFound(): AppError {
  return new AppError(404, 'NOT_FOUND', WITHDRAWAL_MESSAGES.bankAccountNotFound, { fields: { bankAccountId: WITHDRAWAL_MESSAGES.bankAccountNotFound } });
}

export type WithdrawalSubmission = z.output<typeof withdrawalRequestSchema>;
type WithdrawalAnswer = { withdrawal: Withdrawal; message: string };

/**
 * A customer's withdrawal request: checks the PIN in this same request, then
 * in one transaction prices it at the stored rates (refusing it with 409
 * PRICE_CHANGED when the customer confirmed a different INR amount), snapshots
 * the bank details and holds the USDT (wallet -> withdrawals pending). The INR
 * is paid out by an admin, who then approves it.
 */
export async function requestWithdrawal(
  context: AppContext,
  request: { ip: string },
  session: SessionRecord,
  input: WithdrawalSubmission,
  idempotencyKey?: string,
): Promise<Answer<WithdrawalAnswer>> {
  const { db } = context.database;
  const userId = session.userId;
  const amountUsdtMicros = validatedUsdtMicros(input.amount, WITHDRAWAL_DECIMALS);
  const expectedAmountInrPaise = input.expectedAmountInr === undefined ? undefined : validatedInrPaise(input.expectedAmountInr);
  const expectedNetInrPaise = input.expectedNetInr === undefined ? undefined : validatedInrPaise(input.expectedNetInr);
  // The expected INR amount is a precondition, not part of what the request is: it
  // stays out of the hash, so a retry of a withdrawal that was made (say after a
  // lost answer) replays that withdrawal, with its INR amount, whatever the
  // customer's preview shows now, and never makes a second one.
  const scope: IdempotencyScope | undefined = idempotencyKey
    ? {
        userId,
        key: idempotencyKey,
        operation: 'withdrawal.request',
        requestHash: hashRequest({ amountUsdtMicros: amountUsdtMicros.toString(), bankAccountId: input.bankAccountId }),
      }
    : undefined;
  // The PIN comes before the replay: a stored answer is given only to someone who knows the PIN.
  // Argon2 runs here, outside any transaction; the right PIN's check is completed as the first
  // statements of the withdrawal's transaction (before the idempotency key is claimed, so before
  // any replay), unless it has something to record, which then commits on its own first.
  const pin = await startPinCheck(context, request, session, input.pin, () => WITHDRAWAL_MESSAGES.incorrectPin, async (rateLimit) => {
    const opened = await requestRepository.openPinCheckIfOwned(db, rateLimit, userId, PIN_FAILURES, input.bankAccountId);
    // Before the PIN is counted or checked, so that choosing a wrong account does not cost a PIN attempt.
    if (!opened.goesAhead) throw bankAccountNotFound();
    return opened;
  });
  // One statement reads what the request needs, with the PIN check's re-read after the PIN row
  // lock; it takes the shared lock on the bank account, so the account cannot be deleted while this
  // request is being made. It also publishes the request's events: they are delivered at commit
  // (and dropped on a rollback), and so go out before the insert below, which takes the locks that
  // every customer's withdrawal shares.
  const readContext = (transaction: Executor) =>
    requestRepository.findWithdrawalContext(transaction, { userId, bankAccountId: input.bankAccountId, sessionId: session.sessionId }, PIN_FAILURES, [
      { type: 'wallet.updated', userId, reason: 'withdrawal.requested' },
      { type: 'admin.queue.updated' },
    ]);
  let contextRead: requestRepository.WithdrawalContextRow | undefined;
  try {
    return await runOnce(
      db,
      scope,
      (transaction) => makeWithdrawal(transaction, contextRead),
      (transaction) =>
        pin.confirmWithin(transaction, async () => {
          contextRead = await readContext(transaction);
          if (contextRead === undefined) throw new Error(`user ${userId} has no profile`);
          return contextRead;
        }),
    );
  } catch (error) {
    if (!(error instanceof PinNeedsItsOwnTransaction)) throw error;
  }
  await pin.confirmAlone();
  const earlier = await findEarlierAnswer<WithdrawalAnswer>(db, scope);
  if (earlier) return earlier;
  return runOnce(db, scope, (transaction) => makeWithdrawal(transaction, undefined));

  async function makeWithdrawal(transaction: Executor, alreadyRead: requestRepository.WithdrawalContextRow | undefined): Promise<{ statusCode: number; body: WithdrawalAnswer }> {
    const found = alreadyRead ?? (await readContext(transaction));
    if (found === undefined) throw new Error(`user ${userId} has no profile`);
    const bankAccount = ownedBankAccountOf(found);
    if (!bankAccount) throw bankAccountNotFound();
    assertWithdrawalAllowedFor(context, accountPauseFrom(context, found), bankAccount);
    const settings = found;
    const profile = found;
    if (settings.tdsBasisPoints > 0 && profile.pan === null) throw new AppError(400, 'PAN_REQUIRED', WITHDRAWAL_RULE_MESSAGES.panRequired);
    assertWithinWithdrawalBounds(settings, amountUsdtMicros);
    const quote = quoteWithdrawal(amountUsdtMicros, settings, profile.vipLevel);
    const tdsBasisPoints = settings.tdsBasisPoints;
    const tdsInrPaise = tdsInrPaiseFor(quote.amountInrPaise, BigInt(tdsBasisPoints));
    // Checked in the transaction that read the rates and inserts the request, so
    // the price saved is the price the customer confirmed.
    if (expectedAmountInrPaise !== undefined && expectedAmountInrPaise !== quote.amountInrPaise) {
      throw AppError.conflict(WITHDRAWAL_MESSAGES.priceChanged, 'PRICE_CHANGED');
    }
    if (expectedNetInrPaise !== undefined && expectedNetInrPaise !== quote.amountInrPaise - tdsInrPaise) {
      throw AppError.conflict(WITHDRAWAL_MESSAGES.priceChanged, 'PRICE_CHANGED');
    }
    // From this insert (whose triggers lock the shared pending-withdrawals totals) to the commit,
    // every other customer's withdrawal waits: keep this stretch to the ledger statement (and the
    // limit sums when limits are set).
    const row = await requestRepository.insertWithdrawal(transaction, {
      userId,
      bankAccountId: bankAccount.id,
      accountHolderName: bankAccount.accountHolderName,
      accountNumber: bankAccount.accountNumber,
      bankName: bankAccount.bankName,
      ifscCode: bankAccount.ifscCode,
      upiId: bankAccount.upiId,
      amountUsdtMicros,
      rateInrPaise: quote.rateInrPaise,
      rateTier: quote.rateTier,
      amountInrPaise: quote.amountInrPaise,
      tdsBasisPoints,
      tdsInrPaise,
      pan: tdsBasisPoints > 0 ? profile.pan : null,
    });
    await moveMoney(transaction, [{ from: wallet(userId), to: house('withdrawals_pending'), amountUsdtMicros, reason: 'withdrawal_hold', referenceId: row.id }]);
    // After moveMoney, which locked the customer's wallet until this transaction ends: a
    // concurrent withdrawal of the same customer waits there for this one to commit or roll
    // back, and its sum (a new statement, read committed) then includes this withdrawal, so
    // together they cannot pass a limit. Taking the wallet lock any earlier would invert the
    // lock order that decisions use (withdrawal rows and their totals, then the ledger).
    await assertWithinPeriodLimits(transaction, settings, limitTierOf(profile.vipLevel), userId, amountUsdtMicros);
    return { statusCode: 201, body: { withdrawal: toWithdrawalView(row), message: WITHDRAWAL_MESSAGES.submitted } };
  }
}

/** The bank account read with the request's context, when it is the customer's. */
function ownedBankAccountOf(row: requestRepository.WithdrawalContextRow) {
  const { bankAccountId, accountHolderName, accountNumber, bankName, ifscCode, upiId, detailsChangedAt } = row;
  if (bankAccountId === null || accountHolderName === null || accountNumber === null || bankName === null || ifscCode === null || detailsChangedAt === null) {
    return undefined;
  }
  return { id: bankAccountId, accountHolderName, accountNumber, bankName, ifscCode, upiId, detailsChangedAt };
}

type SettingsRow = Awaited<ReturnType<typeof getSettings>>;
/** The settings a withdrawal request reads (see request-repository.ts). */
type WithdrawalSettings = Pick<
  SettingsRow,
  | 'rateNormalInrPaise'
  | 'rateVipInrPaise'
  | 'tdsBasisPoints'
  | 'withdrawalMinUsdtMicros'
  | 'withdrawalMaxUsdtMicros'
  | 'withdrawalDailyLimitNormalUsdtMicros'
  | 'withdrawalMonthlyLimitNormalUsdtMicros'
  | 'withdrawalDailyLimitVipUsdtMicros'
  | 'withdrawalMonthlyLimitVipUsdtMicros'
>;

function limitRefusal(message: string): AppError {
  return new AppError(400, 'WITHDRAWAL_LIMIT', message, { fields: { amount: message } });
}

const atLeastZero = (value: bigint): bigint => (value > 0n ? value : 0n);

/** The per-withdrawal minimum and maximum of the settings. */
function assertWithinWithdrawalBounds(settings: WithdrawalSettings, amountUsdtMicros: bigint): void {
  if (settings.withdrawalMinUsdtMicros !== null && amountUsdtMicros < settings.withdrawalMinUsdtMicros) {
    throw limitRefusal(WITHDRAWAL_RULE_MESSAGES.minimum(settings.withdrawalMinUsdtMicros));
  }
  if (settings.withdrawalMaxUsdtMicros !== null && amountUsdtMicros > settings.withdrawalMaxUsdtMicros) {
    throw limitRefusal(WITHDRAWAL_RULE_MESSAGES.maximum(settings.withdrawalMaxUsdtMicros));
  }
}

/**
 * The tier's daily and monthly limits (India time; pending, processing and
 * approved withdrawals count). Called with the new withdrawal already inserted
 * and the customer's wallet locked, so the sums include it; a refusal rolls
 * the whole transaction back.
 */
async function assertWithinPeriodLimits(db: Executor, settings: WithdrawalSettings, tier: LimitTier, userId: string, amountUsdtMicros: bigint): Promise<void> {
  const limits = tierLimits(settings, tier);
  if (limits.dailyUsdtMicros === null && limits.monthlyUsdtMicros === null) return;
  const withThisOne = await withdrawalRepository.sumWithdrawnThisDayAndMonth(db, userId);
  const before = { dayUsdtMicros: withThisOne.dayUsdtMicros - amountUsdtMicros, monthUsdtMicros: withThisOne.monthUsdtMicros - amountUsdtMicros };
  if (limits.dailyUsdtMicros !== null && withThisOne.dayUsdtMicros > limits.dailyUsdtMicros) {
    throw limitRefusal(WITHDRAWAL_RULE_MESSAGES.daily(limits.dailyUsdtMicros, atLeastZero(limits.dailyUsdtMicros - before.dayUsdtMicros)));
  }
  if (limits.monthlyUsdtMicros !== null && withThisOne.monthUsdtMicros > limits.monthlyUsdtMicros) {
    throw limitRefusal(WITHDRAWAL_RULE_MESSAGES.monthly(limits.monthlyUsdtMicros, atLeastZero(limits.monthlyUsdtMicros - before.monthUsdtMicros)));
  }
}

/** What the withdraw page shows before the customer types: the bounds, and what is left today and this month. */
export async function getWithdrawalLimits(db: Database, userId: string): Promise<WithdrawalLimits> {
  const settings = await getSettings(db);
  const profile = await withdrawalRepository.findWithdrawerProfile(db, userId);
  if (profile === undefined) throw new Error(`user ${userId} has no profile`);
  const tier = limitTierOf(profile.vipLevel);
  const limits = tierLimits(settings, tier);
  const used = await withdrawalRepository.sumWithdrawnThisDayAndMonth(db, userId);
  const period = (limit: bigint | null, usedUsdtMicros: bigint) => ({
    limitUsdt: limit === null ? null : usdtMicrosToWire(limit),
    usedUsdt: usdtMicrosToWire(usedUsdtMicros),
    leftUsdt: limit === null ? null : usdtMicrosToWire(atLeastZero(limit - usedUsdtMicros)),
  });
  const bounds = [
    limits.dailyUsdtMicros === null ? undefined : atLeastZero(limits.dailyUsdtMicros - used.dayUsdtMicros),
    limits.monthlyUsdtMicros === null ? undefined : atLeastZero(limits.monthlyUsdtMicros - used.monthUsdtMicros),
    settings.withdrawalMaxUsdtMicros ?? undefined,
  ].filter((value): value is bigint => value !== undefined);
  const available = bounds.length === 0 ? null : bounds.reduce((smallest, value) => (value < smallest ? value : smallest));
  const minimum = settings.withdrawalMinUsdtMicros !== null && settings.withdrawalMinUsdtMicros > MIN_WITHDRAWAL_USDT_MICROS ? settings.withdrawalMinUsdtMicros : MIN_WITHDRAWAL_USDT_MICROS;
  return {
    tier,
    minUsdt: usdtMicrosToWire(minimum),
    maxUsdt: settings.withdrawalMaxUsdtMicros === null ? null : usdtMicrosToWire(settings.withdrawalMaxUsdtMicros),
    daily: period(limits.dailyUsdtMicros, used.dayUsdtMicros),
    monthly: period(limits.monthlyUsdtMicros, used.monthUsdtMicros),
    availableUsdt: available === null ? null : usdtMicrosToWire(available),
    tdsPercent: tdsPercentToWire(settings.tdsBasisPoints),
    hasPan: profile.pan !== null,
    panRequired: settings.tdsBasisPoints > 0 && profile.pan === null,
  };
}

export async function getOwnWithdrawal(db: Database, userId: string, withdrawalId: string): Promise<Withdrawal> {
  const row = await withdrawalRepository.findOwned(db, userId, withdrawalId);
  if (!row) throw AppError.notFound(WITHDRAWAL_MESSAGES.notFound);
  return toWithdrawalView(row);
}

export async function listOwnWithdrawals(
  db: Database,
  userId: string,
  options: { status?: Withdrawal['status'] | undefined; cursor?: string | undefined; limit: number },
): Promise<{ items: Withdrawal[]; nextCursor: string | null }> {
  const rows = await withdrawalRepository.listOwned(db, userId, { status: options.status, cursor: decodeCursor(options.cursor), limit: options.limit });
  const page = toPage(rows, options.limit);
  return { items: page.rows.map(toWithdrawalView), nextCursor: page.nextCursor };
}

type WithdrawalDecisionDetails = { payoutReference?: string | undefined; reason?: string | undefined };

/**
 * Withdrawals as a request kind of the decision flow. Approving means the INR
 * was paid to the customer's bank: the held USDT moves from withdrawals pending
 * to withdrawals paid. Rejecting refunds the USDT that was held (not the INR
 * amount, as the original app wrongly did).
 */
function withdrawalNotification(row: WithdrawalRow, outcome: DecisionOutcome) {
  // What reached the bank is the net amount: the gross less the TDS withheld.
  const amountInrPaise = outcome === 'approved' ? row.amountInrPaise - row.tdsInrPaise : row.amountInrPaise;
  return withdrawalDecided({ ...row, amountInrPaise, accountNumberLast4: row.accountNumber.slice(-4), outcome });
}

export const withdrawalDecisions: RequestKind<WithdrawalRow, WithdrawalDecisionDetails, { withdrawal: AdminWithdrawal; message: string }, FirstApprovalResponse> = {
  noun: 'withdrawal',
  messages: {
    notFound: WITHDRAWAL_MESSAGES.notFound,
    ownRequest: WITHDRAWAL_MESSAGES.ownRequest,
    decidedElsewhere: { processing: WITHDRAWAL_MESSAGES.inPayoutBatch },
  },
  findById: withdrawalRepository.findById,
  partiesOf: (withdrawal) => [withdrawal.userId],
  markDecided: (db, id, decision) =>
    withdrawalRepository.decideFrom(
      db,
      id,
      withdrawalStatusSchema.parse(decision.from),
      decision.outcome === 'approved'
        ? { status: 'approved', decidedByUserId: decision.decidedByUserId, payoutReference: decision.details.payoutReference }
        : { status: 'rejected', decidedByUserId: decision.decidedByUserId, rejectionReason: decision.details.reason },
    ),
  gateApproval: async (db, row, request) => {
    await refuseUsedPayoutReference(db, row.id, request.details.payoutReference);
    return request.decider.kind === 'admin'
      ? gateLargeApproval(db, row, { userId: request.decider.userId, ipAddress: request.decider.ipAddress }, request.details)
      : { kind: 'proceed' };
  },
  settle: async (db, row, outcome) => {
    // Decided by any path (a reject, a second approval, a batch result): no first approval stays open.
    await discardOpenChange(db, 'large_withdrawal_approval', row.id, row.decidedByUserId ? { userId: row.decidedByUserId } : null);
    return settlementOf(row, outcome);
  },
  answer: async (db, row, outcome) => ({
    withdrawal: await adminView(db, row.id),
    message: outcome === 'approved' ? WITHDRAWAL_MESSAGES.approved : WITHDRAWAL_MESSAGES.rejected,
  }),
};

function settlementOf(row: WithdrawalRow, outcome: DecisionOutcome): Settlement {
  return outcome === 'approved'
      ? {
          movements: [
            { from: house('withdrawals_pending'), to: house('withdrawals_paid'), amountUsdtMicros: row.amountUsdtMicros, reason: 'withdrawal_payout', referenceId: row.id },
          ],
          targetUserId: row.userId,
          auditAfter: { status: 'approved', amountUsdtMicros: row.amountUsdtMicros, amountInrPaise: row.amountInrPaise, payoutReference: row.payoutReference },
          events: [{ type: 'wallet.updated', userId: row.userId, reason: 'withdrawal.approved' }],
          notifications: [withdrawalNotification(row, outcome)],
        }
      : {
          movements: [{ from: house('withdrawals_pending'), to: wallet(row.userId), amountUsdtMicros: row.amountUsdtMicros, reason: 'withdrawal_refund', referenceId: row.id }],
          targetUserId: row.userId,
          auditAfter: { status: 'rejected', refundedUsdtMicros: row.amountUsdtMicros, reason: row.rejectionReason },
          events: [{ type: 'wallet.updated', userId: row.userId, reason: 'withdrawal.rejected' }],
          notifications: [withdrawalNotification(row, outcome)],
        };
}

/** A withdrawal that needs two admins: worth more than the large-withdrawal setting while two or more admins exist (decision 017). */
async function needsTwoApprovals(db: Executor, row: WithdrawalRow): Promise<boolean> {
  const settings = await getSettings(db);
  return (await needsSecondAdmin(db)) && (await rollingWindowOverLimit(db, row, settings.largeWithdrawalInrPaise));
}

/**
 * While two admins are needed for large withdrawals, the amount above which a withdrawal stays out
 * of payout batches: a bank file is paid on one admin's word, so a large withdrawal is paid through
 * its own two approvals instead (decision 017). Null when one admin's word is enough.
 */
export async function largestBatchableInrPaise(db: Executor): Promise<bigint | null> {
  if (!(await needsSecondAdmin(db))) return null;
  return (await getSettings(db)).largeWithdrawalInrPaise;
}

function approvalPayload(row: WithdrawalRow, from: 'pending' | 'processing', payoutReference: string | undefined): WithdrawalApprovalPayload {
  return {
    withdrawalId: row.id,
    from,
    amountInrPaise: row.amountInrPaise.toString(),
    amountUsdtMicros: row.amountUsdtMicros.toString(),
    customerUserId: row.userId,
    payoutReference: payoutReference ?? null,
  };
}

/**
 * Two-person control of an approve: a large withdrawal's first approval is recorded as a pending
 * change (202); a different admin's approve while it is open is the second approval and goes on,
 * with the first approval's payout reference unless this one gives its own.
 */
async function gateLargeApproval(db: Executor, row: WithdrawalRow, actor: Actor, details: WithdrawalDecisionDetails): Promise<ApprovalGate<WithdrawalDecisionDetails, FirstApprovalResponse>> {
  // Locked, so that two admins approving at once are served one after the other: the second sees the first's approval.
  const locked = await withdrawalRepository.findByIdForUpdate(db, row.id);
  // Not pending any more: the decision's conditional update gives the usual answer.
  if (!locked || locked.status !== 'pending') return { kind: 'proceed' };
  const open = await findOpenChange(db, 'large_withdrawal_approval', row.id);
  const openFirstApproval = open && (open.payload as WithdrawalApprovalPayload).from === 'pending' ? open : undefined;
  // The admin who gave the first approval never gives the second, even when the withdrawal no longer
  // needs two (the large-withdrawal amount was raised since, or an admin left).
  if (openFirstApproval?.requestedByUserId === actor.userId) throw AppError.conflict(PENDING_CHANGE_MESSAGES.ownApprovalAgain, 'CHANGE_ALREADY_WAITING');
  if (!(await needsTwoApprovals(db, locked))) return { kind: 'proceed' };
  if (openFirstApproval) {
    await confirmOpenChange(db, openFirstApproval, actor);
    return {
      kind: 'proceed',
      details: { ...details, payoutReference: details.payoutReference ?? (openFirstApproval.payload as WithdrawalApprovalPayload).payoutReference ?? undefined },
    };
  }
  // A first approval given while the withdrawal was in a payout batch that was cancelled since no longer applies.
  if (open) await discardOpenChange(db, 'large_withdrawal_approval', row.id, actor);
  const pendingChange = await requestChange(
    db,
    { kind: 'large_withdrawal_approval', subject: row.id, payload: approvalPayload(locked, 'pending', details.payoutReference) },
    actor,
  );
  return { kind: 'defer', statusCode: 202, body: { message: PENDING_CHANGE_MESSAGES.firstApproval, pendingChange } };
}

/**
 * A payout batch's "paid" row for a withdrawal that needs two admins: it is not marked paid but
 * recorded as a first approval with the UTR (or found already waiting), for a second admin to confirm.
 * Answers 'proceed' when one admin's word is enough.
 */
export async function gateBatchPayment(db: Executor, row: WithdrawalRow, actor: Actor, utr: string | undefined): Promise<'proceed' | 'awaiting'> {
  if (!(await needsTwoApprovals(db, row))) return 'proceed';
  const open = await findOpenChange(db, 'large_withdrawal_approval', row.id);
  if (open && (open.payload as WithdrawalApprovalPayload).from === 'processing') return 'awaiting';
  if (row.userId === actor.userId) throw AppError.forbidden(WITHDRAWAL_MESSAGES.ownRequest);
  if (open) await discardOpenChange(db, 'large_withdrawal_approval', row.id, actor);
  await requestChange(db, { kind: 'large_withdrawal_approval', subject: row.id, payload: approvalPayload(row, 'processing', utr) }, actor);
  return 'awaiting';
}

/**
 * The second admin's confirm (POST /api/admin/pending-changes/:id/confirm) of a first approval: the
 * withdrawal must still be in the state it was approved in, then it is approved through the shared
 * decision code in the confirmation's transaction.
 */
export const firstApprovalHandler: ChangeHandler = {
  lockSubject: async (transaction, withdrawalId) => {
    await withdrawalRepository.findByIdForUpdate(transaction, withdrawalId);
  },
  confirm: confirmFirstApproval,
};

async function confirmFirstApproval(transaction: Executor, change: PendingChangeRow, decider: Actor): Promise<void> {
  const payload = change.payload as WithdrawalApprovalPayload;
  const withdrawal = await withdrawalRepository.findByIdForUpdate(transaction, payload.withdrawalId);
  if (!withdrawal || withdrawal.status !== payload.from) throw AppError.conflict(PENDING_CHANGE_MESSAGES.staleWithdrawal, 'STALE_CHANGE');
  await decideInTransaction(transaction, withdrawalDecisions, {
    id: withdrawal.id,
    outcome: 'approved',
    decider: { kind: 'admin', userId: decider.userId, ipAddress: decider.ipAddress },
    details: { payoutReference: payload.payoutReference ?? undefined },
    from: payload.from,
  });
}

async function adminView(db: Executor, withdrawalId: string): Promise<AdminWithdrawal> {
  const row = await withdrawalRepository.findWithUser(db, withdrawalId);
  if (!row) throw new Error(`withdrawal ${withdrawalId} vanished inside its own transaction`);
  return toAdminWithdrawalView(row);
}

export async function listWithdrawalsForAdmin(
  db: Database,
  options: { status?: Withdrawal['status'] | undefined; cursor?: string | undefined; limit: number },
): Promise<{ items: AdminWithdrawal[]; nextCursor: string | null }> {
  const rows = await withdrawalRepository.listWithUsers(db, { status: options.status, cursor: decodeCursor(options.cursor), limit: options.limit });
  const page = toPageBy(rows, options.limit, (row) => ({ createdAt: row.cursorCreatedAt, id: row.withdrawal.id }));
  return { items: page.rows.map(toAdminWithdrawalView), nextCursor: page.nextCursor };
}

/**
 * One CSV cell, safe against formula injection: a cell that a spreadsheet
 * would read as a formula (= + - @ tab CR) gets a leading apostrophe, and every
 * cell is quoted.
 */
export function csvCell(value: string): string {
  const singleLine = value.replace(/[\r\n]+/g, ' ');
  const neutralized = /^[=+\-@\t\r]/.test(singleLine) ? `'${singleLine}` : singleLine;
  return `"${neutralized.replace(/"/g, '""')}"`;
}

const TDS_REPORT_COLUMNS = ['PAN', 'Name', 'Email', 'Withdrawal reference', 'Gross INR', 'TDS INR', 'Net INR', 'TDS %', 'Date (IST)', 'Status'];

/**
 * The TDS (section 194S) report for the quarterly return: every withdrawal
 * with TDS withheld that was not rejected, made from `from` to `to` inclusive
 * (India dates), oldest first, formula-safe. The export is audited.
 */
export async function tdsReportCsv(
  db: Database,
  actor: { adminUserId: string; ipAddress: string },
  range: { from: string; to: string },
): Promise<{ csv: string; rows: number; truncated: boolean }> {
  return db.transaction(async (transaction) => {
    const rows = await withdrawalRepository.listTdsWithdrawals(transaction, range, TDS_REPORT_MAX_ROWS + 1);
    const truncated = rows.length > TDS_REPORT_MAX_ROWS;
    const shown = rows.slice(0, TDS_REPORT_MAX_ROWS);
    const lines = [TDS_REPORT_COLUMNS.map(csvCell).join(',')];
    for (const row of shown) {
      lines.push(
        [
          row.pan ?? '',
          row.name,
          row.email,
          row.withdrawalId,
          inrPaiseToWire(row.amountInrPaise),
          inrPaiseToWire(row.tdsInrPaise),
          inrPaiseToWire(row.amountInrPaise - row.tdsInrPaise),
          tdsPercentToWire(row.tdsBasisPoints),
          row.indiaDate,
          row.status,
        ]
          .map(csvCell)
          .join(','),
      );
    }
    await recordAudit(transaction, {
      actorUserId: actor.adminUserId,
      action: 'reports.tds_export',
      targetType: 'report',
      targetId: `tds:${range.from}:${range.to}`,
      after: { rows: shown.length },
      ipAddress: actor.ipAddress,
    });
    return { csv: `${lines.join('\r\n')}\r\n`, rows: shown.length, truncated };
  });
}
