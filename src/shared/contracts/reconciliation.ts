import { z } from 'zod';
import { decimalStringSchema, isoDateTimeSchema, uuidSchema } from './common.ts';
import { depositNetworkSchema } from './enums.ts';

/*
 * The operator's reconciliation (decision 045): each deposit address's on-chain USDT beside what the
 * app credited there minus what was swept out, every difference flagged; and sweep plans for an
 * offline signer, matched to the sweeps the chain follower reads.
 */

/** Addresses per page: each costs one balance read from the chain provider. */
export const RECONCILIATION_PAGE_LIMIT = 100;
export const RECONCILIATION_DEFAULT_LIMIT = 50;
/** Addresses a sweep plan considers at most: one balance read and one coin-balance read each. */
export const SWEEP_PLAN_MAX_ITEMS = 500;

export const RECONCILIATION_MESSAGES = {
  notConfigured: (network: string) => `No ${network} chain endpoint is configured on this server, so on-chain balances cannot be read.`,
  providerFailed: 'The chain provider could not be read just now. Try again in a minute.',
  planNotFound: 'Sweep plan not found',
  thresholdInvalid: 'Give a threshold in USDT above 0, for example 100',
  badCursor: 'Invalid page cursor',
} as const;

/** What a flagged row means; the runbook (docs/operator-runbook.md) says what to do about each. */
export const RECONCILIATION_PROBLEMS = {
  more_on_chain: 'More USDT on chain than credited minus swept: a deposit not credited (below the minimum, pending) or a sweep not yet read',
  less_on_chain: 'Less USDT on chain than credited minus swept: a credited deposit that is not on chain, or a sweep the follower has not recorded',
  unreadable: 'The balance could not be read from the chain',
  not_followed_yet:
    'Not compared: a transfer of this address is final on chain but the chain follower has not read it yet; the next run of the follower compares it',
} as const;
export type ReconciliationProblem = keyof typeof RECONCILIATION_PROBLEMS;

export const reconciliationQuerySchema = z.strictObject({
  network: depositNetworkSchema,
  cursor: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(RECONCILIATION_PAGE_LIMIT).default(RECONCILIATION_DEFAULT_LIMIT),
});
export type ReconciliationQuery = z.infer<typeof reconciliationQuerySchema>;

export const reconciliationRowSchema = z.object({
  address: z.string(),
  kind: z.enum(['customer', 'shared']),
  userId: uuidSchema.nullable(),
  email: z.string().nullable(),
  onChain: decimalStringSchema.nullable(),
  credited: decimalStringSchema,
  swept: decimalStringSchema,
  expected: decimalStringSchema,
  difference: decimalStringSchema.nullable(),
  problem: z.enum(['more_on_chain', 'less_on_chain', 'unreadable', 'not_followed_yet']).nullable(),
});
export type ReconciliationRow = z.infer<typeof reconciliationRowSchema>;

export const reconciliationResponseSchema = z.object({
  network: depositNetworkSchema,
  /** The block the balances were read at: the follower's cursor (final blocks only); null where the node reads only its newest final state (TRON). */
  asOfBlock: z.string().nullable(),
  shared: reconciliationRowSchema.nullable(),
  items: z.array(reconciliationRowSchema).max(RECONCILIATION_PAGE_LIMIT),
  nextCursor: z.string().nullable(),
  /** This page and the shared address. */
  pageTotals: z.object({
    onChain: decimalStringSchema,
    expected: decimalStringSchema,
    difference: decimalStringSchema,
    flagged: z.number().int().nonnegative(),
  }),
  /** Every address of the network, from the app's records alone (no chain reads). */
  networkTotals: z.object({
    credited: decimalStringSchema,
    swept: decimalStringSchema,
    expected: decimalStringSchema,
    addresses: z.number().int().nonnegative(),
  }),
});
export type ReconciliationResponse = z.infer<typeof reconciliationResponseSchema>;

export const createSweepPlanRequestSchema = z.strictObject({
  network: depositNetworkSchema,
  threshold: z
    .string({ error: RECONCILIATION_MESSAGES.thresholdInvalid })
    .trim()
    .regex(/^\d{1,12}(\.\d{1,6})?$/, RECONCILIATION_MESSAGES.thresholdInvalid),
});
export type CreateSweepPlanRequest = z.infer<typeof createSweepPlanRequestSchema>;

export const sweepPlanItemSchema = z.object({
  address: z.string(),
  derivationPath: z.string().nullable(),
  amount: decimalStringSchema,
  needs: z.string(),
  sweep: z.object({ transactionHash: z.string(), amount: decimalStringSchema }).nullable(),
});
export type SweepPlanItem = z.infer<typeof sweepPlanItemSchema>;

export const sweepPlanSchema = z.object({
  id: uuidSchema,
  network: depositNetworkSchema,
  threshold: decimalStringSchema,
  createdAt: isoDateTimeSchema,
  items: z.array(sweepPlanItemSchema).max(SWEEP_PLAN_MAX_ITEMS),
});
export type SweepPlan = z.infer<typeof sweepPlanSchema>;

export const sweepPlanExportQuerySchema = z.strictObject({ format: z.enum(['json', 'csv']).default('json') });
