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

export const CHAIN_STATES = ['unchecked', 'confirming', 'confirmed', 'not_found', 'mismatch', 'failed'] as const;
export type ChainStateName = (typeof CHAIN_STATES)[number];
export const CHAIN_PROBLEMS = ['wrong_recipient', 'wrong_token', 'below_minimum', 'other_network', 'sender_of_another_customer', 'amount_too_large'] as const;

/** What the blockchain says about a deposit; every field but state is null until the worker has read it. */
export const depositChainSchema = z.object({
  state: z.enum(CHAIN_STATES),
  problem: z.enum(CHAIN_PROBLEMS).nullable(),
  /** The checker could not reach the blockchain provider at its last attempt; it keeps trying. */
  delayed: z.boolean(),
  amountUsdt: decimalStringSchema.nullable(),
  fromAddress: z.string().nullable(),
  toAddress: z.string().nullable(),
  confirmations: z.number().int().nullable(),
  requiredConfirmations: z.number().int().nullable(),
  blockNumber: z.string().nullable(),
  logIndex: z.number().int().nullable(),
  checkedAt: z.string().nullable(),
});
export type DepositChain = z.infer<typeof depositChainSchema>;

/** The customer-facing words for each chain state and problem, shared by the deposit page, the history and the admin queue. */
export const CHAIN_MESSAGES = {
  delayed: 'Checking the blockchain is delayed',
  notChecked: 'Not checked on chain',
  notFound: 'This transaction was not found on the blockchain yet. If you just sent it, wait a minute; otherwise check the hash and the network.',
  failed: 'This transaction failed on the blockchain, so no USDT arrived. Nothing will be credited.',
  wrongRecipient: 'This transaction did not pay our deposit address. Nothing will be credited automatically.',
  wrongToken: 'This transaction did not move USDT. Nothing will be credited automatically.',
  belowMinimum: 'The amount on the blockchain is below the minimum deposit. Nothing will be credited automatically.',
  /** The status of a transfer below the minimum to the customer's own deposit address (recorded, left to an admin). */
  belowMinimumNotCredited: 'Below the minimum, not credited',
  amountTooLarge: 'The amount on the blockchain is too large to credit automatically; an admin will review it.',
  otherNetwork: 'This transaction is on the other network. Please submit it again with the other network selected.',
  waitingForAdmin: 'Found on the blockchain. It was not sent from one of your verified wallets, so an admin will review it.',
} as const;
/** "Confirming (2 of 12)". */
export function confirmingLabel(confirmations: number | null, required: number | null): string {
  return confirmations === null || required === null ? 'Confirming' : `Confirming (${Math.min(confirmations, required)} of ${required})`;
}

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
  /** What the customer typed, when it differs from the amount, which is the on-chain amount once the transfer is final. */
  typedAmount: decimalStringSchema.nullable(),
  /** 'detected' when the worker found the transfer on chain without a hash from the customer. */
  source: z.enum(['customer', 'detected']),
  chain: depositChainSchema,
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
