import { z } from 'zod';
import { cursorQuerySchema, decimalStringSchema, pageSchema, uuidSchema } from './common.ts';
import { depositChainSchema } from './deposits.ts';
import { requestStatusSchema, withdrawalStatusSchema } from './enums.ts';

export const TRANSACTION_TYPES = ['deposit', 'withdrawal', 'transfer', 'referral_bonus'] as const;
export const transactionTypeSchema = z.enum(TRANSACTION_TYPES, { error: 'Unknown transaction type' });
export type TransactionType = z.infer<typeof transactionTypeSchema>;

export const TRANSACTION_MESSAGES = {
  empty: 'No transactions found',
  invalidCursor: 'This page link is no longer valid. Please reload the list.',
} as const;

export const transactionListQuerySchema = cursorQuerySchema.extend({ type: transactionTypeSchema.optional(), status: requestStatusSchema.optional() });
export type TransactionListQuery = z.input<typeof transactionListQuerySchema>;

/**
 * One line of a customer's history. `amount` is in `currency`: INR for
 * withdrawals (as the spec shows them; the net amount paid to the bank, the
 * gross less any TDS), USDT otherwise; `amountUsdt` is always
 * the USDT that moved. `direction` says whether the wallet gains or loses it.
 * `rejectionReason` is the admin's reason for a rejected deposit, withdrawal or
 * transfer; null when none was given, for anything not rejected and for
 * referral bonuses.
 */
export const transactionItemSchema = z.object({
  id: uuidSchema,
  type: transactionTypeSchema,
  direction: z.enum(['in', 'out']),
  amount: decimalStringSchema,
  currency: z.enum(['USDT', 'INR']),
  amountUsdt: decimalStringSchema,
  status: withdrawalStatusSchema,
  createdAt: z.string(),
  network: z.string().nullable(),
  transactionHash: z.string().nullable(),
  counterpartyEmail: z.string().nullable(),
  referralLevel: z.number().int().nullable(),
  rejectionReason: z.string().nullable(),
  /** A deposit's verification on the blockchain; null for everything else. */
  chain: depositChainSchema.nullable(),
});
export type TransactionItem = z.infer<typeof transactionItemSchema>;

export const transactionListResponseSchema = pageSchema(transactionItemSchema);
export type TransactionList = z.infer<typeof transactionListResponseSchema>;
