import { z } from 'zod';
import { LIMITS } from '../limits.ts';
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
  overrideReasonRequired: 'Write why this deposit should be credited although the blockchain refutes it.',
  overrideRequested: 'First approval recorded. The blockchain refutes this deposit, so a second admin must confirm it before it is credited.',
  ownOverrideAgain: 'You already gave the first approval of this deposit: a second admin must confirm it.',
  staleOverride: 'This deposit is no longer waiting for this approval: discard this change.',
} as const;

/**
 * The chain facts that refute a claim (decision 037): one admin cannot credit such a deposit; two
 * can, the first with a written reason. Below the minimum or above the largest amount is not a
 * refutation, and neither is a transfer that is still confirming or was never checked.
 */
export const CHAIN_REFUTATIONS = {
  failed: 'the transaction failed on the blockchain',
  not_found: 'the transaction was not found on the blockchain',
  wrong_token: 'the transaction moved another token, not USDT',
  wrong_recipient: 'the transaction paid another address',
  other_network: 'the transaction is on the other network',
  sender_of_another_customer: 'its sender is a wallet another customer proved',
  transfer_taken: 'every transfer to our address in it is another deposit',
  ambiguous: 'it pays our address several times and none of those transfers is provably this customer’s',
} as const;
export type ChainRefutation = keyof typeof CHAIN_REFUTATIONS;

export function chainRefutationOf(chain: { state: string; problem: string | null }): ChainRefutation | null {
  if (chain.state === 'failed' || chain.state === 'not_found') return chain.state;
  if (chain.problem !== null && chain.problem in CHAIN_REFUTATIONS) return chain.problem as ChainRefutation;
  return null;
}

/** 409 to an approve of a refuted deposit while only one admin exists. */
export function singleAdminRefutedMessage(refutation: ChainRefutation): string {
  return `The blockchain refutes this deposit: ${CHAIN_REFUTATIONS[refutation]}. One admin cannot credit it; a second admin is needed (one approves with a written reason, the other confirms).`;
}

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
export const CHAIN_PROBLEMS = [
  'wrong_recipient',
  'wrong_token',
  'below_minimum',
  'other_network',
  'sender_of_another_customer',
  'amount_too_large',
  'ambiguous',
  'transfer_taken',
] as const;
export type ChainProblem = (typeof CHAIN_PROBLEMS)[number];
/** 'detected' when the worker found the transfer on chain without a hash from the customer. */
export const DEPOSIT_SOURCES = ['customer', 'detected'] as const;
export type DepositSource = (typeof DEPOSIT_SOURCES)[number];

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
  /**
   * Whether the transfer is provably this customer's: its sender is a wallet they proved, or it arrived at their own
   * deposit address (decision 036), whoever sent it. Null until a transfer was read.
   */
  senderProven: z.boolean().nullable(),
  /** How many USDT transfers to the deposit address the transaction holds; null until it was read in full. */
  transfersToAddress: z.number().int().nullable(),
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
  ambiguous:
    'This transaction pays our address several times, and none of its transfers matches your verified wallets or the amount you typed. An admin will review it.',
  transferTaken: 'Every transfer to our address in this transaction is already another deposit. Nothing will be credited automatically.',
  senderOfAnotherCustomer: 'This transfer was sent from a wallet another customer verified. Nothing will be credited automatically.',
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
  source: z.enum(DEPOSIT_SOURCES),
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
/** An approval's written reason: required of the first admin when the chain refutes the deposit (decision 037). */
export const approveDepositRequestSchema = rejectRequestSchema;

/**
 * A USDT transfer to the shared deposit address from a sender no customer proved, that no claim
 * names (decision 037): listed for admins, who match it to a customer's message and assign it.
 */
export const UNCLAIMED_TRANSFERS_LIST_LIMIT = 100;
export const unclaimedTransferSchema = z.object({
  id: uuidSchema,
  network: depositNetworkChoiceSchema,
  transactionHash: z.string(),
  logIndex: z.number().int(),
  fromAddress: z.string(),
  toAddress: z.string(),
  amount: decimalStringSchema,
  blockNumber: z.string(),
  createdAt: z.string(),
});
export type UnclaimedTransfer = z.infer<typeof unclaimedTransferSchema>;
export const unclaimedTransferListResponseSchema = z.object({ items: z.array(unclaimedTransferSchema) });

export const UNCLAIMED_MESSAGES = {
  notFound: 'Unclaimed transfer not found',
  alreadyResolved: 'This transfer is no longer unclaimed: a customer claimed it or it was assigned.',
  customerNotFound: 'No customer has this e-mail address.',
  emailRequired: 'Enter the e-mail address of the customer the transfer belongs to',
  reasonRequired: 'Write how you matched this transfer to the customer',
  assigned: 'Transfer assigned. It waits in the deposit queue for approval like any other deposit.',
} as const;

export const assignUnclaimedTransferRequestSchema = z.object({
  email: z
    .string({ error: UNCLAIMED_MESSAGES.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, UNCLAIMED_MESSAGES.emailRequired)
    .max(254, UNCLAIMED_MESSAGES.customerNotFound),
  reason: z
    .string({ error: UNCLAIMED_MESSAGES.reasonRequired })
    .trim()
    .min(1, UNCLAIMED_MESSAGES.reasonRequired)
    .max(LIMITS.reasonLength, `The reason can have at most ${LIMITS.reasonLength} characters.`),
});
export type AssignUnclaimedTransferRequest = z.input<typeof assignUnclaimedTransferRequestSchema>;
export const assignUnclaimedTransferResponseSchema = z.object({ deposit: adminDepositSchema, message: z.string() });
