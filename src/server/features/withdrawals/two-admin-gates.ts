import { PENDING_CHANGE_MESSAGES, type FirstApprovalResponse } from '#shared/contracts/pending-changes';
import { WITHDRAWAL_MESSAGES } from '#shared/contracts/withdrawals';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { ApprovalGate } from '../../platform/decisions/decide.ts';
import {
  confirmOpenChange,
  discardOpenChange,
  findOpenChange,
  needsSecondAdmin,
  requestChange,
  type Actor,
  type WithdrawalApprovalPayload,
} from '../pending-changes/service.ts';
import { getSettings } from '../settings/service.ts';
import * as withdrawalRepository from './repository.ts';
import type { WithdrawalRow } from './repository.ts';

/** What an admin gives with a decision on a withdrawal. */
export type WithdrawalDecisionDetails = { payoutReference?: string | undefined; reason?: string | undefined };

/** A withdrawal that needs two admins: worth more than the large-withdrawal setting while two or more admins exist (decision 017). */
async function needsTwoApprovals(db: Executor, row: WithdrawalRow): Promise<boolean> {
  const settings = await getSettings(db);
  return row.amountInrPaise > settings.largeWithdrawalInrPaise && (await needsSecondAdmin(db));
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
export async function gateLargeApproval(db: Executor, row: WithdrawalRow, actor: Actor, details: WithdrawalDecisionDetails): Promise<ApprovalGate<WithdrawalDecisionDetails, FirstApprovalResponse>> {
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
