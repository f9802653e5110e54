import { lastFourDigits } from '#shared/contracts/bank-accounts';
import { CHAIN_INCIDENT_MESSAGES } from '#shared/contracts/chain-incidents';
import { withdrawalStatusSchema } from '#shared/contracts/enums';
import { PAYOUT_BATCH_MESSAGES, paymentModeFor, utrHasFormOf } from '#shared/contracts/payout-batches';
import type { PayoutProviderName } from '#shared/contracts/payouts';
import { PENDING_CHANGE_MESSAGES, type FirstApprovalResponse } from '#shared/contracts/pending-changes';
import { WITHDRAWAL_MESSAGES, type AdminWithdrawal } from '#shared/contracts/withdrawals';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import {
  decideInTransaction,
  type ApprovalGate,
  type DecisionOutcome,
  type DecisionRequest,
  type RequestKind,
  type Settlement,
} from '../../platform/decisions/decide.ts';
import { house, wallet } from '../../platform/ledger/ledger.ts';
import { flagPayeeAfterFailedPayout } from '../bank-accounts/payee-flags.ts';
import { heldByOpenIncidents } from '../chain/incidents.ts';
import { assertApprovalWhileNotFrozen } from '../kyc/service.ts';
import { recoverWrittenOffRewards } from '../referrals/service.ts';
import { withdrawalDecided } from '../notifications/templates.ts';
import {
  confirmOpenChange,
  discardOpenChange,
  findOpenChange,
  needsSecondAdmin,
  requestChange,
  type Actor,
  type ChangeHandler,
} from '../pending-changes/service.ts';
import type { StoredPendingChange, WithdrawalApprovalPayload } from '../pending-changes/kinds.ts';
import { getSettings } from '../settings/service.ts';
import { refuseUsedPayoutReference, withPayoutReferenceUnique } from './payout-reference.ts';
import * as withdrawalRepository from './repository.ts';
import { rollingWindowOverLimit } from './two-admin-rolling-window.ts';
import type { WithdrawalRow } from './repository.ts';
import { adminView } from './views.ts';

function withdrawalNotification(row: WithdrawalRow, outcome: DecisionOutcome) {
  // What reached the bank is the net amount: the gross less the TDS withheld.
  const amountInrPaise = outcome === 'approved' ? row.amountInrPaise - row.tdsInrPaise : row.amountInrPaise;
  return withdrawalDecided({ ...row, amountInrPaise, accountNumberLast4: lastFourDigits(row.accountNumber), outcome });
}

type WithdrawalKind = RequestKind<WithdrawalRow, WithdrawalDecisionDetails, { withdrawal: AdminWithdrawal; message: string }, FirstApprovalResponse>;

/**
 * Withdrawals as a request kind of the decision flow. Approving means the INR
 * was paid to the customer's bank: the held USDT moves from withdrawals pending
 * to withdrawals paid. Rejecting refunds the USDT that was held (not the INR
 * amount, as the original app wrongly did).
 */
export const withdrawalDecisions: WithdrawalKind = {
  noun: 'withdrawal',
  messages: {
    notFound: WITHDRAWAL_MESSAGES.notFound,
    ownRequest: WITHDRAWAL_MESSAGES.ownRequest,
    decidedElsewhere: { processing: WITHDRAWAL_MESSAGES.inPayoutBatch },
  },
  findById: withdrawalRepository.findById,
  partiesOf: (withdrawal) => [withdrawal.userId],
  markDecided: (db, id, decision) =>
    withPayoutReferenceUnique(() =>
      withdrawalRepository.decideFrom(
        db,
        id,
        withdrawalStatusSchema.parse(decision.from),
        decision.outcome === 'approved'
          ? { status: 'approved', decidedByUserId: decision.decidedByUserId, payoutReference: decision.details.payoutReference }
          : { status: 'rejected', decidedByUserId: decision.decidedByUserId, rejectionReason: decision.details.reason },
      ),
    ),
  gateApproval: (db, row, request) => gateApproval(db, row, request, { referenceRequired: true }),
  settle: async (db, row, outcome, request) => {
    // A payment made by hand is recorded only with its UTR (decision 049): checked here, on the row as decided, so that
    // a direct approve, a second admin's approve and the confirm of a first approval all pass the same rule.
    const paidByHand = outcome === 'approved' && (request.from ?? 'pending') === 'pending';
    // A frozen customer's withdrawal still pending is not paid (decision 047); one a bank already paid (a batch's results) is recorded.
    if (paidByHand) await assertApprovalWhileNotFrozen(db, row.userId);
    if (paidByHand && request.decider.kind === 'admin') await checkManualPayoutReference(db, row, row.payoutReference);
    // Decided by any path (a reject, a second approval, a batch result): no first approval stays open.
    await discardOpenChange(db, firstApprovalHandler, row.id, row.decidedByUserId ? { userId: row.decidedByUserId } : null);
    // A payout that failed for a reason of the account (a batch's failed row, the provider's failure) flags the payee
    // (decision 044). An admin's reject of a withdrawal never sent to a bank is a decision on the request, not a payout's failure.
    if (outcome === 'rejected' && (row.payoutBatchId !== null || row.payoutRoute !== null)) await flagPayeeAfterFailedPayout(db, row, row.rejectionReason);
    return settlementOf(db, row, outcome);
  },
  answer: async (db, row, outcome) => ({
    withdrawal: await adminView(db, row.id),
    message: outcome === 'approved' ? WITHDRAWAL_MESSAGES.approved : WITHDRAWAL_MESSAGES.rejected,
  }),
};

