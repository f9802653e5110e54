import {
  PAYOUT_BATCH_MAX_WITHDRAWALS,
  PAYOUT_BATCH_MESSAGES,
  type PayoutBatch,
  type PayoutResult,
  type PayoutResultRow,
} from '#shared/contracts/payout-batches';
import type { WithdrawalStatus } from '#shared/contracts/money-common';
import { inrPaiseToWire, usdtMicrosToWire } from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { decideInTransaction } from '../../platform/decisions/decide.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { findEarlierAnswer, hashRequest, runOnce, type Answer, type IdempotencyScope } from '../../platform/idempotency/service.ts';
import { decodeCursor, toPage } from '../../platform/pagination/cursor.ts';
import { csvCell } from '../../platform/csv.ts';
import { gateBatchPayment, largestBatchableInrPaise, withdrawalDecisions } from '../withdrawals/service.ts';
import * as batchRepository from './repository.ts';
import type { PayoutBatchWithCounts } from './repository.ts';

export interface AdminActor {
  adminUserId: string;
  ipAddress?: string | undefined;
}

/** IMPS carries at most 5,00,000 INR per payment; NEFT has no upper limit. */
export const IMPS_MAX_INR_PAISE = 500_000_00n;
/** UPI carries at most 1,00,000 INR per payment. */
export const UPI_MAX_INR_PAISE = 100_000_00n;

/** See docs/decisions/016: UPI when the customer gave a UPI id and UPI can carry the amount, else IMPS up to its limit, else NEFT. */
export function paymentModeFor(amountInrPaise: bigint, upiId: string | null): 'UPI' | 'IMPS' | 'NEFT' {
  if (upiId !== null && amountInrPaise <= UPI_MAX_INR_PAISE) return 'UPI';
  return amountInrPaise <= IMPS_MAX_INR_PAISE ? 'IMPS' : 'NEFT';
}

function toBatchView(row: PayoutBatchWithCounts): PayoutBatch {
  const status = row.status === 'cancelled' ? 'cancelled' : row.processingCount > 0 ? 'open' : 'completed';
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    count: row.withdrawalCount,
    totalInr: inrPaiseToWire(row.totalInrPaise),
    status,
    processingCount: row.processingCount,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    createdByUserId: row.createdByUserId,
    createdBy:
      row.createdByUserId !== null && row.createdByName !== null && row.createdByEmail !== null
        ? { id: row.createdByUserId, name: row.createdByName, email: row.createdByEmail }
        : null,
  };
}

async function batchView(db: Executor, id: string): Promise<PayoutBatch> {
  const row = await batchRepository.findBatchWithCounts(db, id);
  if (!row) throw AppError.notFound(PAYOUT_BATCH_MESSAGES.notFound);
  return toBatchView(row);
}

/**
 * Puts pending withdrawals into a new batch, all of them `processing`, in one
 * transaction. Named withdrawals must all be pending and in no batch, or
 * nothing happens and the answer names the ones that are not; without names
 * the oldest pending ones are taken, up to PAYOUT_BATCH_MAX_WITHDRAWALS.
 */
export async function createBatch(
  db: Database,
  actor: AdminActor,
  withdrawalIds: string[] | undefined,
  idempotencyKey?: string,
): Promise<Answer<{ batch: PayoutBatch; message: string }>> {
  if (withdrawalIds && new Set(withdrawalIds).size !== withdrawalIds.length) {
    throw AppError.fieldError('withdrawalIds', PAYOUT_BATCH_MESSAGES.duplicateIds);
  }
  // A retry after a lost answer gets the batch it made, instead of a second batch of the next pending withdrawals.
  const scope = adminScope(actor, idempotencyKey, 'payout_batch.create', { withdrawalIds: withdrawalIds ? [...withdrawalIds].sort().join(',') : '(oldest pending)' });
  const earlier = await findEarlierAnswer<{ batch: PayoutBatch; message: string }>(db, scope);
  if (earlier) return earlier;
  return runOnce(db, scope, async (transaction) => ({
    statusCode: 201,
    body: { batch: await createBatchInTransaction(transaction, actor, withdrawalIds), message: PAYOUT_BATCH_MESSAGES.created },
  }));
}

function adminScope(actor: AdminActor, idempotencyKey: string | undefined, operation: string, fields: Record<string, string>): IdempotencyScope | undefined {
  return idempotencyKey ? { userId: actor.adminUserId, key: idempotencyKey, operation, requestHash: hashRequest(fields) } : undefined;
}

