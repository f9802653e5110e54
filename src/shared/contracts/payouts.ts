import { z } from 'zod';
import { LIMITS } from '../limits.ts';

/*
 * Payouts through a payout provider (decision 043): RazorpayX Payouts' states as the provider names them,
 * the withdrawal's provider timeline, and the daily reconciliation.
 */

/** The payout providers a withdrawal can be paid through (decisions 043 and 062). */
export const PAYOUT_PROVIDER_NAMES = ['razorpayx', 'cashfree'] as const;
export type PayoutProviderName = (typeof PAYOUT_PROVIDER_NAMES)[number];

/** How a withdrawal leaves: in a bank file, or through the provider it was handed to. Never both. */
export const PAYOUT_ROUTES = ['bank_file', ...PAYOUT_PROVIDER_NAMES] as const;
export type PayoutRoute = (typeof PAYOUT_ROUTES)[number];

/** RazorpayX's payout states (Payout States and Life Cycle); Cashfree's transfer statuses are mapped onto them (decision 062). */
export const PROVIDER_PAYOUT_STATES = ['queued', 'pending', 'processing', 'processed', 'reversed', 'cancelled', 'rejected', 'failed'] as const;
export const providerPayoutStateSchema = z.enum(PROVIDER_PAYOUT_STATES);
export type ProviderPayoutState = z.infer<typeof providerPayoutStateSchema>;

/** The states after which the provider does nothing more with a payout but a reversal of a processed one. */
export const FINAL_PROVIDER_PAYOUT_STATES: readonly ProviderPayoutState[] = ['processed', 'reversed', 'cancelled', 'rejected', 'failed'];
/** The states in which the money did not reach the payee: the withdrawal's USDT goes back to the wallet. */
export const RETURNED_PROVIDER_PAYOUT_STATES: readonly ProviderPayoutState[] = ['reversed', 'cancelled', 'rejected', 'failed'];

export const PAYOUT_MESSAGES = {
  badSignature: 'The webhook signature is missing or does not match.',
  badEvent: 'The webhook event could not be read.',
  notFound: 'This withdrawal has no payout through the provider.',
  returnedReason: (description: string) => `The bank returned the payout: ${description}`,
  reversedReason: (description: string) => `The bank reversed the payout after it was paid: ${description}`,
  reconciliationDay: 'Give the day as YYYY-MM-DD (India time).',
  reconciliationRunning:
    'A reconciliation that asks the payout provider each payout’s status is already running on this server. Try again when it has finished (at most a minute).',
  heldFrozen: 'Not sent: the customer’s account was frozen after the approval. It is sent when the freeze is lifted (decision 049).',
  heldByIncident: 'Not sent: a deposit of this customer vanished from the chain after the approval. It is sent when the incident is settled (decision 049).',
  rejectAfterSend: 'This payout was sent to the payout provider; it is settled by the provider’s answers.',
  rejectNotHeld: 'This payout is not held: it is being sent to the payout provider.',
  rejectReasonRequired: 'Give the reason the customer is told.',
} as const;

/** An admin's reject of a payout held before its first send (decision 053): the customer is told the reason. */
export const rejectHeldPayoutRequestSchema = z.object({
  reason: z
    .string({ error: PAYOUT_MESSAGES.rejectReasonRequired })
    .trim()
    .min(1, PAYOUT_MESSAGES.rejectReasonRequired)
    .max(LIMITS.reasonLength, `The reason can have at most ${LIMITS.reasonLength} characters.`),
});

/** Longest webhook body read; RazorpayX's payout events are a few kilobytes. */
export const PAYOUT_WEBHOOK_MAX_BYTES = 64 * 1024;

export const providerPayoutEventSchema = z.object({
  state: providerPayoutStateSchema,
  utr: z.string().nullable(),
  reason: z.string().nullable(),
  source: z.enum(['send', 'webhook', 'poll']),
  at: z.string(),
});