/**
 * The admins' decisions while a payout provider is configured (decision 043). An approval of a pending withdrawal
 * without a payout reference hands it to the provider: it becomes `processing` on the provider's route, the USDT
 * stays held, and the payout worker sends it; the provider's `processed` later approves it through
 * withdrawalDecisions with the UTR. An approval with a payout reference records a payment made by hand, as before,
 * and so does one of a withdrawal that was in a bank file.
 */
function providerWithdrawalDecisions(provider: PayoutProviderName): WithdrawalKind {
  return {
    ...withdrawalDecisions,
    messages: { ...withdrawalDecisions.messages, decidedElsewhere: { processing: WITHDRAWAL_MESSAGES.inPayoutBatchOrWithProvider } },
    gateApproval: (db, row, request) => gateApproval(db, row, request, { referenceRequired: false }),
    markDecided: async (db, id, decision) => {
      if (decision.outcome === 'approved' && decision.from === 'pending' && decision.details.payoutReference === undefined) {
        const routed = await withdrawalRepository.routeToProvider(db, id, provider, decision.decidedByUserId);
        if (routed) return routed;
      }
      return withdrawalDecisions.markDecided(db, id, decision);
    },
    settle: async (db, row, outcome, request) => {
      if (row.status !== 'processing') return withdrawalDecisions.settle(db, row, outcome, request);
      await assertApprovalWhileNotFrozen(db, row.userId);
      await discardOpenChange(db, firstApprovalHandler, row.id, request.decider.kind === 'admin' ? { userId: request.decider.userId } : null);
      return {
        movements: [],
        targetUserId: row.userId,
        auditAfter: {
          status: 'processing',
          payoutRoute: row.payoutRoute,
          amountInrPaise: row.amountInrPaise,
          netInrPaise: row.amountInrPaise - row.tdsInrPaise,
        },
        events: [{ type: 'wallet.updated', userId: row.userId, reason: 'withdrawal.approved' }],
      };
    },
    answer: async (db, row, outcome) =>
      row.status === 'processing'
        ? { withdrawal: await adminView(db, row.id), message: WITHDRAWAL_MESSAGES.sentToProvider }
        : withdrawalDecisions.answer(db, row, outcome),
  };
}

/**
 * An admin's reject of a withdrawal whose provider payout was held before its first send (decision 053): nothing
 * reached a bank, so, as for a pending withdrawal, the reject is a decision on the request and flags no payee.
 */
export const heldPayoutDecisions: WithdrawalKind = {
  ...withdrawalDecisions,
  settle: async (db, row, outcome, request) => {
    await discardOpenChange(db, firstApprovalHandler, row.id, request.decider.kind === 'admin' ? { userId: request.decider.userId } : null);
    return settlementOf(db, row, outcome);
  },
};

/** The admins' withdrawal decisions for this process's configuration. */
export function withdrawalDecisionsFor(payoutProvider: PayoutProviderName | undefined): WithdrawalKind {
  return payoutProvider === undefined ? withdrawalDecisions : providerWithdrawalDecisions(payoutProvider);
}

async function settlementOf(db: Executor, row: WithdrawalRow, outcome: DecisionOutcome): Promise<Settlement> {
  if (outcome === 'approved') {
    return {
      movements: [
        {
          from: house('withdrawals_pending'),
          to: house('withdrawals_paid'),
          amountUsdtMicros: row.amountUsdtMicros,
          reason: 'withdrawal_payout',
          referenceId: row.id,
        },
      ],
      targetUserId: row.userId,
      auditAfter: { status: 'approved', amountUsdtMicros: row.amountUsdtMicros, amountInrPaise: row.amountInrPaise, payoutReference: row.payoutReference },
      events: [{ type: 'wallet.updated', userId: row.userId, reason: 'withdrawal.approved' }],
      notifications: [withdrawalNotification(row, outcome)],
    };
  }
  // Every reject (an admin's, a batch's failed row, the provider's failure) first repays what a referral reward's
  // write-off counted as spent while this withdrawal held the money (decision 045).
  const recovered = await recoverWrittenOffRewards(db, { userId: row.userId, amountUsdtMicros: row.amountUsdtMicros, heldAt: row.createdAt });
  return {
    movements: [
      {
        from: house('withdrawals_pending'),
        to: wallet(row.userId),
        amountUsdtMicros: row.amountUsdtMicros,
        reason: 'withdrawal_refund',
        referenceId: row.id,
      },
      ...recovered,
    ],
    targetUserId: row.userId,
    auditAfter: { status: 'rejected', refundedUsdtMicros: row.amountUsdtMicros, reason: row.rejectionReason },
    events: [{ type: 'wallet.updated', userId: row.userId, reason: 'withdrawal.rejected' }],
    notifications: [withdrawalNotification(row, outcome)],
  };
}

