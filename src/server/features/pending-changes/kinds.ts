import { z } from 'zod';
import { payeeCheckSchema } from '#shared/contracts/bank-accounts';
import { uuidSchema } from '#shared/contracts/common';
import { extendedKeyInPart } from '#shared/contracts/deposit-keys';
import { depositNetworkSchema, roleSchema, type PendingChangeKind, type Role } from '#shared/contracts/enums';
import type { PendingChange } from '#shared/contracts/pending-changes';
import { formatInrForDisplay, inrPaiseToWire, usdtMicrosToWire } from '#shared/money';
import type { pendingChanges } from '../../db/schema.ts';

type PendingChangeRow = typeof pendingChanges.$inferSelect;

/*
 * What each kind of change that waits for a second admin is (docs/decisions/017, 024, 033): the
 * payload it keeps, the subject of which at most one waits at a time, the user it concerns and how
 * the admin screen shows it. The feature that owns a kind applies it (its ChangeHandler).
 */

/** Paise and micro-USDT kept as text: JSON has no bigint. */
const integerTextSchema = z.string().regex(/^\d+$/);

const addressChangePayloadSchema = z.object({ network: depositNetworkSchema, from: z.string(), to: z.string() });

const withdrawalApprovalPayloadSchema = z.object({
  withdrawalId: uuidSchema,
  /** The state the withdrawal was in at the first approval: pending, or processing when a payout batch's results asked. */
  from: z.enum(['pending', 'processing']),
  amountInrPaise: integerTextSchema,
  amountUsdtMicros: integerTextSchema,
  customerUserId: uuidSchema,
  payoutReference: z.string().nullable(),
});

/** Granting the admin role through the web app (issue 9): the user and the role they had when it was asked for. */
const roleGrantPayloadSchema = z.object({ userId: uuidSchema, from: roleSchema });

/** Taking the admin role away while two or more admins exist: the admin it is taken from. */
const roleRemovalPayloadSchema = z.object({ userId: uuidSchema });

/** The exchange rates before and after, in paise per USDT. */
const ratesSchema = z.object({ normalRatePaise: integerTextSchema, vipRatePaise: integerTextSchema });
const exchangeRatesPayloadSchema = z.object({ from: ratesSchema, to: ratesSchema });

/** A raise of the large-withdrawal amount, in paise. */
const largeWithdrawalLimitPayloadSchema = z.object({ fromInrPaise: integerTextSchema, toInrPaise: integerTextSchema });

/** A new app file (APK) for the download, stored but not offered until a second admin confirms it. */
const appFilePayloadSchema = z.object({
  fileId: uuidSchema,
  originalName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  sha256: z.string(),
  /** The name of the file it replaces, or null when there is none. */
  replacing: z.string().nullable(),
});

/** A deposit approval the chain refutes, waiting for a second admin (decision 037). */
const depositOverridePayloadSchema = z.object({
  depositId: uuidSchema,
  customerUserId: uuidSchema,
  network: depositNetworkSchema,
  amountUsdtMicros: integerTextSchema,
  reason: z.string(),
  refutation: z.string(),
});

/** Settling a chain incident: the vanished deposit's amount taken back from the customer, or written off (decision 045). */
const chainIncidentSettlementPayloadSchema = z.object({
  incidentId: uuidSchema,
  depositId: uuidSchema,
  customerUserId: uuidSchema,
  network: depositNetworkSchema,
  amountUsdtMicros: integerTextSchema,
  resolution: z.enum(['debited', 'written_off']),
  reason: z.string(),
});

/** A network's extended public key set in the settings (decision 045); `from` is null when the settings had none. */
const depositKeyPayloadSchema = z.object({ network: depositNetworkSchema, from: z.string().nullable(), to: z.string() });

/** Lifting an admin's freeze of a customer's account (decision 047): the freeze it lifts and why. */
const accountUnfreezePayloadSchema = z.object({ userId: uuidSchema, frozenAt: z.string(), frozenReason: z.string(), reason: z.string() });

/** Approving a customer's KYC level 2 (decision 050): the case approved. */
const levelTwoApprovalPayloadSchema = z.object({ userId: uuidSchema, submissionId: uuidSchema });

