import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { formatInrForDisplay, MAX_DECIMAL_STRING_LENGTH, parseInrPaise } from '../money.ts';
import { cursorQuerySchema, decimalStringSchema, uuidSchema } from './common.ts';
import { payoutReferenceSchema, withdrawalStatusSchema } from './money-common.ts';
import { formatPauseEnd } from './security.ts';
import { PAYOUT_FILE_FORMAT_NAMES, PAYOUT_FILE_FORMATS, type PayoutFileFormat } from './payout-file-formats.ts';

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
  duplicateRow: (row: number) => `This withdrawal is already on row ${row} of the file.`,
  ownWithdrawalResult: 'This withdrawal is your own: another admin must record its result.',
  badCsv: 'The results file must be CSV with a reference (or withdrawalId) column and an outcome column; utr, reason and amount are optional.',
  created: 'Payout batch created',
  cancelledMessage: 'Payout batch cancelled; its withdrawals are pending again.',
  cancelledInDoubt:
    'Payout batch cancelled. Its file was already downloaded, so its withdrawals are in doubt: they stay out of every batch until the bank’s results mark each one paid, failed or not sent.',
  cancelAwaitsSecondAdmin:
    'This batch’s file was already downloaded: cancelling it needs a second admin. Your request waits for another admin to confirm it (or cancel the batch too).',
  cancelAlreadyAsked: 'You already asked to cancel this batch: a second admin must confirm it.',
  staleCancel: 'This payout batch is already cancelled: discard this change.',
  outsideLayoutRange: (format: PayoutFileFormat, range: { min: bigint; max: bigint }, rows: { reference: string; netInrPaise: bigint }[]) =>
    `The ${PAYOUT_FILE_FORMAT_NAMES[format]} file takes ${formatInrForDisplay(range.min)} to ${formatInrForDisplay(range.max)} per payout; these withdrawals are outside it: ${rows
      .slice(0, 20)
      .map((row) => `${row.reference} (${formatInrForDisplay(row.netInrPaise)})`)
      .join(
        ', ',
      )}${rows.length > 20 ? ` and ${rows.length - 20} more` : ''}. Nothing was downloaded: cancel the batch and pay them another way, or pick another file layout in the settings.`,
  alreadyDownloaded: (at: Date, by: string) => `Already downloaded at ${formatPauseEnd(at)} (India time) by ${by}.`,
  utrMalformed: (mode: PaymentMode) =>
    mode === 'NEFT' ? 'A NEFT UTR has 16 letters or digits.' : `${mode === 'IMPS' ? 'An' : 'A'} ${mode} UTR (RRN) has 12 digits.`,
  utrUsedInFile: (row: number) => `This UTR is already on row ${row} of the file.`,
  utrUsedElsewhere: (reference: string) => `This UTR is already recorded for withdrawal ${reference}.`,
  utrTakenMeanwhile: 'This UTR is already recorded for another withdrawal.',
  unknownReference: 'No withdrawal has this reference.',
  referenceRequired: 'A row needs the withdrawal’s reference (or its id).',
  amountMismatch: (expected: string, given: string) => `The amount ${given} does not match the ${expected} INR the file paid.`,
  notSentApplied: 'Not sent by the bank: the withdrawal is pending again.',
  resultsRefused: (problems: { row: number; message: string }[]) =>
    `The results file was not applied; fix these rows and upload it again: ${problems
      .slice(0, 10)
      .map((problem) => `row ${problem.row}: ${problem.message}`)
      .join(' ')}${problems.length > 10 ? ` (and ${problems.length - 10} more)` : ''}`,
} as const;

export const PAYMENT_MODES = ['UPI', 'IMPS', 'NEFT'] as const;
export type PaymentMode = (typeof PAYMENT_MODES)[number];

/** IMPS carries at most 5,00,000 INR per payment; NEFT has no upper limit. */
export const IMPS_MAX_INR_PAISE = 500_000_00n;
/** UPI carries at most 1,00,000 INR per payment. */
export const UPI_MAX_INR_PAISE = 100_000_00n;