/**
 * The second admin's confirm (POST /api/admin/pending-changes/:id/confirm) of a first approval: the
 * withdrawal must still be in the state it was approved in, then it is approved through the shared
 * decision code in the confirmation's transaction.
 */
export const firstApprovalHandler: ChangeHandler<'large_withdrawal_approval'> = {
  kind: 'large_withdrawal_approval',
  lockSubject: async (transaction, withdrawalId) => {
    await withdrawalRepository.findByIdForUpdate(transaction, withdrawalId);
  },
  apply: (transaction, change, decider) => confirmFirstApproval(transaction, withdrawalDecisions, change, decider),
};

/** The confirm of a first approval for this process's configuration: with a payout provider, the confirmed withdrawal is sent through it. */
export function firstApprovalHandlerFor(payoutProvider: PayoutProviderName | undefined): ChangeHandler<'large_withdrawal_approval'> {
  if (payoutProvider === undefined) return firstApprovalHandler;
  const decisions = providerWithdrawalDecisions(payoutProvider);
  return { ...firstApprovalHandler, apply: (transaction, change, decider) => confirmFirstApproval(transaction, decisions, change, decider) };
}

async function confirmFirstApproval(
  transaction: Executor,
  kind: WithdrawalKind,
  change: StoredPendingChange<'large_withdrawal_approval'>,
  decider: Actor,
): Promise<void> {
  const { payload } = change;
  const withdrawal = await withdrawalRepository.findByIdForUpdate(transaction, payload.withdrawalId);
  if (!withdrawal || withdrawal.status !== payload.from) throw AppError.conflict(PENDING_CHANGE_MESSAGES.staleWithdrawal, 'STALE_CHANGE');
  await decideInTransaction(transaction, kind, {
    id: withdrawal.id,
    outcome: 'approved',
    decider: { kind: 'admin', userId: decider.userId, ipAddress: decider.ipAddress },
    details: { payoutReference: payload.payoutReference ?? undefined },
    from: payload.from,
  });
}

/** The withdrawal, locked until the transaction ends (the payout provider's answer settles it under this lock). */
export async function findWithdrawalForUpdate(db: Executor, id: string): Promise<WithdrawalRow | undefined> {
  return withdrawalRepository.findByIdForUpdate(db, id);
}

/**
 * Before an admin's approval changes anything: a UTR given is of its rail's form and on no other withdrawal, a
 * withdrawal held by an open chain incident is not sent, and a large one waits for a second admin.
 * `referenceRequired`: without a payout provider every approval records a payment made by hand, so even a first
 * approval carries the UTR the confirm will record.
 */
async function gateApproval(
  db: Executor,
  row: WithdrawalRow,
  request: DecisionRequest<WithdrawalDecisionDetails>,
  options: { referenceRequired: boolean },
): Promise<ApprovalGate<WithdrawalDecisionDetails, FirstApprovalResponse>> {
  if (request.details.payoutReference !== undefined) await checkManualPayoutReference(db, row, request.details.payoutReference);
  // A request made before its customer's deposit vanished from the chain was not held by decision 036's
  // check: while the incident is open, an admin cannot send it (a payout already under way still settles).
  if (request.decider.kind === 'admin' && row.status === 'pending' && (await heldByOpenIncidents(db, row.userId)) > 0n) {
    throw AppError.conflict(CHAIN_INCIDENT_MESSAGES.approvalHeld, 'DEPOSIT_ON_HOLD');
  }
  return request.decider.kind === 'admin'
    ? gateLargeApproval(db, row, { userId: request.decider.userId, ipAddress: request.decider.ipAddress }, request.details, options)
    : { kind: 'proceed' };
}

/**
 * A payment made by hand is recorded only with its UTR (decision 049), of the form of the rail it was paid by (the
 * rule a batch's results follow, decision 038), and carried by no other withdrawal.
 */