/** Accepting a payee whose bank-registered name did not match, or whose check failed (decision 054). */
const payeeAcceptancePayloadSchema = z.object({
  bankAccountId: uuidSchema,
  userId: uuidSchema,
  validationId: uuidSchema.nullable(),
  check: payeeCheckSchema,
});

/** Rejecting such a payee, with the admin's reason (decision 057). */
const payeeRejectionPayloadSchema = payeeAcceptancePayloadSchema.extend({ reason: z.string() });

/** Cancelling a payout batch whose bank file was already issued (decision 038). */
const payoutBatchCancelPayloadSchema = z.object({ batchId: uuidSchema });

/** A change's kind and payload, as the `kind` and `payload` columns hold them: every read is parsed against it. */
export const pendingChangeContentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('deposit_address'), payload: addressChangePayloadSchema }),
  z.object({ kind: z.literal('large_withdrawal_approval'), payload: withdrawalApprovalPayloadSchema }),
  z.object({ kind: z.literal('admin_role_grant'), payload: roleGrantPayloadSchema }),
  z.object({ kind: z.literal('admin_role_removal'), payload: roleRemovalPayloadSchema }),
  z.object({ kind: z.literal('exchange_rates'), payload: exchangeRatesPayloadSchema }),
  z.object({ kind: z.literal('large_withdrawal_limit'), payload: largeWithdrawalLimitPayloadSchema }),
  z.object({ kind: z.literal('app_file'), payload: appFilePayloadSchema }),
  z.object({ kind: z.literal('deposit_override'), payload: depositOverridePayloadSchema }),
  z.object({ kind: z.literal('payout_batch_cancel'), payload: payoutBatchCancelPayloadSchema }),
  z.object({ kind: z.literal('chain_incident_settlement'), payload: chainIncidentSettlementPayloadSchema }),
  z.object({ kind: z.literal('deposit_xpub'), payload: depositKeyPayloadSchema }),
  z.object({ kind: z.literal('account_unfreeze'), payload: accountUnfreezePayloadSchema }),
  z.object({ kind: z.literal('kyc_level2_approval'), payload: levelTwoApprovalPayloadSchema }),
  z.object({ kind: z.literal('payee_acceptance'), payload: payeeAcceptancePayloadSchema }),
  z.object({ kind: z.literal('payee_rejection'), payload: payeeRejectionPayloadSchema }),
]);
type PendingChangeContent = z.infer<typeof pendingChangeContentSchema>;

/** Fails to compile when a kind of PENDING_CHANGE_KINDS has no payload in the union above. */
const everyKindHasAPayload: [PendingChangeKind] extends [PendingChangeContent['kind']] ? true : never = true;
void everyKindHasAPayload;

/** A row of pending_changes with its payload parsed as its kind says (`StoredPendingChange<'app_file'>`). */
export type StoredPendingChange<Kind extends PendingChangeKind = PendingChangeKind> = Omit<PendingChangeRow, 'kind' | 'payload'> & {
  kind: Kind;
  payload: PendingChangePayload<Kind>;
};

/** Parses the payload of a row as its kind says; a row that does not match is a bug, never user input. */
export function parseStoredChange(row: PendingChangeRow): StoredPendingChange {
  return { ...row, ...pendingChangeContentSchema.parse({ kind: row.kind, payload: row.payload }) };
}

export type PendingChangePayload<Kind extends PendingChangeKind> = Extract<PendingChangeContent, { kind: Kind }>['payload'];
export type AddressChangePayload = PendingChangePayload<'deposit_address'>;
export type WithdrawalApprovalPayload = PendingChangePayload<'large_withdrawal_approval'>;
export type DepositOverridePayload = PendingChangePayload<'deposit_override'>;
export type ChainIncidentSettlementPayload = PendingChangePayload<'chain_incident_settlement'>;

/** The subjects of the settings' own kinds: there is one of each, so at most one waits at a time. */
export const EXCHANGE_RATES_SUBJECT = 'exchange_rates';
export const LARGE_WITHDRAWAL_LIMIT_SUBJECT = 'large_withdrawal_inr';
export const APP_FILE_SUBJECT = 'apk';

type Person = NonNullable<PendingChange['requestedBy']>;

