import { CHAIN_INCIDENT_MESSAGES } from '#shared/contracts/chain-incidents';
import { FREEZE_MESSAGES } from '#shared/contracts/kyc';
import { createHash } from 'node:crypto';
import {
  PAYOUT_BATCH_MAX_WITHDRAWALS,
  PAYOUT_BATCH_MESSAGES,
  paymentModeFor,
  utrHasFormOf,
  type PayoutBatch,
  type PayoutResult,
  type PayoutResultRow,
  type PayoutResultsPreview,
} from '#shared/contracts/payout-batches';
import type { FirstApprovalResponse } from '#shared/contracts/pending-changes';
import { inrPaiseToWire, parseInrPaise, usdtMicrosToWire } from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { decideInTransaction } from '../../platform/decisions/decide.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { findEarlierAnswer, hashRequest, runOnce, type Answer, type IdempotencyScope } from '../../platform/idempotency/service.ts';
import { decodeCursor, toPage } from '../../platform/pagination/cursor.ts';
import { confirmOpenChange, findOpenChange, needsSecondAdmin, requestChange, type ChangeHandler } from '../pending-changes/service.ts';
import { gateBatchPayment, twoAdminThresholdInrPaise, withdrawalDecisions } from '../withdrawals/service.ts';
import { getPayoutFileSettings } from '../settings/service.ts';
import { lockWriteOffsBeforeRefunds } from '../referrals/service.ts';
import type { PayoutFileFormat } from '#shared/contracts/payout-file-formats';
import { bankFileIn, paymentsOutsideLayoutRange, type BankFile } from './bank-file-layouts.ts';
import * as batchRepository from './repository.ts';
import type { PayoutBatchRow, PayoutBatchWithCounts, WithdrawalRow } from './repository.ts';

export interface AdminActor {
  adminUserId: string;
  ipAddress?: string | undefined;
}

/**
 * Which hold keeps a withdrawal's customer's money from leaving: a frozen account (decision 047) or an open chain
 * incident (decisions 036, 045). The holds that keep it out of a bank file keep a provider payout unsent too (decision 049).
 */
export async function payoutHoldOf(db: Executor, withdrawalId: string): Promise<'frozen' | 'incident' | null> {
  const { frozen, heldByIncident } = await batchRepository.findNamedHeld(db, [withdrawalId]);
  if (frozen.length > 0) return 'frozen';
  return heldByIncident.length > 0 ? 'incident' : null;
}

const netInrPaiseOf = (row: WithdrawalRow): bigint => row.amountInrPaise - row.tdsInrPaise;