async function createBatchInTransaction(transaction: Executor, actor: AdminActor, withdrawalIds: string[] | undefined): Promise<PayoutBatch> {
  // Four eyes (decision 006): the bank pays a batch's file, so an admin's own withdrawal never enters a batch that admin makes.
  if (withdrawalIds) {
    const own = await batchRepository.findNamedOwnedBy(transaction, withdrawalIds, actor.adminUserId);
    if (own.length > 0) {
      const message = PAYOUT_BATCH_MESSAGES.ownWithdrawals(own);
      throw new AppError(403, 'FORBIDDEN', message, { fields: { withdrawalIds: message } });
    }
  }
  const largestBatchable = await largestBatchableInrPaise(transaction);
  if (withdrawalIds && largestBatchable !== null) {
    const large = await batchRepository.findNamedAbove(transaction, withdrawalIds, largestBatchable);
    if (large.length > 0) {
      const message = PAYOUT_BATCH_MESSAGES.needsTwoAdmins(large);
      throw new AppError(409, 'CONFLICT', message, { fields: { withdrawalIds: message } });
    }
  }
  const batch = await batchRepository.insertBatch(transaction, { createdByUserId: actor.adminUserId });
  let claimed;
  if (withdrawalIds) {
    claimed = await batchRepository.claimNamed(transaction, batch.id, withdrawalIds);
    if (claimed.length !== withdrawalIds.length) {
      const claimedIds = new Set(claimed.map((row) => row.id));
      const refused = withdrawalIds.filter((id) => !claimedIds.has(id));
      throw new AppError(409, 'CONFLICT', PAYOUT_BATCH_MESSAGES.notPending(refused), { fields: { withdrawalIds: PAYOUT_BATCH_MESSAGES.notPending(refused) } });
    }
  } else {
    claimed = await batchRepository.claimOldestPending(transaction, batch.id, {
      limit: PAYOUT_BATCH_MAX_WITHDRAWALS,
      maxAmountInrPaise: largestBatchable,
      excludedUserId: actor.adminUserId,
    });
    if (claimed.length === 0) throw AppError.conflict(PAYOUT_BATCH_MESSAGES.nothingPending);
  }
  const totalInrPaise = claimed.reduce((sum, row) => sum + row.amountInrPaise, 0n);
  await batchRepository.setTotals(transaction, batch.id, { withdrawalCount: claimed.length, totalInrPaise });
  await recordAudit(transaction, {
    actorUserId: actor.adminUserId,
    action: 'payout_batch.create',
    targetType: 'payout_batch',
    targetId: batch.id,
    after: { count: claimed.length, totalInrPaise, withdrawalIds: claimed.map((row) => row.id) },
    ipAddress: actor.ipAddress,
  });
  for (const userId of new Set(claimed.map((row) => row.userId))) {
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'withdrawal.processing' });
  }
  await publishEvent(transaction, { type: 'admin.queue.updated' });
  return batchView(transaction, batch.id);
}

export async function listBatches(db: Database, options: { cursor?: string | undefined; limit: number }): Promise<{ items: PayoutBatch[]; nextCursor: string | null }> {
  const rows = await batchRepository.listBatches(db, { cursor: decodeCursor(options.cursor), limit: options.limit });
  const page = toPage(rows, options.limit);
  return { items: page.rows.map(toBatchView), nextCursor: page.nextCursor };
}

export async function getBatch(db: Database, id: string) {
  const batch = await batchView(db, id);
  const withdrawals = await batchRepository.listBatchWithdrawals(db, id);
  return {
    batch,
    withdrawals: withdrawals.map((row) => ({
      id: row.id,
      amountInr: inrPaiseToWire(row.amountInrPaise),
      tdsInr: inrPaiseToWire(row.tdsInrPaise),
      netInr: inrPaiseToWire(row.amountInrPaise - row.tdsInrPaise),
      amountUsdt: usdtMicrosToWire(row.amountUsdtMicros),
      status: row.status as WithdrawalStatus,
      beneficiaryName: row.accountHolderName,
      accountNumber: row.accountNumber,
      ifscCode: row.ifscCode,
      bankName: row.bankName,
      upiId: row.upiId,
      paymentMode: paymentModeFor(row.amountInrPaise - row.tdsInrPaise, row.upiId),
      createdAt: row.createdAt.toISOString(),
      payoutReference: row.payoutReference,
      rejectionReason: row.rejectionReason,
    })),
  };
}

