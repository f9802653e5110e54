import type { z } from 'zod';
import { PAYOUT_BATCH_MAX_WITHDRAWALS, type PayoutBatchCandidates, type payoutBatchCandidatesQuerySchema } from '#shared/contracts/payout-batches';
import { inrPaiseToWire } from '#shared/money';
import type { Executor } from '../../db/client.ts';
import { twoAdminThresholdInrPaise } from '../withdrawals/service.ts';
import { findBatchCandidates } from './repository.ts';

/**
 * The pending withdrawals an admin may put into a new batch (issue 31: "New batch lets the admin choose rows"),
 * filtered by amount, age and bank, oldest first and at most one batch's worth. The batch itself is made by
 * createBatch with the chosen ids, which checks every rule again under its locks.
 */
export async function listBatchCandidates(
  db: Executor,
  adminUserId: string,
  query: z.output<typeof payoutBatchCandidatesQuerySchema>,
): Promise<PayoutBatchCandidates> {
  const rows = await findBatchCandidates(db, {
    adminUserId,
    largestBatchableInrPaise: await twoAdminThresholdInrPaise(db),
    minInrPaise: query.minInr,
    maxInrPaise: query.maxInr,
    olderThanHours: query.olderThanHours,
    bank: query.bank === '' ? undefined : query.bank,
    limit: PAYOUT_BATCH_MAX_WITHDRAWALS,
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      reference: row.reference,
      customerName: row.customerName,
      customerEmail: row.customerEmail,
      amountInr: inrPaiseToWire(row.amountInrPaise),
      netInr: inrPaiseToWire(row.amountInrPaise - row.tdsInrPaise),
      bankName: row.bankName,
      accountNumberLast4: row.accountNumber.slice(-4),
      upiId: row.upiId,
      createdAt: row.createdAt.toISOString(),
    })),
    totalMatching: rows[0]?.totalMatching ?? 0,
    ceiling: PAYOUT_BATCH_MAX_WITHDRAWALS,
  };
}