/** What a kind adds to the fields every change shows; `network` and `withdrawal` are null unless given. */
type KindView = Pick<PendingChange, 'summary' | 'from' | 'to'> & Partial<Pick<PendingChange, 'network' | 'withdrawal' | 'deposit'>>;

interface KindDescription<Kind extends PendingChangeKind> {
  /** What the change is about; at most one change of a kind waits per subject (a unique index). */
  subjectOf(payload: PendingChangePayload<Kind>): string;
  /** The user the change is about, for the audit log and the view: the customer of a withdrawal, the user given the admin role. */
  concernedUserId?(payload: PendingChangePayload<Kind>): string;
  view(payload: PendingChangePayload<Kind>, concerned: Person | null): KindView;
}

const ROLE_WORDS: Record<Role, string> = { user: 'User', admin: 'Admin' };

const STATUS_WORDS = { pending: 'Pending', processing: 'Processing (in a payout batch)' } as const;

function personInWords(person: Person | null): string {
  return person ? `${person.name} (${person.email})` : 'a deleted user';
}

function blockedPayeeInWords(check: z.infer<typeof payeeCheckSchema>): string {
  return check === 'check_failed' ? 'Blocked: the check with the bank failed' : 'Blocked: the bank-registered name does not match';
}

function ratesInWords(rates: z.infer<typeof ratesSchema>): string {
  return `Standard ${formatInrForDisplay(BigInt(rates.normalRatePaise))}, VIP ${formatInrForDisplay(BigInt(rates.vipRatePaise))} per USDT`;
}

