import type { DepositNetwork, PendingChangeKind, Role } from '#shared/contracts/enums';
import { PENDING_CHANGE_MESSAGES, PENDING_CHANGES_LIST_LIMIT, type PendingChange } from '#shared/contracts/pending-changes';
import { formatInrForDisplay, inrPaiseToWire, usdtMicrosToWire } from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { ACCESS_DENIED_MESSAGE } from '../../platform/decisions/decide.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import * as pendingChangeRepository from './repository.ts';
import type { PendingChangeRow } from './repository.ts';

/*
 * Two-person control (docs/decisions/017). The features that need a second
 * admin (settings for deposit addresses, withdrawals for large approvals) ask
 * here for a pending change inside their own transaction; a second admin
 * confirms it through POST /api/admin/pending-changes/:id/confirm, which hands
 * it back to that feature's confirm handler in one transaction.
 */

export type { PendingChangeRow } from './repository.ts';

export interface AddressChangePayload {
  network: DepositNetwork;
  from: string;
  to: string;
}

export interface WithdrawalApprovalPayload {
  withdrawalId: string;
  /** The state the withdrawal was in at the first approval: pending, or processing when a payout batch's results asked. */
  from: 'pending' | 'processing';
  amountInrPaise: string;
  amountUsdtMicros: string;
  customerUserId: string;
  payoutReference: string | null;
}

/** Granting the admin role through the web app (issue 9): the user and the role they had when it was asked for. */
export interface RoleGrantPayload {
  userId: string;
  from: Role;
}

/** Taking the admin role away while two or more admins exist: the admin it is taken from. */
export interface RoleRemovalPayload {
  userId: string;
}

/** The exchange rates before and after, in paise per USDT (as text: JSON has no bigint). */
export interface ExchangeRatesPayload {
  from: { normalRatePaise: string; vipRatePaise: string };
  to: { normalRatePaise: string; vipRatePaise: string };
}

/** A raise of the large-withdrawal amount, in paise (as text). */
export interface LargeWithdrawalLimitPayload {
  fromInrPaise: string;
  toInrPaise: string;
}

/** A new app file (APK) for the download, stored but not offered until a second admin confirms it. */
export interface AppFilePayload {
  fileId: string;
  originalName: string;
  sizeBytes: number;
  sha256: string;
  /** The name of the file it replaces, or null when there is none. */
  replacing: string | null;
}

/** Cancelling a payout batch whose bank file was already issued (decision 038); the subject is the batch. */
export interface PayoutBatchCancelPayload {
  batchId: string;
}

/** The subjects of the settings' own kinds: there is one of each, so at most one waits at a time. */
export const EXCHANGE_RATES_SUBJECT = 'exchange_rates';
export const LARGE_WITHDRAWAL_LIMIT_SUBJECT = 'large_withdrawal_inr';
export const APP_FILE_SUBJECT = 'apk';

export interface Actor {
  userId: string;
  ipAddress?: string | undefined;
}

/**
 * How a feature applies its kind of change. `lockSubject` locks what the change is about (the
 * settings row, the withdrawal) before the change itself is locked: the feature's own paths lock
 * in that order too (a save locks the settings, an approve the withdrawal, then the change), so a
 * confirm and an approve at the same moment wait for each other instead of deadlocking.
 * `confirm` applies it inside the confirmation's transaction; it throws AppError (409) when stale.
 */
export interface ChangeHandler {
  lockSubject(transaction: Executor, subject: string): Promise<void>;
  confirm(transaction: Executor, change: PendingChangeRow, decider: Actor): Promise<void>;
}

/** Two-person control is on while two or more users have the admin role (VIP-level readers do not count). */
export async function needsSecondAdmin(db: Executor): Promise<boolean> {
  return (await pendingChangeRepository.countAdmins(db)) >= 2;
}

export async function adminEmails(db: Executor): Promise<string[]> {
  return pendingChangeRepository.listAdminEmails(db);
}

export async function findOpenChange(db: Executor, kind: PendingChangeKind, subject: string): Promise<PendingChangeRow | undefined> {
  return pendingChangeRepository.findOpenBySubject(db, kind, subject);
}

/** The user a change is about, for the audit log: the customer of a withdrawal, the user given the admin role. */
function concernedUserId(row: PendingChangeRow): string | undefined {
  if (row.kind === 'large_withdrawal_approval') return (row.payload as WithdrawalApprovalPayload).customerUserId;
  if (row.kind === 'admin_role_grant') return (row.payload as RoleGrantPayload).userId;
  if (row.kind === 'admin_role_removal') return (row.payload as RoleRemovalPayload).userId;
  return undefined;
}

function auditSnapshot(row: PendingChangeRow): Record<string, unknown> {
  return { kind: row.kind, ...(row.payload as Record<string, unknown>) };
}

