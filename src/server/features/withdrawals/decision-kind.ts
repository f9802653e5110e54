import { withdrawalStatusSchema } from '#shared/contracts/enums';
import { PENDING_CHANGE_MESSAGES, type FirstApprovalResponse } from '#shared/contracts/pending-changes';
import { WITHDRAWAL_MESSAGES, type AdminWithdrawal } from '#shared/contracts/withdrawals';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { decideInTransaction, type DecisionOutcome, type RequestKind, type Settlement } from '../../platform/decisions/decide.ts';
import { house, wallet } from '../../platform/ledger/ledger.ts';
import { withdrawalDecided } from '../notifications/templates.ts';
import { discardOpenChange, type Actor, type ChangeHandler, type PendingChangeRow, type WithdrawalApprovalPayload } from '../pending-changes/service.ts';
import * as withdrawalRepository from './repository.ts';
import type { WithdrawalRow } from './repository.ts';
import { gateLargeApproval, type WithdrawalDecisionDetails } from './two-admin-gates.ts';
import { adminView } from './views.ts';

function withdrawalNotification(row: WithdrawalRow, outcome: DecisionOutcome) {
  // What reached the bank is the net amount: the gross less the TDS withheld.
  const amountInrPaise = outcome === 'approved' ? row.amountInrPaise - row.tdsInrPaise : row.amountInrPaise;
  return withdrawalDecided({ ...row, amountInrPaise, accountNumberLast4: row.accountNumber.slice(-4), outcome });
}

/**
 * Withdrawals as a request kind of the decision flow. Approving means the INR
 * was paid to the customer's bank: the held USDT moves from withdrawals pending
 * to withdrawals paid. Rejecting refunds the USDT that was held (not the INR
 * amount, as the original app wrongly did).
 */
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
  gateApproval: (db, row, request) =>
    request.decider.kind === 'admin'
      ? gateLargeApproval(db, row, { userId: request.decider.userId, ipAddress: request.decider.ipAddress }, request.details)
      : Promise.resolve({ kind: 'proceed' }),
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