/** See docs/decisions/016: UPI when the customer gave a UPI id and UPI can carry the amount, else IMPS up to its limit, else NEFT. */
export function paymentModeFor(amountInrPaise: bigint, upiId: string | null): PaymentMode {
  if (upiId !== null && amountInrPaise <= UPI_MAX_INR_PAISE) return 'UPI';
  return amountInrPaise <= IMPS_MAX_INR_PAISE ? 'IMPS' : 'NEFT';
}

/** UPI and IMPS payments are identified by a 12-digit RRN; NEFT by a 16-character UTR (decision 038). */
export function utrHasFormOf(mode: PaymentMode, utr: string): boolean {
  return mode === 'NEFT' ? /^[A-Z0-9]{16}$/.test(utr) : /^[0-9]{12}$/.test(utr);
}

/** A withdrawal's short reference: RD and 8 letters or digits (decision 038). Typed references are upper-cased. */
export const withdrawalReferenceSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{6,20}$/, 'A withdrawal reference has 6 to 20 letters or digits.');

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
  /** When the file was first downloaded (issued), by whom, and the SHA-256 of its bytes; null until then. */
  issuedAt: z.string().nullable(),
  issuedBy: z.object({ id: uuidSchema, name: z.string(), email: z.string() }).nullable(),
  fileSha256: z.string().nullable(),
  /** The layout the file was issued in (decision 064); null until then. */
  fileFormat: z.enum(PAYOUT_FILE_FORMATS).nullable(),
  downloadCount: z.number().int(),
  /** Withdrawals of a cancelled, issued batch that the bank's results have not settled yet. */
  inDoubtCount: z.number().int(),
});
export type PayoutBatch = z.infer<typeof payoutBatchSchema>;

export const payoutBatchWithdrawalSchema = z.object({
  id: uuidSchema,
  reference: z.string(),
  /** In a cancelled batch whose file was issued: held until the bank's results settle it. */
  inDoubt: z.boolean(),
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
  paymentMode: z.enum(PAYMENT_MODES),
  createdAt: z.string(),
  payoutReference: z.string().nullable(),
  rejectionReason: z.string().nullable(),
});

export const payoutBatchResponseSchema = z.object({ batch: payoutBatchSchema, message: z.string() });
export const payoutBatchDetailResponseSchema = z.object({
  batch: payoutBatchSchema,
  withdrawals: z.array(payoutBatchWithdrawalSchema),
  /** Why the first download would be refused in the layout the settings name now (decision 067); null when it would not. */
  fileRefusal: z.string().nullable(),
});
export const payoutBatchListQuerySchema = cursorQuerySchema;
export const payoutBatchListResponseSchema = z.object({ items: z.array(payoutBatchSchema), nextCursor: z.string().nullable() });

export const PAYOUT_OUTCOMES = ['paid', 'failed', 'not_sent'] as const;

export const payoutResultRowSchema = z
  .object({
    /** The withdrawal's short reference, as the bank file's narration carried it; or its id. */
    reference: withdrawalReferenceSchema.optional(),
    withdrawalId: uuidSchema.optional(),
    outcome: z.enum(PAYOUT_OUTCOMES, { error: 'The outcome must be paid, failed or not_sent.' }),
    utr: payoutReferenceSchema.transform((value) => value?.toUpperCase()),
    reason: z
      .string()
      .trim()
      .max(LIMITS.reasonLength, `The reason can have at most ${LIMITS.reasonLength} characters.`)
      .optional()
      .transform((value) => (value === '' ? undefined : value)),
    /** The amount the bank reports, when its file has one: compared with what our file paid. */
    amountInr: decimalStringSchema.optional(),
  })
  .refine((row) => row.reference !== undefined || row.withdrawalId !== undefined, { message: PAYOUT_BATCH_MESSAGES.referenceRequired, path: ['reference'] });
export type PayoutResultRow = z.output<typeof payoutResultRowSchema>;

export const payoutResultsRequestSchema = z.object({
  rows: z
    .array(payoutResultRowSchema)
    .min(1, 'The results file has no rows.')
    .max(PAYOUT_RESULTS_MAX_ROWS, `A results file can have at most ${PAYOUT_RESULTS_MAX_ROWS} rows.`),
});

