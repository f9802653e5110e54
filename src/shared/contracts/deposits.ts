import { z } from 'zod';
import { USDT_DECIMALS } from '../money.ts';
import { decimalStringSchema, pageSchema, uuidSchema } from './common.ts';
import { rejectRequestSchema, statusListQuerySchema, usdtAmountSchema, userSummarySchema } from './money-common.ts';
import { DEPOSIT_NETWORKS, requestStatusSchema, type DepositNetwork } from './enums.ts';

/** The deposit form's choice of network, with the form's own message. */
const depositNetworkChoiceSchema = z.enum(DEPOSIT_NETWORKS, { error: 'Please select a network' });

/** Deposits cost nothing to submit, so one customer's waiting ones are capped to keep the admin queue usable. */
export const MAX_PENDING_DEPOSITS_PER_USER = 20;

export const DEPOSIT_MESSAGES = {
  invalidAmount: 'Please enter a valid amount',
  hashRequired: 'Please enter your transaction hash',
  hashTooLong: 'This transaction hash is too long.',
  trc20HashShape: 'A TRC20 transaction hash is 64 hexadecimal characters (0-9, a-f).',
  erc20HashShape: 'An ERC20 transaction hash is 0x followed by 64 hexadecimal characters (0-9, a-f).',
  duplicateHash: 'This transaction hash has already been submitted for this network.',
  networkUnavailable: 'Deposits on this network are not available right now. Please contact support.',
  tooManyPending: `You have ${MAX_PENDING_DEPOSITS_PER_USER} deposits waiting for approval. Please wait until they are reviewed before submitting more.`,
  notFound: 'Deposit not found',
  ownRequest: 'You cannot approve or reject your own deposit. Another admin must decide it.',
  submitted: 'Deposit request submitted successfully',
  approved: 'Deposit approved successfully',
  rejected: 'Deposit rejected',
} as const;

/** 'Minimum deposit is {n} USDT', with n as the admin configured it. */
export function minimumDepositMessage(minimumUsdt: string): string {
  return `Minimum deposit is ${minimumUsdt} USDT`;
}

export const TRANSACTION_HASH_MAX_LENGTH = 100;
const HASH_PATTERNS: Record<DepositNetwork, RegExp> = {
  TRC20: /^[0-9a-f]{64}$/,
  ERC20: /^0x[0-9a-f]{64}$/,
};

/** Hashes are compared in lower case, so one transaction cannot be submitted twice by changing its letter case. */
export function normalizeTransactionHash(hash: string): string {
  return hash.trim().toLowerCase();
}

export function transactionHashMatchesNetwork(network: DepositNetwork, normalizedHash: string): boolean {
  return HASH_PATTERNS[network].test(normalizedHash);
}

export const depositRequestSchema = z
  .object({
    network: depositNetworkChoiceSchema,
    amount: usdtAmountSchema({ decimals: USDT_DECIMALS, invalidMessage: DEPOSIT_MESSAGES.invalidAmount }),
    transactionHash: z
      .string({ error: DEPOSIT_MESSAGES.hashRequired })
      .trim()
      .min(1, DEPOSIT_MESSAGES.hashRequired)
      .max(TRANSACTION_HASH_MAX_LENGTH, DEPOSIT_MESSAGES.hashTooLong)
      .transform(normalizeTransactionHash),
  })
  .superRefine((values, context) => {
    if (!transactionHashMatchesNetwork(values.network, values.transactionHash)) {
      context.addIssue({
        code: 'custom',
        path: ['transactionHash'],
        message: values.network === 'TRC20' ? DEPOSIT_MESSAGES.trc20HashShape : DEPOSIT_MESSAGES.erc20HashShape,
      });
    }
  });
export type DepositRequest = z.input<typeof depositRequestSchema>;

export const depositSchema = z.object({
  id: uuidSchema,
  network: depositNetworkChoiceSchema,
  amount: decimalStringSchema,
  transactionHash: z.string(),
  depositAddress: z.string(),
  status: requestStatusSchema,
  /** INR value at the stored normal rate, for the success screen's "approximately". */
  estimatedInr: decimalStringSchema,
  rateInr: decimalStringSchema,
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  rejectionReason: z.string().nullable(),
});
export type Deposit = z.infer<typeof depositSchema>;

export const depositResponseSchema = z.object({ deposit: depositSchema, message: z.string() });
export const depositDetailResponseSchema = z.object({ deposit: depositSchema });

export const adminDepositSchema = depositSchema.extend({ user: userSummarySchema });
export type AdminDeposit = z.infer<typeof adminDepositSchema>;
export const adminDepositListQuerySchema = statusListQuerySchema;
export const adminDepositListResponseSchema = pageSchema(adminDepositSchema);
export const adminDepositDecisionResponseSchema = z.object({ deposit: adminDepositSchema, message: z.string() });
export const rejectDepositRequestSchema = rejectRequestSchema;