const BANK_FILE_COLUMNS = [
  'Payment Mode',
  'Beneficiary Name',
  'Beneficiary Account Number',
  'IFSC',
  'Beneficiary UPI ID',
  'Amount (INR)',
  'Narration',
  'Withdrawal ID',
];

/**
 * The bank's bulk-payment file of a batch. It is built only from what the batch
 * froze (the withdrawals' bank snapshots and amounts, in request order), so every
 * download gives the same bytes; the download is audited.
 */
export async function batchCsv(db: Database, actor: AdminActor, id: string): Promise<{ csv: string; rows: number }> {
  return db.transaction(async (transaction) => {
    const batch = await batchRepository.findBatch(transaction, id);
    if (!batch) throw AppError.notFound(PAYOUT_BATCH_MESSAGES.notFound);
    if (batch.status === 'cancelled') throw AppError.conflict(PAYOUT_BATCH_MESSAGES.cancelled);
    const withdrawals = await batchRepository.listBatchWithdrawals(transaction, id);
    const lines = [BANK_FILE_COLUMNS.map(csvCell).join(',')];
    for (const withdrawal of withdrawals) {
      // The bank pays the net amount: the gross less the TDS withheld (docs/decisions/018).
      const netInrPaise = withdrawal.amountInrPaise - withdrawal.tdsInrPaise;
      const mode = paymentModeFor(netInrPaise, withdrawal.upiId);
      lines.push(
        [
          mode,
          withdrawal.accountHolderName,
          withdrawal.accountNumber,
          withdrawal.ifscCode,
          mode === 'UPI' ? (withdrawal.upiId ?? '') : '',
          inrPaiseToWire(netInrPaise),
          `Rupeedesk withdrawal ${withdrawal.id}`,
          withdrawal.id,
        ]
          .map(csvCell)
          .join(','),
      );
    }
    await recordAudit(transaction, {
      actorUserId: actor.adminUserId,
      action: 'payout_batch.download',
      targetType: 'payout_batch',
      targetId: id,
      after: { rows: withdrawals.length },
      ipAddress: actor.ipAddress,
    });
    // CRLF line ends, as RFC 4180 and banks' upload tools expect.
    return { csv: `${lines.join('\r\n')}\r\n`, rows: withdrawals.length };
  });
}

/**
 * Applies a bank's results to a batch, one transaction per row, each through
 * the shared decision code from `processing`: paid approves with the UTR as the
 * payout reference, failed rejects with the reason and refunds the USDT. A row
 * whose result is already recorded is reported `already_applied` and moves
 * nothing, so posting the same file twice is harmless; a row of another batch,
 * or in another state, is refused with its reason.
 */
export async function applyResults(
  db: Database,
  actor: AdminActor,
  batchId: string,
  rows: PayoutResultRow[],
): Promise<{ batch: PayoutBatch; results: PayoutResult[]; applied: number; alreadyApplied: number; refused: number; awaitingSecondApproval: number }> {
  if (!(await batchRepository.findBatch(db, batchId))) throw AppError.notFound(PAYOUT_BATCH_MESSAGES.notFound);
  const results: PayoutResult[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const refuse = (message: string): PayoutResult => ({ withdrawalId: row.withdrawalId, outcome: row.outcome, result: 'refused', message });
    if (seen.has(row.withdrawalId)) {
      results.push(refuse(PAYOUT_BATCH_MESSAGES.duplicateRow));
      continue;
    }
    seen.add(row.withdrawalId);
    try {
      results.push(await db.transaction((transaction) => applyResultRow(transaction, actor, batchId, row)));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push(refuse(error.message));
    }
  }
  const counts = {
    applied: results.filter((result) => result.result === 'applied').length,
    alreadyApplied: results.filter((result) => result.result === 'already_applied').length,
    refused: results.filter((result) => result.result === 'refused').length,
    awaitingSecondApproval: results.filter((result) => result.result === 'awaiting_second_approval').length,
  };
  await recordAudit(db, {
    actorUserId: actor.adminUserId,
    action: 'payout_batch.results',
    targetType: 'payout_batch',
    targetId: batchId,
    after: { rows: rows.length, ...counts },
    ipAddress: actor.ipAddress,
  });
  return { batch: await batchView(db, batchId), results, ...counts };
}