/** Records a change that waits for a second admin, with its audit entry, in the caller's transaction. */
export async function requestChange(
  db: Executor,
  change:
    | { kind: 'deposit_address'; subject: DepositNetwork; payload: AddressChangePayload }
    | { kind: 'large_withdrawal_approval'; subject: string; payload: WithdrawalApprovalPayload }
    | { kind: 'admin_role_grant'; subject: string; payload: RoleGrantPayload }
    | { kind: 'admin_role_removal'; subject: string; payload: RoleRemovalPayload }
    | { kind: 'exchange_rates'; subject: typeof EXCHANGE_RATES_SUBJECT; payload: ExchangeRatesPayload }
    | { kind: 'large_withdrawal_limit'; subject: typeof LARGE_WITHDRAWAL_LIMIT_SUBJECT; payload: LargeWithdrawalLimitPayload }
    | { kind: 'app_file'; subject: typeof APP_FILE_SUBJECT; payload: AppFilePayload }
    | { kind: 'payout_batch_cancel'; subject: string; payload: PayoutBatchCancelPayload },
  actor: Actor,
): Promise<PendingChange> {
  const row = await pendingChangeRepository.insertChange(db, { kind: change.kind, subject: change.subject, payload: change.payload, requestedByUserId: actor.userId });
  await recordAudit(db, {
    actorUserId: actor.userId,
    action: 'pending_change.request',
    targetType: 'pending_change',
    targetId: row.id,
    targetUserId: concernedUserId(row),
    after: { status: 'open', ...auditSnapshot(row) },
    ipAddress: actor.ipAddress,
  });
  await publishEvent(db, { type: 'admin.queue.updated' });
  return (await pendingChangeViews(db, [row]))[0] as PendingChange;
}

async function closeChange(db: Executor, row: PendingChangeRow, status: 'confirmed' | 'discarded', actor: Actor | null): Promise<PendingChangeRow> {
  const decided = await pendingChangeRepository.markDecided(db, row.id, { status, decidedByUserId: actor?.userId ?? null });
  if (!decided) throw AppError.conflict(PENDING_CHANGE_MESSAGES.alreadyDecided(status), 'ALREADY_DECIDED');
  await recordAudit(db, {
    actorUserId: actor?.userId ?? null,
    action: status === 'confirmed' ? 'pending_change.confirm' : 'pending_change.discard',
    targetType: 'pending_change',
    targetId: row.id,
    targetUserId: concernedUserId(row),
    before: { status: 'open' },
    after: { status, ...auditSnapshot(row) },
    ipAddress: actor?.ipAddress,
  });
  await publishEvent(db, { type: 'admin.queue.updated' });
  return decided;
}

/**
 * Discards the open change about a subject, if any, in the caller's transaction: a withdrawal that
 * was rejected (or approved another way) leaves no first approval behind.
 */
export async function discardOpenChange(db: Executor, kind: PendingChangeKind, subject: string, actor: Actor | null): Promise<void> {
  const open = await pendingChangeRepository.findOpenBySubject(db, kind, subject);
  if (open) await closeChange(db, open, 'discarded', actor);
}

/** Marks an open change confirmed in the caller's transaction (a second admin's approve of the withdrawal itself). */
export async function confirmOpenChange(db: Executor, row: PendingChangeRow, actor: Actor): Promise<void> {
  if (row.requestedByUserId === actor.userId) throw AppError.forbidden(PENDING_CHANGE_MESSAGES.ownChange);
  await closeChange(db, row, 'confirmed', actor);
}

async function lockedOpenChange(transaction: Executor, id: string): Promise<PendingChangeRow> {
  const row = await pendingChangeRepository.findByIdForUpdate(transaction, id);
  if (!row) throw AppError.notFound(PENDING_CHANGE_MESSAGES.notFound);
  if (row.status !== 'open') throw AppError.conflict(PENDING_CHANGE_MESSAGES.alreadyDecided(row.status), 'ALREADY_DECIDED');
  return row;
}

/**
 * A second admin confirms: in one transaction the change is locked (a concurrent confirm waits and
 * then finds it decided: 409), the confirming admin's role is re-read, the requester is refused, the
 * change is marked confirmed and its feature applies it, re-checking that nothing changed since.
 * What the change is about is locked first (ChangeHandler).
 */
export async function confirmChange(db: Database, actor: Actor, id: string, handlers: Record<PendingChangeKind, ChangeHandler>): Promise<PendingChange> {
  return db.transaction(async (transaction) => {
    if ((await pendingChangeRepository.lockedRoleOf(transaction, actor.userId)) !== 'admin') throw AppError.forbidden(ACCESS_DENIED_MESSAGE);
    const unlocked = await pendingChangeRepository.findById(transaction, id);
    if (!unlocked) throw AppError.notFound(PENDING_CHANGE_MESSAGES.notFound);
    const handler = handlers[unlocked.kind];
    await handler.lockSubject(transaction, unlocked.subject);
    const row = await lockedOpenChange(transaction, id);
    if (row.requestedByUserId === actor.userId) throw AppError.forbidden(PENDING_CHANGE_MESSAGES.ownChange);
    const confirmed = await closeChange(transaction, row, 'confirmed', actor);
    await handler.confirm(transaction, row, actor);
    return (await pendingChangeViews(transaction, [confirmed]))[0] as PendingChange;
  });
}

