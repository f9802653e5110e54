import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { MAX_DECIMAL_STRING_LENGTH, parseUsdtMicros } from '../money.ts';
import { cursorQuerySchema } from './common.ts';
import { requestStatusSchema } from './enums.ts';

/** Pieces shared by the deposit, withdrawal, transfer and history contracts. */

export { withdrawalStatusSchema, type WithdrawalStatus } from './enums.ts';

export const AMOUNT_TOO_LARGE_MESSAGE = 'Amount is too large.';

/**
 * A USDT amount typed by a customer: a decimal string with at most `decimals`
 * places, greater than zero and at least `minUsdtMicros` when given. It stays a
 * string; the server turns it into micro-USDT with src/shared/money.ts.
 */
export function usdtAmountSchema(options: { decimals: number; invalidMessage: string; minUsdtMicros?: bigint; minMessage?: string }) {
  const { decimals, invalidMessage } = options;
  return z
    .string({ error: invalidMessage })
    .trim()
    .min(1, invalidMessage)
    .max(MAX_DECIMAL_STRING_LENGTH, AMOUNT_TOO_LARGE_MESSAGE)
    .superRefine((value, context) => {
      const parsed = parseUsdtMicros(value, decimals);
      if (!parsed.ok) {
        if (parsed.reason === 'too-many-decimals') {
          context.addIssue({ code: 'custom', message: `Amount can have at most ${decimals} decimal places.` });
        } else if (parsed.reason === 'too-large') {
          context.addIssue({ code: 'custom', message: AMOUNT_TOO_LARGE_MESSAGE });
        } else {
          context.addIssue({ code: 'custom', message: invalidMessage });
        }
        return;
      }
      if (parsed.value <= 0n) context.addIssue({ code: 'custom', message: invalidMessage });
      else if (options.minUsdtMicros !== undefined && parsed.value < options.minUsdtMicros) {
        context.addIssue({ code: 'custom', message: options.minMessage ?? invalidMessage });
      }
    });
}

export const transactionPinSchema = z
  .string({ error: 'Please enter your 4-digit PIN' })
  .min(1, 'Please enter your 4-digit PIN')
  .regex(/^\d{4}$/, 'PIN must be exactly 4 digits');

const optionalTrimmedText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .optional()
    .transform((value) => (value === '' ? undefined : value));

export const rejectRequestSchema = z
  .object({ reason: optionalTrimmedText(LIMITS.reasonLength, `The reason can have at most ${LIMITS.reasonLength} characters.`) })
  .optional();
export type RejectRequest = z.input<typeof rejectRequestSchema>;

export const payoutReferenceSchema = optionalTrimmedText(
  LIMITS.payoutReferenceLength,
  `The payout reference (UTR) can have at most ${LIMITS.payoutReferenceLength} characters.`,
).refine(
  (value) => value === undefined || /^[A-Za-z0-9 ._/-]+$/.test(value),
  'The payout reference (UTR) may contain letters, digits, spaces and . _ / - only.',
);

export const statusListQuerySchema = cursorQuerySchema.extend({ status: requestStatusSchema.optional() });

/** Who a request belongs to, as admins see it. */
export const userSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

/** The Idempotency-Key header of money-moving POSTs: a client-chosen id of one user intent. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const idempotencyKeySchema = z
  .string()
  .min(1, 'The Idempotency-Key header must not be empty.')
  .max(LIMITS.idempotencyKeyLength, `The Idempotency-Key header can have at most ${LIMITS.idempotencyKeyLength} characters.`)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'The Idempotency-Key header may contain letters, digits and _ . : - only.');