function toBatchView(row: PayoutBatchWithCounts): PayoutBatch {
  const status = row.status === 'cancelled' ? 'cancelled' : row.processingCount > 0 ? 'open' : 'completed';
  const person = (id: string | null, name: string | null, email: string | null) =>
    id !== null && name !== null && email !== null ? { id, name, email } : null;
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    count: row.withdrawalCount,
    totalInr: inrPaiseToWire(row.totalInrPaise),
    status,
    processingCount: row.processingCount,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    createdByUserId: row.createdByUserId,
    createdBy: person(row.createdByUserId, row.createdByName, row.createdByEmail),
    issuedAt: row.issuedAt?.toISOString() ?? null,
    issuedBy: person(row.issuedByUserId, row.issuedByName, row.issuedByEmail),
    fileSha256: row.fileSha256,
    fileFormat: row.fileFormat,
    downloadCount: row.downloadCount,
    inDoubtCount: row.status === 'cancelled' ? row.processingCount : 0,
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
  const scope = adminScope(actor, idempotencyKey, 'payout_batch.create', {
    withdrawalIds: withdrawalIds ? [...withdrawalIds].sort().join(',') : '(oldest pending)',
  });
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
  // Withdrawals over the two-admin amount stay out of batches (decision 017).
  const largestBatchable = await twoAdminThresholdInrPaise(transaction);
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
    const { heldByIncident, frozen } = await batchRepository.findNamedHeld(transaction, withdrawalIds);
    if (heldByIncident.length > 0) {
      const message = CHAIN_INCIDENT_MESSAGES.batchHeld(heldByIncident);
      throw new AppError(409, 'DEPOSIT_ON_HOLD', message, { fields: { withdrawalIds: message } });
    }
    if (frozen.length > 0) {
      const message = FREEZE_MESSAGES.batchRefused(frozen);
      throw new AppError(409, 'ACCOUNT_FROZEN', message, { fields: { withdrawalIds: message } });
    }
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

export async function listBatches(
  db: Database,
  options: { cursor?: string | undefined; limit: number },
): Promise<{ items: PayoutBatch[]; nextCursor: string | null }> {
  const rows = await batchRepository.listBatches(db, { cursor: decodeCursor(options.cursor), limit: options.limit });
  const page = toPage(rows, options.limit);
  return { items: page.rows.map(toBatchView), nextCursor: page.nextCursor };
}

export async function getBatch(db: Database, id: string) {
  const batch = await batchView(db, id);
  const withdrawals = await batchRepository.listBatchWithdrawals(db, id);
  return {
    batch,
    fileRefusal: batch.issuedAt === null && batch.status !== 'cancelled' ? layoutRefusal((await getPayoutFileSettings(db)).format, withdrawals) : null,
    withdrawals: withdrawals.map((row) => ({
      id: row.id,
      reference: row.reference,
      inDoubt: batch.status === 'cancelled' && row.status === 'processing',
      amountInr: inrPaiseToWire(row.amountInrPaise),
      tdsInr: inrPaiseToWire(row.tdsInrPaise),
      netInr: inrPaiseToWire(netInrPaiseOf(row)),
      amountUsdt: usdtMicrosToWire(row.amountUsdtMicros),
      status: row.status,
      beneficiaryName: row.accountHolderName,
      accountNumber: row.accountNumber,
      ifscCode: row.ifscCode,
      bankName: row.bankName,
      upiId: row.upiId,
      paymentMode: paymentModeFor(netInrPaiseOf(row), row.upiId),
      createdAt: row.createdAt.toISOString(),
      payoutReference: row.payoutReference,
      rejectionReason: row.rejectionReason,
    })),
  };
}

/** One line on the file's earlier issue, for the download's answer and the screen; ASCII, as an HTTP header must be. */
function alreadyDownloadedNotice(batch: PayoutBatchWithCounts): string | null {
  if (batch.issuedAt === null) return null;
  const by = batch.issuedByName !== null && batch.issuedByEmail !== null ? `${batch.issuedByName} (${batch.issuedByEmail})` : 'an admin who is gone';
  return PAYOUT_BATCH_MESSAGES.alreadyDownloaded(batch.issuedAt, by).replace(/[^\x20-\x7e]/g, '?');
}

/**
 * A layout with a per-row amount range (Plural's ₹1 to ₹10 lakh) is refused before the file is issued when a row is
 * outside it (409, naming the withdrawals): nothing is recorded, so one admin can still cancel the batch and its
 * withdrawals go back to pending, or the admin picks another layout and downloads again (decision 067).
 */
function refuseRowsOutsideLayoutRange(format: PayoutFileFormat, withdrawals: WithdrawalRow[]): void {
  const refusal = layoutRefusal(format, withdrawals);
  if (refusal !== null) throw AppError.conflict(refusal);
}

/** The refusal's message when rows are outside the layout's per-row range; null when the file can be issued in it. */
function layoutRefusal(format: PayoutFileFormat, withdrawals: WithdrawalRow[]): string | null {
  const check = paymentsOutsideLayoutRange(format, withdrawals);
  if (check === undefined || check.outside.length === 0) return null;
  return PAYOUT_BATCH_MESSAGES.outsideLayoutRange(format, check.range, check.outside);
}

/**
 * The bank's bulk-payment file of a batch. The first download issues it: who, when, the layout the
 * settings name (decision 064) and the SHA-256 of the bytes are recorded on the batch, and from then on
 * one admin can no longer cancel it (decision 038). Later downloads are in the layout the file was issued
 * in, so they have the same bytes. Every download is recorded and audited; a later one carries the notice of the first.
 */
export async function batchFile(db: Database, actor: AdminActor, id: string): Promise<BankFile & { rows: number; sha256: string; notice: string | null }> {
  return db.transaction(async (transaction) => {
    // Exclusive: a cancel and the first download are served one after the other.
    const locked = await batchRepository.findBatch(transaction, id, 'update');
    if (!locked) throw AppError.notFound(PAYOUT_BATCH_MESSAGES.notFound);
    if (locked.status === 'cancelled') throw AppError.conflict(PAYOUT_BATCH_MESSAGES.cancelled);
    const batch = await batchRepository.findBatchWithCounts(transaction, id);
    if (!batch) throw new Error(`payout batch ${id} vanished inside its own transaction`);
    const layout =
      locked.issuedAt === null
        ? await getPayoutFileSettings(transaction)
        : { format: locked.fileFormat ?? 'generic', debitAccountNumber: locked.fileDebitAccountNumber ?? '' };
    const withdrawals = await batchRepository.listBatchWithdrawals(transaction, id);
    // Before the first issue only: an issued file is served again byte for byte, whatever it holds (decision 067).
    if (locked.issuedAt === null) refuseRowsOutsideLayoutRange(layout.format, withdrawals);
    const file = bankFileIn(layout.format, layout.debitAccountNumber, id, withdrawals);
    const sha256 = createHash('sha256').update(file.body).digest('hex');
    const notice = alreadyDownloadedNotice(batch);
    const issuedNow = await batchRepository.markIssued(transaction, id, {
      userId: actor.adminUserId,
      fileSha256: sha256,
      fileFormat: layout.format,
      fileDebitAccountNumber: layout.debitAccountNumber,
    });
    await batchRepository.insertDownload(transaction, { batchId: id, userId: actor.adminUserId, fileSha256: sha256 });
    await recordAudit(transaction, {
      actorUserId: actor.adminUserId,
      action: 'payout_batch.download',
      targetType: 'payout_batch',
      targetId: id,
      after: { rows: withdrawals.length, sha256, format: layout.format, issued: issuedNow, firstIssuedAt: batch.issuedAt?.toISOString() ?? null },
      ipAddress: actor.ipAddress,
    });
    return { ...file, rows: withdrawals.length, sha256, notice };
  });
}

type Verdict = 'paid' | 'failed' | 'not_sent' | 'already_applied' | 'problem';
interface EvaluatedRow {
  row: number;
  input: PayoutResultRow;
  withdrawal: WithdrawalRow | undefined;
  verdict: Verdict;
  message: string | null;
}

/**
 * What each row of a results file would do to the batch. Rows are matched on the short reference
 * (or the withdrawal id); a paid row needs a UTR of its rail's form that no other row or withdrawal
 * carries. Reads only; `lock` locks the named withdrawals (in id order) for applying.
 */
async function evaluateResults(db: Executor, actor: AdminActor, batch: PayoutBatchRow, rows: PayoutResultRow[], lock: boolean): Promise<EvaluatedRow[]> {
  const references = [...new Set(rows.flatMap((row) => (row.reference === undefined ? [] : [row.reference])))];
  const ids = [...new Set(rows.flatMap((row) => (row.reference === undefined && row.withdrawalId !== undefined ? [row.withdrawalId] : [])))];
  const named = await batchRepository.findNamedWithdrawals(db, { references, ids }, lock);
  const byReference = new Map(named.map((row) => [row.reference, row]));
  const byId = new Map(named.map((row) => [row.id, row]));
  const utrs = [...new Set(rows.flatMap((row) => (row.utr === undefined ? [] : [row.utr])))];
  const utrOwners = new Map((await batchRepository.findByPayoutReferences(db, utrs)).map((owner) => [owner.payoutReference, owner]));
  const rowOfWithdrawal = new Map<string, number>();
  const rowOfUtr = new Map<string, number>();
  return rows.map((input, index): EvaluatedRow => {
    const row = index + 1;
    const withdrawal =
      input.reference !== undefined ? byReference.get(input.reference) : input.withdrawalId !== undefined ? byId.get(input.withdrawalId) : undefined;
    const verdict = (value: Verdict, message: string | null = null): EvaluatedRow => ({ row, input, withdrawal, verdict: value, message });
    const problem = (message: string) => verdict('problem', message);
    if (batch.status === 'cancelled' && batch.issuedAt === null) return problem(PAYOUT_BATCH_MESSAGES.cancelled);
    if (!withdrawal) return problem(input.reference !== undefined ? PAYOUT_BATCH_MESSAGES.unknownReference : PAYOUT_BATCH_MESSAGES.notInBatch);
    const earlierRow = rowOfWithdrawal.get(withdrawal.id);
    if (earlierRow !== undefined) return problem(PAYOUT_BATCH_MESSAGES.duplicateRow(earlierRow));
    rowOfWithdrawal.set(withdrawal.id, row);
    if (withdrawal.userId === actor.adminUserId) return problem(PAYOUT_BATCH_MESSAGES.ownWithdrawalResult);
    const netInrPaise = netInrPaiseOf(withdrawal);
    if (input.amountInr !== undefined) {
      const given = parseInrPaise(input.amountInr);
      if (!given.ok || given.value !== netInrPaise) return problem(PAYOUT_BATCH_MESSAGES.amountMismatch(inrPaiseToWire(netInrPaise), input.amountInr));
    }
    if (input.outcome === 'paid') {
      if (input.utr === undefined) return problem(PAYOUT_BATCH_MESSAGES.utrRequired);
      const mode = paymentModeFor(netInrPaise, withdrawal.upiId);
      if (!utrHasFormOf(mode, input.utr)) return problem(PAYOUT_BATCH_MESSAGES.utrMalformed(mode));
      const utrRow = rowOfUtr.get(input.utr);
      if (utrRow !== undefined) return problem(PAYOUT_BATCH_MESSAGES.utrUsedInFile(utrRow));
      rowOfUtr.set(input.utr, row);
      const owner = utrOwners.get(input.utr);
      if (owner && owner.id !== withdrawal.id) return problem(PAYOUT_BATCH_MESSAGES.utrUsedElsewhere(owner.reference));
    }
    const inThisBatch = withdrawal.payoutBatchId === batch.id;
    if (inThisBatch && withdrawal.status === 'processing') return verdict(input.outcome);
    const alreadyApplied =
      (inThisBatch && input.outcome === 'paid' && withdrawal.status === 'approved' && withdrawal.payoutReference === input.utr) ||
      (inThisBatch && input.outcome === 'failed' && withdrawal.status === 'rejected') ||
      (input.outcome === 'not_sent' && withdrawal.status === 'pending' && withdrawal.payoutBatchId === null);
    if (alreadyApplied) return verdict('already_applied', PAYOUT_BATCH_MESSAGES.alreadyApplied);
    if (!inThisBatch) return problem(PAYOUT_BATCH_MESSAGES.notInBatch);
    return problem(PAYOUT_BATCH_MESSAGES.decidedOtherwise(withdrawal.status));
  });
}

async function lockedBatchForResults(db: Executor, batchId: string): Promise<PayoutBatchRow> {
  // Shared: a cancel takes the batch exclusively, so a cancel and a results file cannot interleave.
  const batch = await batchRepository.findBatch(db, batchId, 'share');
  if (!batch) throw AppError.notFound(PAYOUT_BATCH_MESSAGES.notFound);
  return batch;
}

/** What a results file would do (decision 038): nothing changes; the admin confirms by applying the same rows. */
export async function previewResults(db: Database, actor: AdminActor, batchId: string, rows: PayoutResultRow[]): Promise<PayoutResultsPreview> {
  return db.transaction(async (transaction) => {
    const batch = await lockedBatchForResults(transaction, batchId);
    const evaluated = await evaluateResults(transaction, actor, batch, rows, false);
    const total = (verdict: Verdict) => {
      const matching = evaluated.filter((row) => row.verdict === verdict);
      return { count: matching.length, netInr: inrPaiseToWire(matching.reduce((sum, row) => sum + (row.withdrawal ? netInrPaiseOf(row.withdrawal) : 0n), 0n)) };
    };
    const named = new Set(evaluated.flatMap((row) => (row.withdrawal ? [row.withdrawal.id] : [])));
    const unsettled = (await batchRepository.listBatchWithdrawals(transaction, batchId)).filter((row) => row.status === 'processing' && !named.has(row.id));
    const problems = evaluated.filter((row) => row.verdict === 'problem').length;
    return {
      batch: await batchView(transaction, batchId),
      rows: evaluated.map((row) => ({
        row: row.row,
        reference: row.withdrawal?.reference ?? row.input.reference ?? null,
        withdrawalId: row.withdrawal?.id ?? null,
        outcome: row.input.outcome,
        utr: row.input.utr ?? null,
        netInr: row.withdrawal ? inrPaiseToWire(netInrPaiseOf(row.withdrawal)) : null,
        verdict: row.verdict,
        message: row.message,
      })),
      totals: { paid: total('paid'), failed: total('failed'), notSent: total('not_sent'), alreadyApplied: total('already_applied').count, problems },
      notInFile: unsettled.map((row) => ({ reference: row.reference, netInr: inrPaiseToWire(netInrPaiseOf(row)) })),
      canApply: problems === 0 && evaluated.some((row) => row.verdict !== 'already_applied'),
    };
  });
}

/**
 * Applies a bank's results to a batch in one transaction (decision 038): paid approves with the UTR
 * as the payout reference, failed rejects with the reason and refunds the USDT, not sent returns the
 * withdrawal to pending. A row whose result is already recorded moves nothing, so posting the same
 * file twice is harmless. Any row with a problem (unknown reference, a UTR missing, malformed or
 * used twice, another batch's withdrawal, a contrary outcome) refuses the whole file with its row numbers.
 */
export async function applyResults(
  db: Database,
  actor: AdminActor,
  batchId: string,
  rows: PayoutResultRow[],
): Promise<{ batch: PayoutBatch; results: PayoutResult[]; applied: number; alreadyApplied: number; refused: number; awaitingSecondApproval: number }> {
  return db.transaction(async (transaction) => {
    const batch = await lockedBatchForResults(transaction, batchId);
    const evaluated = await evaluateResults(transaction, actor, batch, rows, true);
    const problems = evaluated.flatMap((row) => (row.verdict === 'problem' ? [{ row: row.row, message: row.message ?? '' }] : []));
    if (problems.length > 0) {
      throw new AppError(400, 'VALIDATION_FAILED', PAYOUT_BATCH_MESSAGES.resultsRefused(problems), {
        fields: Object.fromEntries(problems.map((problem) => [`rows.${problem.row}`, problem.message])),
      });
    }
    const thresholdInrPaise = await twoAdminThresholdInrPaise(transaction);
    // A failed row's refund may repay a referral reward's write-off (decision 045): those rows are locked now, in one
    // order, before the first row's ledger movement locks the house accounts.
    await lockWriteOffsBeforeRefunds(
      transaction,
      evaluated.flatMap((row) => (row.input.outcome === 'failed' && row.withdrawal ? [row.withdrawal.userId] : [])),
    );
    const results: PayoutResult[] = [];
    for (const row of evaluated) {
      const withdrawal = row.withdrawal;
      if (!withdrawal) throw new Error('a row without a withdrawal passed the evaluation');
      const answer = (result: PayoutResult['result'], message: string | null = null): PayoutResult => ({
        row: row.row,
        reference: withdrawal.reference,
        withdrawalId: withdrawal.id,
        outcome: row.input.outcome,
        result,
        message,
      });
      results.push(await applyResultRow(transaction, actor, { batchId, thresholdInrPaise }, row, withdrawal, answer));
    }
    const counts = {
      applied: results.filter((result) => result.result === 'applied').length,
      alreadyApplied: results.filter((result) => result.result === 'already_applied').length,
      refused: 0,
      awaitingSecondApproval: results.filter((result) => result.result === 'awaiting_second_approval').length,
    };
    await recordAudit(transaction, {
      actorUserId: actor.adminUserId,
      action: 'payout_batch.results',
      targetType: 'payout_batch',
      targetId: batchId,
      after: {
        rows: rows.length,
        ...counts,
        notSent: results.filter((result) => result.outcome === 'not_sent' && result.result === 'applied').map((result) => result.reference),
      },
      ipAddress: actor.ipAddress,
    });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
    return { batch: await batchView(transaction, batchId), results, ...counts };
  });
}

async function applyResultRow(
  transaction: Executor,
  actor: AdminActor,
  { batchId, thresholdInrPaise }: { batchId: string; thresholdInrPaise: bigint | null },
  row: EvaluatedRow,
  withdrawal: WithdrawalRow,
  answer: (result: PayoutResult['result'], message?: string | null) => PayoutResult,
): Promise<PayoutResult> {
  if (row.verdict === 'already_applied') return answer('already_applied', PAYOUT_BATCH_MESSAGES.alreadyApplied);
  if (row.verdict === 'not_sent') {
    if (!(await batchRepository.returnToPending(transaction, withdrawal.id, batchId))) throw new Error(`withdrawal ${withdrawal.id} changed under its lock`);
    await publishEvent(transaction, { type: 'wallet.updated', userId: withdrawal.userId, reason: 'withdrawal.pending' });
    return answer('applied', PAYOUT_BATCH_MESSAGES.notSentApplied);
  }
  const { utr, reason } = row.input;
  // Two-person control (decision 017, and the rolling window of decision 038): a paid row that needs two admins is a first approval.
  if (
    row.verdict === 'paid' &&
    (await gateBatchPayment(transaction, withdrawal, { userId: actor.adminUserId, ipAddress: actor.ipAddress }, utr, thresholdInrPaise)) === 'awaiting'
  ) {
    return answer('awaiting_second_approval', PAYOUT_BATCH_MESSAGES.awaitingSecondApproval);
  }
  await decideInTransaction(transaction, withdrawalDecisions, {
    id: withdrawal.id,
    outcome: row.verdict === 'paid' ? 'approved' : 'rejected',
    decider: { kind: 'admin', userId: actor.adminUserId, ipAddress: actor.ipAddress },
    details: row.verdict === 'paid' ? { payoutReference: utr } : { reason },
    from: 'processing',
  });
  return answer('applied');
}

type CancelAnswer = { batch: PayoutBatch; message: string } | FirstApprovalResponse;

/**
 * Cancels an open batch. Before its file is issued the withdrawals return to pending. Once it is
 * issued the bank may have it: a cancel needs a second admin while two exist (the first admin's
 * cancel answers 202 with a pending change) and leaves the withdrawals in doubt, in the batch and
 * out of every other, until the bank's results settle each one (decision 038).
 */
export async function cancelBatch(db: Database, actor: AdminActor, id: string, idempotencyKey?: string): Promise<Answer<CancelAnswer>> {
  const scope = adminScope(actor, idempotencyKey, 'payout_batch.cancel', { batchId: id });
  const earlier = await findEarlierAnswer<CancelAnswer>(db, scope);
  if (earlier) return earlier;
  return runOnce(db, scope, async (transaction) => cancelBatchInTransaction(transaction, actor, id));
}

async function cancelBatchInTransaction(transaction: Executor, actor: AdminActor, id: string): Promise<{ statusCode: number; body: CancelAnswer }> {
  const batch = await batchRepository.findBatch(transaction, id, 'update');
  if (!batch) throw AppError.notFound(PAYOUT_BATCH_MESSAGES.notFound);
  if (batch.status === 'cancelled') throw AppError.conflict(PAYOUT_BATCH_MESSAGES.cancelled);
  if ((await batchRepository.countDecided(transaction, id)) > 0) throw AppError.conflict(PAYOUT_BATCH_MESSAGES.notCancellable);
  if (batch.issuedAt === null) {
    return { statusCode: 200, body: { batch: await markBatchCancelled(transaction, actor, id, false), message: PAYOUT_BATCH_MESSAGES.cancelledMessage } };
  }
  const actorRef = { userId: actor.adminUserId, ipAddress: actor.ipAddress };
  const open = await findOpenChange(transaction, 'payout_batch_cancel', id);
  if (open?.requestedByUserId === actor.adminUserId) throw AppError.conflict(PAYOUT_BATCH_MESSAGES.cancelAlreadyAsked, 'CHANGE_ALREADY_WAITING');
  if (open) await confirmOpenChange(transaction, batchCancelHandler, open, actorRef);
  else if (await needsSecondAdmin(transaction)) {
    const pendingChange = await requestChange(transaction, 'payout_batch_cancel', { batchId: id }, actorRef);
    return { statusCode: 202, body: { message: PAYOUT_BATCH_MESSAGES.cancelAwaitsSecondAdmin, pendingChange } };
  }
  return { statusCode: 200, body: { batch: await markBatchCancelled(transaction, actor, id, true), message: PAYOUT_BATCH_MESSAGES.cancelledInDoubt } };
}

/**
 * Cancels the batch. Before its file was issued the withdrawals return to pending; after, they stay
 * processing in it: in doubt until the bank's results settle each one.
 */
async function markBatchCancelled(transaction: Executor, actor: AdminActor, id: string, issued: boolean): Promise<PayoutBatch> {
  const released = issued ? [] : await batchRepository.releaseWithdrawals(transaction, id);
  await batchRepository.markCancelled(transaction, id);
  const inDoubt = issued ? (await batchRepository.listBatchWithdrawals(transaction, id)).filter((row) => row.status === 'processing') : [];
  await recordAudit(transaction, {
    actorUserId: actor.adminUserId,
    action: 'payout_batch.cancel',
    targetType: 'payout_batch',
    targetId: id,
    before: { status: 'open' },
    after: issued
      ? { status: 'cancelled', inDoubtWithdrawalIds: inDoubt.map((row) => row.id) }
      : { status: 'cancelled', releasedWithdrawalIds: released.map((row) => row.id) },
    ipAddress: actor.ipAddress,
  });
  for (const userId of new Set(released.map((row) => row.userId))) {
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'withdrawal.pending' });
  }
  await publishEvent(transaction, { type: 'admin.queue.updated' });
  return batchView(transaction, id);
}

/** The second admin's confirm (POST /api/admin/pending-changes/:id/confirm) of a cancel of an issued batch. */
export const batchCancelHandler: ChangeHandler<'payout_batch_cancel'> = {
  kind: 'payout_batch_cancel',
  lockSubject: async (transaction, batchId) => {
    await batchRepository.findBatch(transaction, batchId, 'update');
  },
  apply: async (transaction, change, decider) => {
    const { batchId } = change.payload;
    const batch = await batchRepository.findBatch(transaction, batchId, 'update');
    if (!batch || batch.status === 'cancelled') throw AppError.conflict(PAYOUT_BATCH_MESSAGES.staleCancel, 'STALE_CHANGE');
    if ((await batchRepository.countDecided(transaction, batchId)) > 0) throw AppError.conflict(PAYOUT_BATCH_MESSAGES.notCancellable, 'STALE_CHANGE');
    await markBatchCancelled(transaction, { adminUserId: decider.userId, ipAddress: decider.ipAddress }, batchId, true);
  },
};