export const payoutResultSchema = z.object({
  /** The row's number in the file (1 = the first row after the header). */
  row: z.number().int(),
  reference: z.string().nullable(),
  withdrawalId: uuidSchema.nullable(),
  outcome: z.enum(PAYOUT_OUTCOMES),
  /**
   * applied: decided now; already_applied: the same result was recorded before (nothing moved); refused: not applied, see message;
   * awaiting_second_approval: a paid row that needs two admins, recorded as a first approval that a second admin confirms (decision 017).
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

const previewTotalSchema = z.object({ count: z.number().int(), netInr: decimalStringSchema });

/** What a results file would do, shown before it is applied (nothing changes). */
export const payoutResultsPreviewResponseSchema = z.object({
  batch: payoutBatchSchema,
  rows: z.array(
    z.object({
      row: z.number().int(),
      reference: z.string().nullable(),
      withdrawalId: uuidSchema.nullable(),
      outcome: z.enum(PAYOUT_OUTCOMES),
      utr: z.string().nullable(),
      netInr: decimalStringSchema.nullable(),
      /** What applying would do with this row; `problem` rows stop the whole file. */
      verdict: z.enum(['paid', 'failed', 'not_sent', 'already_applied', 'problem']),
      message: z.string().nullable(),
    }),
  ),
  totals: z.object({
    paid: previewTotalSchema,
    failed: previewTotalSchema,
    notSent: previewTotalSchema,
    alreadyApplied: z.number().int(),
    problems: z.number().int(),
  }),
  /** The batch's withdrawals that are still unsettled and not named by the file. */
  notInFile: z.array(z.object({ reference: z.string(), netInr: decimalStringSchema })),
  /** True when applying would change something and no row has a problem. */
  canApply: z.boolean(),
});
export type PayoutResultsPreview = z.infer<typeof payoutResultsPreviewResponseSchema>;

/* ---------- choosing the withdrawals of a new batch ---------- */

/** An optional amount in rupees typed as a filter; empty means no filter. */
function rupeeFilter(label: string) {
  return z
    .string()
    .trim()
    .max(MAX_DECIMAL_STRING_LENGTH, `${label} is too long.`)
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return undefined;
      const parsed = value.startsWith('-') ? undefined : parseInrPaise(value);
      if (parsed?.ok !== true) {
        context.addIssue({ code: 'custom', message: `${label} must be an amount in rupees, like 25000 or 25000.50.` });
        return z.NEVER;
      }
      return parsed.value;
    });
}

/** GET /api/admin/payout-batches/candidates: which pending withdrawals a new batch may take, filtered. */
export const payoutBatchCandidatesQuerySchema = z.object({
  minInr: rupeeFilter('The smallest amount'),
  maxInr: rupeeFilter('The largest amount'),
  /** Only withdrawals requested at least this many hours ago. */
  olderThanHours: z.coerce
    .number({ error: 'The age must be a whole number of hours.' })
    .int('The age must be a whole number of hours.')
    .min(0, 'The age must be a whole number of hours.')
    .max(24 * 366, 'The age can be at most a year (8,784 hours).')
    .optional(),
  /** Part of the bank's name, in any case. */
  bank: z.string().trim().max(100, 'The bank can have at most 100 characters.').optional(),
});
export type PayoutBatchCandidatesQuery = z.input<typeof payoutBatchCandidatesQuerySchema>;

export const payoutBatchCandidateSchema = z.object({
  id: uuidSchema,
  reference: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  /** Gross INR; the bank file pays netInr. */
  amountInr: decimalStringSchema,
  netInr: decimalStringSchema,
  bankName: z.string(),
  accountNumberLast4: z.string(),
  upiId: z.string().nullable(),
  createdAt: z.string(),
});
export type PayoutBatchCandidate = z.infer<typeof payoutBatchCandidateSchema>;

export const payoutBatchCandidatesResponseSchema = z.object({
  /** Oldest first, at most one batch's worth. */
  items: z.array(payoutBatchCandidateSchema).max(PAYOUT_BATCH_MAX_WITHDRAWALS),
  /** How many pending withdrawals match the filters, which may be more than the items. */
  totalMatching: z.number().int(),
  /** The most withdrawals one batch can hold. */
  ceiling: z.number().int(),
});
export type PayoutBatchCandidates = z.infer<typeof payoutBatchCandidatesResponseSchema>;