async function applyResultRow(transaction: Executor, actor: AdminActor, batchId: string, row: PayoutResultRow): Promise<PayoutResult> {
  const answer = (result: PayoutResult['result'], message: string | null = null): PayoutResult => ({ withdrawalId: row.withdrawalId, outcome: row.outcome, result, message });
  // The batch first (shared), then the withdrawal: the same order as a cancel, which takes the batch exclusively.
  const batch = await batchRepository.findBatch(transaction, batchId, 'share');
  if (!batch) throw AppError.notFound(PAYOUT_BATCH_MESSAGES.notFound);
  if (batch.status === 'cancelled') return answer('refused', PAYOUT_BATCH_MESSAGES.cancelled);
  const withdrawal = await batchRepository.findWithdrawalLocked(transaction, row.withdrawalId);
  if (!withdrawal || withdrawal.payoutBatchId !== batchId) return answer('refused', PAYOUT_BATCH_MESSAGES.notInBatch);

  if (withdrawal.status === 'processing') {
    if (row.outcome === 'paid' && row.utr === undefined) return answer('refused', PAYOUT_BATCH_MESSAGES.utrRequired);
    // Two-person control (decision 017): a large withdrawal is marked paid only once a second admin confirms.
    if (row.outcome === 'paid' && (await gateBatchPayment(transaction, withdrawal, { userId: actor.adminUserId, ipAddress: actor.ipAddress }, row.utr)) === 'awaiting') {
      return answer('awaiting_second_approval', PAYOUT_BATCH_MESSAGES.awaitingSecondApproval);
    }
    await decideInTransaction(transaction, withdrawalDecisions, {
      id: withdrawal.id,
      outcome: row.outcome === 'paid' ? 'approved' : 'rejected',
      decider: { kind: 'admin', userId: actor.adminUserId, ipAddress: actor.ipAddress },
      details: row.outcome === 'paid' ? { payoutReference: row.utr } : { reason: row.reason },
      from: 'processing',
    });
    return answer('applied');
  }
  const sameOutcome =
    (row.outcome === 'paid' && withdrawal.status === 'approved' && (row.utr === undefined || row.utr === withdrawal.payoutReference)) ||
    (row.outcome === 'failed' && withdrawal.status === 'rejected');
  if (sameOutcome) return answer('already_applied', PAYOUT_BATCH_MESSAGES.alreadyApplied);
  return answer('refused', PAYOUT_BATCH_MESSAGES.decidedOtherwise(withdrawal.status));
}

/** Cancels an open batch in which nothing is decided yet: its withdrawals return to pending and can be batched again. */
export async function cancelBatch(db: Database, actor: AdminActor, id: string, idempotencyKey?: string): Promise<Answer<{ batch: PayoutBatch; message: string }>> {
  const scope = adminScope(actor, idempotencyKey, 'payout_batch.cancel', { batchId: id });
  const earlier = await findEarlierAnswer<{ batch: PayoutBatch; message: string }>(db, scope);
  if (earlier) return earlier;
  return runOnce(db, scope, async (transaction) => ({
    statusCode: 200,
    body: { batch: await cancelBatchInTransaction(transaction, actor, id), message: PAYOUT_BATCH_MESSAGES.cancelledMessage },
  }));
}

async function cancelBatchInTransaction(transaction: Executor, actor: AdminActor, id: string): Promise<PayoutBatch> {
  const batch = await batchRepository.findBatch(transaction, id, 'update');
  if (!batch) throw AppError.notFound(PAYOUT_BATCH_MESSAGES.notFound);
  if (batch.status === 'cancelled') throw AppError.conflict(PAYOUT_BATCH_MESSAGES.cancelled);
  if ((await batchRepository.countDecided(transaction, id)) > 0) throw AppError.conflict(PAYOUT_BATCH_MESSAGES.notCancellable);
  const released = await batchRepository.releaseWithdrawals(transaction, id);
  await batchRepository.markCancelled(transaction, id);
  await recordAudit(transaction, {
    actorUserId: actor.adminUserId,
    action: 'payout_batch.cancel',
    targetType: 'payout_batch',
    targetId: id,
    before: { status: 'open' },
    after: { status: 'cancelled', releasedWithdrawalIds: released.map((row) => row.id) },
    ipAddress: actor.ipAddress,
  });
  for (const userId of new Set(released.map((row) => row.userId))) {
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'withdrawal.pending' });
  }
  await publishEvent(transaction, { type: 'admin.queue.updated' });
  return batchView(transaction, id);
}
