import { z } from 'zod';
import { decimalStringSchema, isoDateTimeSchema, uuidSchema } from './common.ts';
import { depositNetworkSchema } from './enums.ts';

/** Credited deposits whose transfer a reorganisation removed from the chain (decision 036). */

export const CHAIN_INCIDENT_MESSAGES = {
  withdrawalHeld: (heldUsdt: string) =>
    `${heldUsdt} USDT of your balance is on hold while we check a deposit that is no longer on the blockchain. You can withdraw the rest.`,
} as const;

/** Incidents listed at once; an operator with more open has a larger problem than a page. */
export const CHAIN_INCIDENT_LIST_LIMIT = 200;

export const chainIncidentSchema = z.object({
  id: uuidSchema,
  depositId: uuidSchema,
  userId: uuidSchema,
  network: depositNetworkSchema,
  transactionHash: z.string(),
  amount: decimalStringSchema,
  kind: z.literal('transfer_vanished'),
  openedAt: isoDateTimeSchema,
  resolvedAt: isoDateTimeSchema.nullable(),
  resolution: z.literal('reincluded').nullable(),
});
export type ChainIncident = z.infer<typeof chainIncidentSchema>;

export const chainIncidentListResponseSchema = z.object({ items: z.array(chainIncidentSchema).max(CHAIN_INCIDENT_LIST_LIMIT) });
export type ChainIncidentListResponse = z.infer<typeof chainIncidentListResponseSchema>;