/** Any admin, the requester included, discards an open change; nothing it describes happens. */
export async function discardChange(db: Database, actor: Actor, id: string): Promise<PendingChange> {
  return db.transaction(async (transaction) => {
    if ((await pendingChangeRepository.lockedRoleOf(transaction, actor.userId)) !== 'admin') throw AppError.forbidden(ACCESS_DENIED_MESSAGE);
    const row = await lockedOpenChange(transaction, id);
    const discarded = await closeChange(transaction, row, 'discarded', actor);
    return (await pendingChangeViews(transaction, [discarded]))[0] as PendingChange;
  });
}

export async function listOpenChanges(db: Executor): Promise<PendingChange[]> {
  return pendingChangeViews(db, await pendingChangeRepository.listOpen(db, PENDING_CHANGES_LIST_LIMIT));
}

const ROLE_WORDS: Record<Role, string> = { user: 'User', admin: 'Admin' };

const STATUS_WORDS = { pending: 'Pending', processing: 'Processing (in a payout batch)' } as const;

async function pendingChangeViews(db: Executor, rows: PendingChangeRow[]): Promise<PendingChange[]> {
  const ids = new Set<string>();
  for (const row of rows) {
    if (row.requestedByUserId) ids.add(row.requestedByUserId);
    if (row.decidedByUserId) ids.add(row.decidedByUserId);
    const concerned = concernedUserId(row);
    if (concerned) ids.add(concerned);
  }
  const people = await pendingChangeRepository.findPeople(db, [...ids]);
  const person = (id: string | null) => (id ? (people.get(id) ?? null) : null);
  return rows.map((row) => {
    const common = {
      id: row.id,
      kind: row.kind,
      status: row.status,
      requestedBy: person(row.requestedByUserId),
      requestedAt: row.requestedAt.toISOString(),
      decidedBy: person(row.decidedByUserId),
      decidedAt: row.decidedAt?.toISOString() ?? null,
    };
    if (row.kind === 'deposit_address') {
      const payload = row.payload as AddressChangePayload;
      return { ...common, summary: `${payload.network} deposit address`, from: payload.from, to: payload.to, network: payload.network, withdrawal: null };
    }
    if (row.kind === 'admin_role_grant' || row.kind === 'admin_role_removal') {
      const payload = row.payload as RoleGrantPayload | RoleRemovalPayload;
      const user = person(payload.userId);
      const granted = row.kind === 'admin_role_grant';
      return {
        ...common,
        summary: `Admin role ${granted ? 'for' : 'taken from'} ${user ? `${user.name} (${user.email})` : 'a deleted user'}`,
        from: granted ? ROLE_WORDS[(payload as RoleGrantPayload).from] : ROLE_WORDS.admin,
        to: granted ? ROLE_WORDS.admin : ROLE_WORDS.user,
        network: null,
        withdrawal: null,
      };
    }
    if (row.kind === 'exchange_rates') {
      const payload = row.payload as ExchangeRatesPayload;
      const rates = (side: ExchangeRatesPayload['from']) =>
        `Standard ${formatInrForDisplay(BigInt(side.normalRatePaise))}, VIP ${formatInrForDisplay(BigInt(side.vipRatePaise))} per USDT`;
      return { ...common, summary: 'Exchange rates', from: rates(payload.from), to: rates(payload.to), network: null, withdrawal: null };
    }
    if (row.kind === 'app_file') {
      const payload = row.payload as AppFilePayload;
      return {
        ...common,
        summary: 'App file (APK) offered for download',
        from: payload.replacing ?? '(none)',
        to: `${payload.originalName}, ${payload.sizeBytes.toLocaleString('en-IN')} bytes, SHA-256 ${payload.sha256}`,
        network: null,
        withdrawal: null,
      };
    }
    if (row.kind === 'payout_batch_cancel') {
      const payload = row.payload as PayoutBatchCancelPayload;
      return { ...common, summary: `Cancel payout batch ${payload.batchId} (its file was downloaded)`, from: 'Open', to: 'Cancelled, withdrawals in doubt', network: null, withdrawal: null };
    }
    if (row.kind === 'large_withdrawal_limit') {
      const payload = row.payload as LargeWithdrawalLimitPayload;
      return {
        ...common,
        summary: 'Large-withdrawal amount (above it, two admins approve a withdrawal)',
        from: formatInrForDisplay(BigInt(payload.fromInrPaise)),
        to: formatInrForDisplay(BigInt(payload.toInrPaise)),
        network: null,
        withdrawal: null,
      };
    }
    const payload = row.payload as WithdrawalApprovalPayload;
    const customer = person(payload.customerUserId);
    const amountInrPaise = BigInt(payload.amountInrPaise);
    return {
      ...common,
      summary: `Withdrawal of ${formatInrForDisplay(amountInrPaise)}${customer ? ` to ${customer.name}` : ''}`,
      from: STATUS_WORDS[payload.from],
      to: 'Approved (paid)',
      network: null,
      withdrawal: {
        id: payload.withdrawalId,
        amountInr: inrPaiseToWire(amountInrPaise),
        amountUsdt: usdtMicrosToWire(BigInt(payload.amountUsdtMicros)),
        customer,
        payoutReference: payload.payoutReference,
      },
    };
  });
}
