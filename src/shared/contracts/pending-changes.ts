import { z } from 'zod';
import { decimalStringSchema, isoDateTimeSchema, uuidSchema } from './common.ts';
import { depositNetworkSchema, pendingChangeKindSchema } from './enums.ts';

/*
 * Two-person control (docs/decisions/017): while two or more admins exist, a
 * deposit address change and the approval of a large withdrawal wait as a
 * pending change until a second admin confirms it (or anyone discards it).
 */

/** Most open changes listed at once: one per address network and one per withdrawal, so in practice a handful. */
export const PENDING_CHANGES_LIST_LIMIT = 100;

/** "a", "a and b", "a, b and c". */
function listInWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

export const PENDING_CHANGE_MESSAGES = {
  notFound: 'Pending change not found',
  ownChange: 'You asked for this change: a second admin must confirm it.',
  alreadyDecided: (status: string) => `This change has already been ${status}.`,
  staleAddress: 'The deposit address changed since this change was asked for: discard it and ask again.',
  staleWithdrawal: 'This withdrawal is no longer waiting for this approval: discard this change.',
  alreadyWaiting: (network: string) => `A change of the ${network} address is already waiting for a second admin: confirm or discard it first.`,
  addressAwaitsSecondAdmin: 'Settings saved. The deposit address change waits for a second admin to confirm it; the public address stays as it is until then.',
  firstApproval: 'First approval recorded. A second admin must confirm this withdrawal before it is approved.',
  ownApprovalAgain: 'You already gave the first approval of this withdrawal: a second admin must confirm it.',
  roleGrantAwaitsSecondAdmin: 'Granting the admin role waits for a second admin to confirm it; until then this user keeps their current role.',
  roleGrantAlreadyWaiting: 'Granting the admin role to this user already waits for a second admin: confirm or discard it first.',
  staleRoleGrant: "This user's role changed since this was asked for: discard this change.",
  roleRemovalAwaitsSecondAdmin:
    'Taking the admin role away waits for a second admin to confirm it (the admin concerned may); until then this user stays an admin. On the server, npm run admin -- demote <email> takes it away at once.',
  roleRemovalAlreadyWaiting: 'Taking the admin role from this user already waits for a second admin: confirm or discard it first.',
  staleRoleRemoval: 'This user is no longer an admin: discard this change.',
  settingsAwaitSecondAdmin: (what: string[]) => {
    const listed = listInWords(what);
    return `Settings saved. ${listed.charAt(0).toUpperCase()}${listed.slice(1)}: ${what.length === 1 ? 'this change waits' : 'these changes wait'} for a second admin to confirm; until then the current values stay.`;
  },
  appFileAwaitsSecondAdmin: 'File uploaded. It is offered for download only once a second admin confirms it; until then the current app file stays.',
  appFileAlreadyWaiting: 'A new app file already waits for a second admin: confirm or discard it first.',
  staleAppFile: 'The uploaded app file is gone: discard this change and upload it again.',
  ratesAlreadyWaiting: 'A change of the exchange rates already waits for a second admin: confirm or discard it first.',
  limitAlreadyWaiting: 'A raise of the large-withdrawal amount already waits for a second admin: confirm or discard it first.',
  staleRates: 'The exchange rates changed since this change was asked for: discard it and ask again.',
  staleLimit: 'The large-withdrawal amount changed since this change was asked for: discard it and ask again.',
  confirmed: 'Change confirmed and applied.',
  discarded: 'Change discarded.',
} as const;

const personSchema = z.object({ id: uuidSchema, name: z.string(), email: z.string() });

export const pendingChangeSchema = z.object({
  id: uuidSchema,
  kind: pendingChangeKindSchema,
  status: z.enum(['open', 'confirmed', 'discarded']),
  /** What changes, in words: "TRC20 deposit address" or "Withdrawal of ₹2,50,000.00 to Asha Rao". */
  summary: z.string(),
  /** The value before and after: the addresses, or the withdrawal's state ("Pending" → "Approved"). */
  from: z.string(),
  to: z.string(),
  /** The network of an address change; null for a withdrawal. */
  network: depositNetworkSchema.nullable(),
  /** The withdrawal of a first approval; null for an address change. */
  withdrawal: z
    .object({
      id: uuidSchema,
      amountInr: decimalStringSchema,
      amountUsdt: decimalStringSchema,
      customer: personSchema.nullable(),
      payoutReference: z.string().nullable(),
    })
    .nullable(),
  /** The deposit of a refuted deposit's first approval (decision 037); absent for the other kinds. */
  deposit: z.object({ id: uuidSchema }).optional(),
  /** Who asked (null once that user is gone). */
  requestedBy: personSchema.nullable(),
  requestedAt: isoDateTimeSchema,
  decidedBy: personSchema.nullable(),
  decidedAt: isoDateTimeSchema.nullable(),
});
export type PendingChange = z.infer<typeof pendingChangeSchema>;

export const pendingChangeListResponseSchema = z.object({ items: z.array(pendingChangeSchema) });
export type PendingChangeList = z.infer<typeof pendingChangeListResponseSchema>;

export const pendingChangeDecisionResponseSchema = z.object({ message: z.string(), pendingChange: pendingChangeSchema });
export type PendingChangeDecision = z.infer<typeof pendingChangeDecisionResponseSchema>;

/** 202 from an approve of a large withdrawal: the first approval, waiting for a second admin. */
export const firstApprovalResponseSchema = z.object({ message: z.string(), pendingChange: pendingChangeSchema });
export type FirstApprovalResponse = z.infer<typeof firstApprovalResponseSchema>;
