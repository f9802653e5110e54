import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { cursorQuerySchema, decimalStringSchema, uuidSchema } from './common.ts';
import { payoutReferenceSchema, withdrawalStatusSchema } from './money-common.ts';

/** Most withdrawals in one payout batch (and so in one bank file); older requests go first, the rest into the next batch. */
export const PAYOUT_BATCH_MAX_WITHDRAWALS = 500;
/** Most rows in one results file. */
export const PAYOUT_RESULTS_MAX_ROWS = PAYOUT_BATCH_MAX_WITHDRAWALS;

export const PAYOUT_BATCH_MESSAGES = {
  notFound: 'Payout batch not found',
  nothingPending: 'There are no pending withdrawals to put into a payout batch.',
  needsTwoAdmins: (ids: string[]) =>
    `These withdrawals are over the large-withdrawal amount: they need two admins' approval and are paid one by one, not in a batch: ${ids.join(', ')}.`,
  notPending: (ids: string[]) => `These withdrawals are not pending or are already in a payout batch: ${ids.join(', ')}.`,
  ownWithdrawals: (ids: string[]) => `These withdrawals are your own: another admin must put them into a payout batch: ${ids.join(', ')}.`,
  duplicateIds: 'Each withdrawal can be named only once.',
  cancelled: 'This payout batch was cancelled.',
  notCancellable: 'This payout batch can no longer be cancelled: some of its withdrawals have been decided.',
  utrRequired: 'A paid row needs the UTR of the payment.',
  notInBatch: 'This withdrawal is not in this payout batch.',
  alreadyApplied: 'This result was already applied.',
  awaitingSecondApproval: 'Over the large-withdrawal amount: recorded as a first approval; a second admin must confirm it before it is marked paid.',
  decidedOtherwise: (status: string) => `This withdrawal has already been ${status}; the row was not applied.`,
  duplicateRow: 'This withdrawal appears more than once in the file; only its first row was considered.',
  badCsv: 'The results file must be CSV with the columns withdrawalId, outcome, utr, reason.',
  created: 'Payout batch created',
  cancelledMessage: 'Payout batch cancelled; its withdrawals are pending again.',
} as const;

/** `open` while any withdrawal in it is processing, `completed` once all are decided, `cancelled` after a cancel. */
export const payoutBatchStatusSchema = z.enum(['open', 'completed', 'cancelled']);

export const createPayoutBatchRequestSchema = z
  .object({
    withdrawalIds: z
      .array(uuidSchema)
      .min(1, 'Name at least one withdrawal, or none to take all pending ones.')
      .max(PAYOUT_BATCH_MAX_WITHDRAWALS, `A payout batch can hold at most ${PAYOUT_BATCH_MAX_WITHDRAWALS} withdrawals.`)
      .optional(),
  })
  .optional();

export const payoutBatchSchema = z.object({
  id: uuidSchema,
  createdAt: z.string(),
  count: z.number().int(),
  totalInr: decimalStringSchema,
  status: payoutBatchStatusSchema,
  processingCount: z.number().int(),
  cancelledAt: z.string().nullable(),
  createdByUserId: uuidSchema.nullable(),
  /** The admin who created the batch, by name and e-mail (null once that user is gone). */
  createdBy: z.object({ id: uuidSchema, name: z.string(), email: z.string() }).nullable(),
});
export type PayoutBatch = z.infer<typeof payoutBatchSchema>;

export const payoutBatchWithdrawalSchema = z.object({
  id: uuidSchema,
  /** Gross INR; the bank file pays netInr (gross less TDS). */
  amountInr: decimalStringSchema,
  tdsInr: decimalStringSchema,
  netInr: decimalStringSchema,
  amountUsdt: decimalStringSchema,
  status: withdrawalStatusSchema,
  beneficiaryName: z.string(),
  /** The bank details frozen with the request, as in the bank file. */
  accountNumber: z.string(),
  ifscCode: z.string(),
  bankName: z.string(),
  upiId: z.string().nullable(),
  paymentMode: z.enum(['UPI', 'IMPS', 'NEFT']),
  createdAt: z.string(),
  payoutReference: z.string().nullable(),
  rejectionReason: z.string().nullable(),
});

export const payoutBatchResponseSchema = z.object({ batch: payoutBatchSchema, message: z.string() });
export const payoutBatchDetailResponseSchema = z.object({ batch: payoutBatchSchema, withdrawals: z.array(payoutBatchWithdrawalSchema) });
export const payoutBatchListQuerySchema = cursorQuerySchema;
export const payoutBatchListResponseSchema = z.object({ items: z.array(payoutBatchSchema), nextCursor: z.string().nullable() });

export const payoutResultRowSchema = z.object({
  withdrawalId: uuidSchema,
  outcome: z.enum(['paid', 'failed'], { error: 'The outcome must be paid or failed.' }),
  utr: payoutReferenceSchema,
  reason: z
    .string()
    .trim()
    .max(LIMITS.reasonLength, `The reason can have at most ${LIMITS.reasonLength} characters.`)
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
});
export type PayoutResultRow = z.output<typeof payoutResultRowSchema>;

export const payoutResultsRequestSchema = z.object({
  rows: z.array(payoutResultRowSchema).min(1, 'The results file has no rows.').max(PAYOUT_RESULTS_MAX_ROWS, `A results file can have at most ${PAYOUT_RESULTS_MAX_ROWS} rows.`),
});

export const payoutResultSchema = z.object({
  withdrawalId: uuidSchema,
  outcome: z.enum(['paid', 'failed']),
  /**
   * applied: decided now; already_applied: the same result was recorded before (nothing moved); refused: not applied, see message;
   * awaiting_second_approval: a large withdrawal's paid row, recorded as a first approval that a second admin confirms (decision 017).
   */
  result: z.enum(['applied', 'already_applied', 'refused', 'awaiting_second_approval']),
  message: z.string().nullable(),
});
export const payoutResultsResponseSchema = z.object({
  batch: payoutBatchSchema,
  results: z.array(payoutResultSchema),
  applied: z.number().int(),
  alreadyApplied: z.number().int(),
  refused: z.number().int(),
  awaitingSecondApproval: z.number().int(),
});
export type PayoutResult = z.infer<typeof payoutResultSchema>;