async function checkManualPayoutReference(db: Executor, row: WithdrawalRow, payoutReference: string | null | undefined): Promise<void> {
  if (payoutReference === undefined || payoutReference === null) {
    throw AppError.validation(WITHDRAWAL_MESSAGES.payoutReferenceRequired, { payoutReference: WITHDRAWAL_MESSAGES.payoutReferenceRequired });
  }
  const mode = paymentModeFor(row.amountInrPaise - row.tdsInrPaise, row.upiId);
  if (!utrHasFormOf(mode, payoutReference)) {
    const message = PAYOUT_BATCH_MESSAGES.utrMalformed(mode);
    throw AppError.validation(message, { payoutReference: message });
  }
  await refuseUsedPayoutReference(db, row.id, payoutReference);
}

/** What an admin gives with a decision on a withdrawal. */
export type WithdrawalDecisionDetails = { payoutReference?: string | undefined; reason?: string | undefined };

/**
 * A withdrawal that needs two admins while two or more exist (decision 017): it, or the customer's or
 * the payee account's withdrawals over the rolling window with it, come to more than the large-withdrawal
 * setting (decision 038).
 */
async function needsTwoApprovals(db: Executor, row: WithdrawalRow, thresholdInrPaise: bigint | null): Promise<boolean> {
  return thresholdInrPaise !== null && (await rollingWindowOverLimit(db, row, thresholdInrPaise));
}

/**
 * The large-withdrawal amount while two or more admins exist, above which an approval needs a second
 * admin (decisions 017 and 038); null when one admin's word is enough. Payout batches also leave out
 * withdrawals over it: a bank file is paid on one admin's word, so a large withdrawal is paid through
 * its own two approvals instead.
 */
export async function twoAdminThresholdInrPaise(db: Executor): Promise<bigint | null> {
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
async function gateLargeApproval(
  db: Executor,
  row: WithdrawalRow,
  actor: Actor,
  details: WithdrawalDecisionDetails,
  options: { referenceRequired: boolean },
): Promise<ApprovalGate<WithdrawalDecisionDetails, FirstApprovalResponse>> {
  // Locked, so that two admins approving at once are served one after the other: the second sees the first's approval.
  const locked = await withdrawalRepository.findByIdForUpdate(db, row.id);
  // Not pending any more: the decision's conditional update gives the usual answer.
  if (!locked || locked.status !== 'pending') return { kind: 'proceed' };
  const open = await findOpenChange(db, 'large_withdrawal_approval', row.id);
  const openFirstApproval = open?.payload.from === 'pending' ? open : undefined;
  // The admin who gave the first approval never gives the second, even when the withdrawal no longer
  // needs two (the large-withdrawal amount was raised since, or an admin left).
  if (openFirstApproval?.requestedByUserId === actor.userId) throw AppError.conflict(PENDING_CHANGE_MESSAGES.ownApprovalAgain, 'CHANGE_ALREADY_WAITING');
  if (!(await needsTwoApprovals(db, locked, await twoAdminThresholdInrPaise(db)))) return { kind: 'proceed' };
  if (openFirstApproval) {
    await confirmOpenChange(db, firstApprovalHandler, openFirstApproval, actor);
    return { kind: 'proceed', details: { ...details, payoutReference: details.payoutReference ?? openFirstApproval.payload.payoutReference ?? undefined } };
  }
  // A first approval given while the withdrawal was in a payout batch that was cancelled since no longer applies.
  if (open) await discardOpenChange(db, firstApprovalHandler, row.id, actor);
  if (options.referenceRequired) await checkManualPayoutReference(db, locked, details.payoutReference);
  const pendingChange = await requestChange(db, 'large_withdrawal_approval', approvalPayload(locked, 'pending', details.payoutReference), actor);
  return { kind: 'defer', statusCode: 202, body: { message: PENDING_CHANGE_MESSAGES.firstApproval, pendingChange } };
}

/**
 * A payout batch's "paid" row for a withdrawal that needs two admins: it is not marked paid but
 * recorded as a first approval with the UTR (or found already waiting), for a second admin to confirm.
 * Answers 'proceed' when one admin's word is enough. `thresholdInrPaise` is twoAdminThresholdInrPaise's,
 * read once for the whole results file.
 */
export async function gateBatchPayment(
  db: Executor,
  row: WithdrawalRow,
  actor: Actor,
  utr: string | undefined,
  thresholdInrPaise: bigint | null,
): Promise<'proceed' | 'awaiting'> {
  if (!(await needsTwoApprovals(db, row, thresholdInrPaise))) return 'proceed';
  const open = await findOpenChange(db, 'large_withdrawal_approval', row.id);
  if (open?.payload.from === 'processing') return 'awaiting';
  if (row.userId === actor.userId) throw AppError.forbidden(WITHDRAWAL_MESSAGES.ownRequest);
  if (open) await discardOpenChange(db, firstApprovalHandler, row.id, actor);
  await requestChange(db, 'large_withdrawal_approval', approvalPayload(row, 'processing', utr), actor);
  return 'awaiting';
}