/** One entry per kind: adding a kind to PENDING_CHANGE_KINDS without one fails to compile. */
export const PENDING_CHANGE_KIND_DESCRIPTIONS: { [Kind in PendingChangeKind]: KindDescription<Kind> } = {
  deposit_address: {
    subjectOf: (payload) => payload.network,
    view: (payload) => ({ summary: `${payload.network} deposit address`, from: payload.from, to: payload.to, network: payload.network }),
  },
  large_withdrawal_approval: {
    subjectOf: (payload) => payload.withdrawalId,
    concernedUserId: (payload) => payload.customerUserId,
    view: (payload, customer) => {
      const amountInrPaise = BigInt(payload.amountInrPaise);
      return {
        summary: `Withdrawal of ${formatInrForDisplay(amountInrPaise)}${customer ? ` to ${customer.name}` : ''}`,
        from: STATUS_WORDS[payload.from],
        to: 'Approved (paid)',
        withdrawal: {
          id: payload.withdrawalId,
          amountInr: inrPaiseToWire(amountInrPaise),
          amountUsdt: usdtMicrosToWire(BigInt(payload.amountUsdtMicros)),
          customer,
          payoutReference: payload.payoutReference,
        },
      };
    },
  },
  admin_role_grant: {
    subjectOf: (payload) => payload.userId,
    concernedUserId: (payload) => payload.userId,
    view: (payload, user) => ({ summary: `Admin role for ${personInWords(user)}`, from: ROLE_WORDS[payload.from], to: ROLE_WORDS.admin }),
  },
  admin_role_removal: {
    subjectOf: (payload) => payload.userId,
    concernedUserId: (payload) => payload.userId,
    view: (_payload, user) => ({ summary: `Admin role taken from ${personInWords(user)}`, from: ROLE_WORDS.admin, to: ROLE_WORDS.user }),
  },
  exchange_rates: {
    subjectOf: () => EXCHANGE_RATES_SUBJECT,
    view: (payload) => ({ summary: 'Exchange rates', from: ratesInWords(payload.from), to: ratesInWords(payload.to) }),
  },
  large_withdrawal_limit: {
    subjectOf: () => LARGE_WITHDRAWAL_LIMIT_SUBJECT,
    view: (payload) => ({
      summary: 'Large-withdrawal amount (above it, two admins approve a withdrawal)',
      from: formatInrForDisplay(BigInt(payload.fromInrPaise)),
      to: formatInrForDisplay(BigInt(payload.toInrPaise)),
    }),
  },
  app_file: {
    subjectOf: () => APP_FILE_SUBJECT,
    view: (payload) => ({
      summary: 'App file (APK) offered for download',
      from: payload.replacing ?? '(none)',
      to: `${payload.originalName}, ${payload.sizeBytes.toLocaleString('en-IN')} bytes, SHA-256 ${payload.sha256}`,
    }),
  },
  deposit_override: {
    subjectOf: (payload) => payload.depositId,
    concernedUserId: (payload) => payload.customerUserId,
    view: (payload, customer) => ({
      summary: `${payload.network} deposit${customer ? ` of ${customer.name} (${customer.email})` : ''} credited although the blockchain refutes it: ${payload.reason}`,
      from: `Pending (${payload.refutation.replaceAll('_', ' ')})`,
      to: `Approved: ${usdtMicrosToWire(BigInt(payload.amountUsdtMicros))} USDT credited`,
      network: payload.network,
      deposit: { id: payload.depositId },
    }),
  },
  payout_batch_cancel: {
    subjectOf: (payload) => payload.batchId,
    view: (payload) => ({ summary: `Cancel payout batch ${payload.batchId} (its file was downloaded)`, from: 'Open', to: 'Cancelled, withdrawals in doubt' }),
  },
  chain_incident_settlement: {
    subjectOf: (payload) => payload.incidentId,
    concernedUserId: (payload) => payload.customerUserId,
    view: (payload, customer) => {
      const amount = `${usdtMicrosToWire(BigInt(payload.amountUsdtMicros))} USDT`;
      return {
        summary: `${payload.network} deposit${customer ? ` of ${customer.name} (${customer.email})` : ''} no longer on the blockchain: ${payload.reason}`,
        from: `Open incident, ${amount} on hold`,
        to:
          payload.resolution === 'debited'
            ? `Settled: ${amount} taken back from the customer's balance`
            : `Settled: ${amount} written off, the customer keeps it`,
        network: payload.network,
        deposit: { id: payload.depositId },
      };
    },
  },
  deposit_xpub: {
    subjectOf: (payload) => payload.network,
    view: (payload) => ({
      summary: `${payload.network} deposit key (extended public key); issued addresses keep theirs, new customers get addresses under the new key`,
      from: payload.from === null ? '(none)' : extendedKeyInPart(payload.from),
      to: extendedKeyInPart(payload.to),
      network: payload.network,
    }),
  },
  account_unfreeze: {
    subjectOf: (payload) => payload.userId,
    concernedUserId: (payload) => payload.userId,
    view: (payload, customer) => ({
      summary: `Unfreeze the account of ${personInWords(customer)}: ${payload.reason}`,
      from: `Frozen: ${payload.frozenReason}`,
      to: 'Not frozen: withdrawals, transfers and bank account changes allowed again',
    }),
  },
  kyc_level2_approval: {
    subjectOf: (payload) => payload.userId,
    concernedUserId: (payload) => payload.userId,
    view: (_payload, customer) => ({
      summary: `Approve KYC level 2 of ${personInWords(customer)} (second document, selfie and address)`,
      from: 'Level 2 waiting for a review',
      to: 'Level 2 verified: the level 2 limits apply',
    }),
  },
  payee_acceptance: {
    subjectOf: (payload) => payload.bankAccountId,
    concernedUserId: (payload) => payload.userId,
    view: (payload, customer) => ({
      summary: `Accept a bank account of ${personInWords(customer)} that the bank's check did not confirm`,
      from: blockedPayeeInWords(payload.check),
      to: 'Accepted: withdrawals to it allowed',
    }),
  },
  payee_rejection: {
    subjectOf: (payload) => payload.bankAccountId,
    concernedUserId: (payload) => payload.userId,
    view: (payload, customer) => ({
      summary: `Reject a bank account of ${personInWords(customer)} that the bank's check did not confirm: ${payload.reason}`,
      from: blockedPayeeInWords(payload.check),
      to: 'Rejected: withdrawals to it refused until the customer edits it',
    }),
  },
};

/** The description of a change's kind, typed by the change's own kind. */
export function descriptionOf<Kind extends PendingChangeKind>(change: { kind: Kind }): KindDescription<Kind> {
  return PENDING_CHANGE_KIND_DESCRIPTIONS[change.kind];
}