/** A withdrawal's payout through the provider, as its customer and admins see it. */
export const providerPayoutSchema = z.object({
  provider: z.enum(PAYOUT_PROVIDER_NAMES),
  /** `unsent` until the provider has accepted it. */
  state: z.union([providerPayoutStateSchema, z.literal('unsent')]),
  mode: z.enum(['IMPS', 'UPI', 'NEFT']),
  amountInr: z.string(),
  utr: z.string().nullable(),
  reason: z.string().nullable(),
  events: z.array(providerPayoutEventSchema).max(50),
});
export type ProviderPayout = z.infer<typeof providerPayoutSchema>;
export const providerPayoutResponseSchema = z.object({ payout: providerPayoutSchema });

/**
 * The same payout as admins see it (issue 31): how often the worker sent it or asked about it, the provider's or the
 * hold's last error with when it was recorded, and whether it is held before its first send, which an admin may
 * reject (decision 053). Not shown to the customer: the errors are the provider's and the desk's words.
 */
export const adminProviderPayoutSchema = providerPayoutSchema.extend({
  attempts: z.number().int().nonnegative(),
  lastError: z.string().max(500).nullable(),
  lastErrorAt: z.string().nullable(),
  heldBeforeSend: z.boolean(),
});
export type AdminProviderPayout = z.infer<typeof adminProviderPayoutSchema>;
export const adminProviderPayoutResponseSchema = z.object({ payout: adminProviderPayoutSchema });

export const reconciliationQuerySchema = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, PAYOUT_MESSAGES.reconciliationDay),
});

/** Most provider transactions one reconciliation reads (100 a page, as the API allows). */
export const RECONCILIATION_MAX_TRANSACTIONS = 5000;

/**
 * One payout whose two sides differ. `providerPayoutId` is null for a payout whose send was never answered and that
 * the provider has no transfer for; `provider` is null when the provider told us nothing about the payout (no answer,
 * or no such payout): no placeholder stands for a fact (decision 062).
 */
export const reconciliationDifferenceSchema = z.object({
  providerPayoutId: z.string().nullable(),
  withdrawalId: z.string().nullable(),
  reference: z.string().nullable(),
  problems: z.array(z.string()).max(5),
  provider: z.object({ amountInr: z.string(), state: z.string(), utr: z.string().nullable() }).nullable(),
  ours: z.object({ amountInr: z.string(), state: z.string(), utr: z.string().nullable() }).nullable(),
});
export const reconciliationResponseSchema = z.object({
  day: z.string(),
  transactionsRead: z.number().int(),
  payoutsCompared: z.number().int(),
  truncated: z.boolean(),
  /** Why the answer is partial, in words for the admin; null when it is not. */
  truncatedReason: z.string().max(300).nullable(),
  differences: z.array(reconciliationDifferenceSchema).max(RECONCILIATION_MAX_TRANSACTIONS),
});
export type ReconciliationResponse = z.infer<typeof reconciliationResponseSchema>;

/**
 * GET /api/admin/payouts/overview: whether a payout provider is configured (an approve without a UTR then sends
 * the withdrawal through it; without one every approve needs the UTR of a payment made by hand, decision 049).
 */
/** Most stuck payouts the overview lists, oldest first. */
export const STUCK_PAYOUTS_MAX = 50;

export const stuckPayoutSchema = z.object({
  withdrawalId: z.uuid(),
  reference: z.string(),
  state: providerPayoutSchema.shape.state,
  amountInr: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  since: z.string(),
});
export type StuckPayout = z.infer<typeof stuckPayoutSchema>;

export const payoutOverviewResponseSchema = z.object({
  provider: z.enum(PAYOUT_PROVIDER_NAMES).nullable(),
  /** A payout not settled this many minutes after it was handed to the provider is stuck (PAYOUT_STUCK_MINUTES); null without a provider. */
  stuckAfterMinutes: z.number().int().nullable(),
  /** Provider payouts with an error or not settled in time (decision 049), oldest first. */
  stuck: z.array(stuckPayoutSchema).max(STUCK_PAYOUTS_MAX),
});
export type PayoutOverview = z.infer<typeof payoutOverviewResponseSchema>;
