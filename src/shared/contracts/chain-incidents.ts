import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { decimalStringSchema, isoDateTimeSchema, uuidSchema } from './common.ts';
import { depositNetworkSchema } from './enums.ts';
import { pendingChangeSchema } from './pending-changes.ts';

/** Credited deposits whose transfer a reorganisation removed from the chain (decisions 036 and 045). */

export const CHAIN_INCIDENT_MESSAGES = {
  withdrawalHeld: (heldUsdt: string) =>
    `${heldUsdt} USDT of your balance is on hold while we check a deposit that is no longer on the blockchain. You can withdraw the rest.`,
  transferHeld: (heldUsdt: string) =>
    `${heldUsdt} USDT of your balance is on hold while we check a deposit that is no longer on the blockchain. You can send the rest.`,
  notFound: 'Incident not found',
  alreadySettled: 'This incident is already settled.',
  settled: 'Incident settled',
  settlementRequested: 'Settlement recorded; a second admin must confirm it before it applies.',
  settlementWaiting: 'A settlement of this incident is already waiting for a second admin.',
  reasonRequired: 'Write why the incident is settled this way',
  approvalHeld:
    'This customer has a credited deposit that is no longer on the blockchain. Settle the chain incident (Reconciliation) before approving their withdrawals.',
  batchHeld: (withdrawalIds: string[]) =>
    `Withdrawals ${withdrawalIds.join(', ')} belong to a customer with a credited deposit that is no longer on the blockchain. Settle the chain incident (Reconciliation) first.`,
  balanceTooLow: (balanceUsdt: string, amountUsdt: string) =>
    `The customer's balance is ${balanceUsdt} USDT, less than the ${amountUsdt} USDT to take back. Settle it as written off, with the reason, or wait until the balance covers it.`,
} as const;

/** How an incident ended: the transfer final on the chain again, the balance taken back, or the loss written off by the operator. */
export const CHAIN_INCIDENT_RESOLUTIONS = ['reincluded', 'debited', 'written_off'] as const;
export type ChainIncidentResolution = (typeof CHAIN_INCIDENT_RESOLUTIONS)[number];

/** What an admin may settle an incident as; `reincluded` is the chain's own word, never an admin's. */
export const CHAIN_INCIDENT_SETTLEMENTS = ['debited', 'written_off'] as const;
export const chainIncidentSettlementSchema = z.enum(CHAIN_INCIDENT_SETTLEMENTS, { error: 'Choose debited or written_off' });
export type ChainIncidentSettlement = z.infer<typeof chainIncidentSettlementSchema>;

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
  resolution: z.enum(CHAIN_INCIDENT_RESOLUTIONS).nullable(),
  resolutionReason: z.string().nullable(),
  resolvedByUserId: uuidSchema.nullable(),
});
export type ChainIncident = z.infer<typeof chainIncidentSchema>;

export const chainIncidentListResponseSchema = z.object({ items: z.array(chainIncidentSchema).max(CHAIN_INCIDENT_LIST_LIMIT) });
export type ChainIncidentListResponse = z.infer<typeof chainIncidentListResponseSchema>;

/** POST /api/admin/chain-incidents/:id/settle */
export const chainIncidentSettleRequestSchema = z.object({
  resolution: chainIncidentSettlementSchema,
  reason: z
    .string({ error: CHAIN_INCIDENT_MESSAGES.reasonRequired })
    .trim()
    .min(1, CHAIN_INCIDENT_MESSAGES.reasonRequired)
    .max(LIMITS.reasonLength, `The reason can have at most ${LIMITS.reasonLength} characters.`),
});
export type ChainIncidentSettleRequest = z.infer<typeof chainIncidentSettleRequestSchema>;

/** 200 when the settlement applied (one admin), 202 when it waits for a second admin's confirm. */
export const chainIncidentSettleResponseSchema = z.union([
  z.object({ message: z.string(), incident: chainIncidentSchema }),
  z.object({ message: z.string(), pendingChange: pendingChangeSchema }),
]);
export type ChainIncidentSettleResponse = z.infer<typeof chainIncidentSettleResponseSchema>;
