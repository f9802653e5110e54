import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import {
  SETTINGS_CONFLICT_MESSAGE,
  type AdminSettings,
  type StoredPublicSettings,
  type RatesResponse,
  type SettingsFormOutput,
  type UpdateSettingsInput,
} from '#shared/contracts/settings';
import { inrPaiseToWire, parseInrPaise, parseRatePaise, parseUsdtMicros, ratePaiseToWire, usdtMicrosToWire, type DecimalParseResult } from '#shared/money';
import { isLargeRateChange, largeRateChangeMessage } from '#shared/contracts/settings';
import { DEPOSIT_NETWORKS, type DepositNetwork, type PendingChangeKind } from '#shared/contracts/enums';
import { PENDING_CHANGE_MESSAGES, type PendingChange } from '#shared/contracts/pending-changes';
import { escapeHtml } from '../../platform/mail/mailer.ts';
import { adminEmails, findOpenChange, needsSecondAdmin, requestChange, type Actor, type ChangeHandler } from '../pending-changes/service.ts';
import {
  EXCHANGE_RATES_SUBJECT,
  LARGE_WITHDRAWAL_LIMIT_SUBJECT,
  type AddressChangePayload,
  type PendingChangePayload,
  type StoredPendingChange,
} from '../pending-changes/kinds.ts';
import type { AppContext } from '../../context.ts';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { publicFileUrl, storedFileView } from '../files/views.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { isValidErc20Address, isValidTronAddress, toChecksumAddress } from './addresses.ts';
import * as settingsRepository from './repository.ts';
import type { EditableSettings, StoredFileRow } from './repository.ts';
import type { SettingsFileColumn, SettingsRow } from './settings-row.ts';
import type { AuditAction } from '#shared/contracts/enums';
import { desiredKycSettings, kycSettingsSnapshot, kycSettingsView } from './kyc-settings.ts';
import { CONSENT_NOTICE_VERSION, type OperatorIdentityResponse } from '#shared/contracts/operator-identity';
import { desiredOperatorIdentity, operatorIdentityOf, operatorIdentitySnapshot } from './operator-identity.ts';
import { desiredPayoutFile, payoutFileOf, payoutFileSnapshot } from './payout-file.ts';
import {
  assertMinimumNotAboveMaximum,
  desiredWithdrawalRules,
  withdrawalRulesSnapshot,
  withdrawalRulesView,
  type WithdrawalRuleColumns,
} from './withdrawal-rules.ts';

/** Deposits, withdrawals, the wallet and file uploads read the settings row through this module. */
export type { SettingsFileColumn, SettingsRow } from './settings-row.ts';

/** The single settings row. */
export function getSettings(db: Executor): Promise<SettingsRow> {
  return settingsRepository.getSettings(db);
}

/** The settings row, locked until the transaction ends, so that concurrent changes see each other's result as "before". */
export function getSettingsForUpdate(db: Executor): Promise<SettingsRow> {
  return settingsRepository.getSettingsForUpdate(db);
}

export { tierLimits } from './withdrawal-rules.ts';

export const SETTINGS_AUDIT_ACTION: AuditAction = 'settings.update';

export function ratesOf(row: SettingsRow): RatesResponse {
  return {
    normalRate: ratePaiseToWire(row.rateNormalInrPaise),
    vipRate: ratePaiseToWire(row.rateVipInrPaise),
    fallback: false,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getRates(db: Database): Promise<RatesResponse> {
  const row = await settingsRepository.getRates(db);
  return {
    normalRate: ratePaiseToWire(row.rate_normal_inr_paise),
    vipRate: ratePaiseToWire(row.rate_vip_inr_paise),
    fallback: false,
    updatedAt: row.updated_at_iso,
  };
}

/**
 * Whether a network's QR image may be shown: it was read at upload to show the deposit address the
 * network has now (decision 023). An address change sets the image aside as well; this is the
 * second guard, so that no path can put a picture of another address before a customer.
 */
export function qrImageShowsAddress(file: Pick<StoredFileRow, 'qrContent'> | undefined, address: string): boolean {
  return file !== undefined && address !== '' && file.qrContent === address;
}

export async function getPublicSettings(db: Executor): Promise<StoredPublicSettings> {
  const row = await settingsRepository.getSettings(db);
  const fileIds = [row.trc20QrFileId, row.erc20QrFileId, row.apkFileId].filter((id): id is string => id !== null);
  const files = await settingsRepository.findStoredFilesByIds(db, fileIds);
  const qrImage = (purpose: 'qr_trc20' | 'qr_erc20', fileId: string | null, address: string) =>
    fileId && qrImageShowsAddress(files.get(fileId), address) ? { exists: true, url: publicFileUrl(purpose, fileId) } : { exists: false, url: null };
  const apkFile = row.apkFileId ? files.get(row.apkFileId) : undefined;
  return {
    rates: ratesOf(row),
    addresses: { TRC20: row.trc20Address, ERC20: row.erc20Address },
    qrImages: {
      TRC20: qrImage('qr_trc20', row.trc20QrFileId, row.trc20Address),
      ERC20: qrImage('qr_erc20', row.erc20QrFileId, row.erc20Address),
    },
    whatsappSupportNumber: row.whatsappSupportNumber,
    websiteUrl: row.websiteUrl,
    minDeposit: usdtMicrosToWire(row.minDepositUsdtMicros),
    apk: apkFile ? { exists: true, url: publicFileUrl('apk', apkFile.id), sizeBytes: apkFile.sizeBytes } : { exists: false, url: null, sizeBytes: null },
  };
}

/** What the footer, the terms and privacy pages and the consent notice show of the operator. */
/** The bank file's layout and debit account as the admin set them (decision 064), for the payout batches. */
export async function getPayoutFileSettings(db: Executor): Promise<ReturnType<typeof payoutFileOf>> {
  return payoutFileOf(await settingsRepository.getSettings(db));
}

export async function getOperatorIdentity(db: Executor): Promise<OperatorIdentityResponse> {
  return { ...operatorIdentityOf(await settingsRepository.getSettings(db)), consentNoticeVersion: CONSENT_NOTICE_VERSION };
}

export async function adminSettingsView(db: Executor, row: SettingsRow, viewer: Pick<SessionRecord, 'role'>): Promise<AdminSettings> {
  const fileIds = [row.trc20QrFileId, row.erc20QrFileId, row.apkFileId].filter((id): id is string => id !== null);
  const files = await settingsRepository.findStoredFilesByIds(db, fileIds);
  const fileView = (id: string | null) => {
    const file = id ? files.get(id) : undefined;
    return file ? storedFileView(file) : null;
  };
  // Only admins pass the admin area's guard (decision 040); the flag stays a check of the viewer, not a constant.
  const canEdit = viewer.role === 'admin';
  const updatedBy = canEdit && row.updatedByUserId ? await settingsRepository.findUserName(db, row.updatedByUserId) : undefined;
  return {
    normalRate: ratePaiseToWire(row.rateNormalInrPaise),
    vipRate: ratePaiseToWire(row.rateVipInrPaise),
    trc20Address: row.trc20Address,
    erc20Address: row.erc20Address,
    whatsappSupportNumber: row.whatsappSupportNumber,
    websiteUrl: row.websiteUrl,
    minDeposit: usdtMicrosToWire(row.minDepositUsdtMicros),
    largeWithdrawalInr: inrPaiseToWire(row.largeWithdrawalInrPaise),
    files: { trc20Qr: fileView(row.trc20QrFileId), erc20Qr: fileView(row.erc20QrFileId), apk: fileView(row.apkFileId) },
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: updatedBy ?? null,
    canEdit,
    ...withdrawalRulesView(row),
    ...kycSettingsView(row),
    operatorIdentity: operatorIdentityOf(row),
    payoutFile: payoutFileOf(row),
  };
}

export async function getAdminSettings(db: Executor, viewer: Pick<SessionRecord, 'role'>): Promise<AdminSettings> {
  return adminSettingsView(db, await settingsRepository.getSettings(db), viewer);
}

/** The settings as they are kept in the history and the audit log: amounts as decimal strings. */
export function settingsSnapshot(row: SettingsRow): Record<string, string | null> {
  return {
    normalRate: ratePaiseToWire(row.rateNormalInrPaise),
    vipRate: ratePaiseToWire(row.rateVipInrPaise),
    trc20Address: row.trc20Address,
    erc20Address: row.erc20Address,
    whatsappSupportNumber: row.whatsappSupportNumber,
    websiteUrl: row.websiteUrl,
    minDeposit: usdtMicrosToWire(row.minDepositUsdtMicros),
    largeWithdrawalInr: inrPaiseToWire(row.largeWithdrawalInrPaise),
    trc20QrFileId: row.trc20QrFileId,
    erc20QrFileId: row.erc20QrFileId,
    apkFileId: row.apkFileId,
    ...withdrawalRulesSnapshot(row),
    ...kycSettingsSnapshot(row),
    ...operatorIdentitySnapshot(row),
    ...payoutFileSnapshot(row),
  };
}

/** Only the entries that differ, so the audit log shows what changed and nothing else. */
export function changedEntries(before: Record<string, string | null>, after: Record<string, string | null>) {
  const changedBefore: Record<string, string | null> = {};
  const changedAfter: Record<string, string | null> = {};
  for (const key of Object.keys(after)) {
    if (before[key] !== after[key]) {
      changedBefore[key] = before[key] ?? null;
      changedAfter[key] = after[key] ?? null;
    }
  }
  return { before: changedBefore, after: changedAfter };
}

/** The contract has already checked every value; a failure here would be a bug. */
function parsedOrThrow(result: DecimalParseResult, field: string): bigint {
  if (!result.ok) throw new Error(`${field} passed validation but did not parse: ${result.reason}`);
  return result.value;
}

/** What a save asks for; an optional field the request left out is undefined (or absent) and keeps its value. */
type DesiredSettings = Omit<EditableSettings, 'largeWithdrawalInrPaise' | keyof WithdrawalRuleColumns> & {
  largeWithdrawalInrPaise: bigint | undefined;
} & Partial<WithdrawalRuleColumns>;

function desiredSettings(input: SettingsFormOutput): DesiredSettings {
  const fields: Record<string, string> = {};
  if (input.trc20Address !== '' && !isValidTronAddress(input.trc20Address)) {
    fields.trc20Address = 'TRC20 address is not a valid TRON address (its checksum does not match); check it for typos';
  }
  if (input.erc20Address !== '' && !isValidErc20Address(input.erc20Address)) {
    fields.erc20Address = 'ERC20 address has mixed case but its EIP-55 checksum does not match; check it for typos';
  }
  const firstMessage = Object.values(fields)[0];
  if (firstMessage) throw AppError.validation(firstMessage, fields);
  return {
    rateNormalInrPaise: parsedOrThrow(parseRatePaise(input.normalRate), 'normalRate'),
    rateVipInrPaise: parsedOrThrow(parseRatePaise(input.vipRate), 'vipRate'),
    trc20Address: input.trc20Address,
    erc20Address: input.erc20Address === '' ? '' : toChecksumAddress(input.erc20Address),
    whatsappSupportNumber: input.whatsappSupportNumber,
    websiteUrl: input.websiteUrl,
    minDepositUsdtMicros: parsedOrThrow(parseUsdtMicros(input.minDeposit), 'minDeposit'),
    largeWithdrawalInrPaise: input.largeWithdrawalInr === undefined ? undefined : parsedOrThrow(parseInrPaise(input.largeWithdrawalInr), 'largeWithdrawalInr'),
    ...desiredWithdrawalRules(input),
    ...desiredKycSettings(input),
    ...desiredOperatorIdentity(input),
    ...desiredPayoutFile(input),
  };
}

const RATE_COLUMNS = { normalRate: 'rateNormalInrPaise', vipRate: 'rateVipInrPaise' } as const;

/** A rate change of more than 5% is refused unless the request says the admin confirmed it (the web app asks first). */
function refuseUnconfirmedLargeRateChange(current: SettingsRow, desired: DesiredSettings, confirmed: boolean | undefined): void {
  if (confirmed === true) return;
  const fields: Record<string, string> = {};
  for (const [field, column] of Object.entries(RATE_COLUMNS) as [keyof typeof RATE_COLUMNS, (typeof RATE_COLUMNS)[keyof typeof RATE_COLUMNS]][]) {
    if (isLargeRateChange(current[column], desired[column])) {
      fields[field] = largeRateChangeMessage(field, ratePaiseToWire(current[column]), ratePaiseToWire(desired[column]));
    }
  }
  const firstMessage = Object.values(fields)[0];
  if (firstMessage) throw new AppError(409, 'RATE_CHANGE_NEEDS_CONFIRMATION', firstMessage, { fields });
}

/** Each network's address column of the settings row (the file uploads check QR images against it too). */
export const ADDRESS_COLUMNS = { TRC20: 'trc20Address', ERC20: 'erc20Address' } as const satisfies Record<DepositNetwork, keyof EditableSettings>;
const QR_COLUMNS = { TRC20: 'trc20QrFileId', ERC20: 'erc20QrFileId' } as const satisfies Record<DepositNetwork, SettingsFileColumn>;

/**
 * A network's QR image shows its old address once the address changes, so every change of an address
 * sets that network's image aside in the same update (decision 023); customers then see the QR drawn
 * from the new address until an admin uploads a picture of it.
 */
function withQrImagesSetAside(changes: Partial<EditableSettings>): Partial<EditableSettings> & Partial<Record<SettingsFileColumn, null>> {
  const setAside: Partial<Record<SettingsFileColumn, null>> = {};
  for (const network of DEPOSIT_NETWORKS) if (changes[ADDRESS_COLUMNS[network]] !== undefined) setAside[QR_COLUMNS[network]] = null;
  return { ...changes, ...setAside };
}

export interface SettingsSaveResult {
  settings: AdminSettings;
  /** Address changes waiting for a second admin (two-person control); empty when everything was applied. */
  pendingChanges: PendingChange[];
}

/**
 * Saves the whole settings form at once: either every field is valid and saved,
 * or nothing is. History, audit entry and the live-update event are written in
 * the same transaction, so none of them can exist without the change.
 *
 * Optimistic concurrency: the form carries the updatedAt of the settings it was
 * loaded from. It is compared with the row after the row is locked, so of two
 * admins saving from the same version exactly one wins; the other gets 409
 * CONFLICT and nothing is written (no change, history, audit or event).
 */
export async function updateSettings(
  context: AppContext,
  request: FastifyRequest,
  session: SessionRecord,
  input: UpdateSettingsInput,
): Promise<SettingsSaveResult> {
  const desired = desiredSettings(input);
  const actor = { userId: session.userId, ipAddress: request.ip };
  const singleAdminAddressChanges: AddressChangePayload[] = [];
  const result = await context.database.db.transaction(async (transaction) => {
    const current = await settingsRepository.getSettingsForUpdate(transaction);
    if (current.updatedAt.getTime() !== Date.parse(input.expectedUpdatedAt)) throw AppError.conflict(SETTINGS_CONFLICT_MESSAGE);
    refuseUnconfirmedLargeRateChange(current, desired, input.confirmedLargeRateChange);
    assertMinimumNotAboveMaximum(current, desired);
    const changes = changedSettings(current, desired);
    const guarded = guardedChangesOf(current, desired, changes);
    // Two-person control (decisions 017 and 023): while a second admin exists, what decides where deposits go
    // and how many rupees a withdrawal pays changes only when that admin confirms; the rest of the form is saved now.
    const twoPersonControl = hasGuardedChange(guarded) && (await needsSecondAdmin(transaction));
    if (twoPersonControl) await holdBackForSecondAdmin(transaction, guarded, changes);
    else singleAdminAddressChanges.push(...guarded.addressChanges);
    let saved = current;
    if (Object.keys(changes).length > 0) {
      saved = await settingsRepository.updateSettings(transaction, withQrImagesSetAside(changes), session.userId);
      const marker: Record<string, string> = singleAdminAddressChanges.length > 0 ? { addressChangeControl: SINGLE_ADMIN_MARK } : {};
      await recordSettingsChange(transaction, request, session, current, saved, SETTINGS_AUDIT_ACTION, marker);
    }
    const pendingChanges = twoPersonControl ? await requestSecondAdminChanges(transaction, guarded, actor) : [];
    return { settings: await adminSettingsView(transaction, saved, session), pendingChanges };
  });
  if (singleAdminAddressChanges.length > 0) await mailSingleAdminAddressChange(context, request.log, session, singleAdminAddressChanges);
  return result;
}

/** The fields whose desired value differs from the stored one: only these are saved, recorded and audited. */
function changedSettings(current: SettingsRow, desired: DesiredSettings): Partial<EditableSettings> {
  const changes: Partial<EditableSettings> = {};
  for (const key of Object.keys(desired) as (keyof EditableSettings)[]) {
    if (desired[key] !== undefined && desired[key] !== current[key]) Object.assign(changes, { [key]: desired[key] });
  }
  return changes;
}

/** The changes that wait for a second admin while one exists, each as its pending change keeps it. */
interface GuardedChanges {
  addressChanges: AddressChangePayload[];
  ratesChange: PendingChangePayload<'exchange_rates'> | undefined;
  limitRaise: PendingChangePayload<'large_withdrawal_limit'> | undefined;
}

function guardedChangesOf(current: SettingsRow, desired: DesiredSettings, changes: Partial<EditableSettings>): GuardedChanges {
  const addressChanges = DEPOSIT_NETWORKS.filter((network) => changes[ADDRESS_COLUMNS[network]] !== undefined).map((network) => ({
    network,
    from: current[ADDRESS_COLUMNS[network]],
    to: desired[ADDRESS_COLUMNS[network]],
  }));
  const ratesChange = changes.rateNormalInrPaise !== undefined || changes.rateVipInrPaise !== undefined ? exchangeRatesPayload(current, changes) : undefined;
  // Lowering the amount only asks for two admins more often; raising it lets one admin approve more alone.
  const limitRaise =
    changes.largeWithdrawalInrPaise !== undefined && changes.largeWithdrawalInrPaise > current.largeWithdrawalInrPaise
      ? { fromInrPaise: current.largeWithdrawalInrPaise.toString(), toInrPaise: changes.largeWithdrawalInrPaise.toString() }
      : undefined;
  return { addressChanges, ratesChange, limitRaise };
}

function hasGuardedChange(guarded: GuardedChanges): boolean {
  return guarded.addressChanges.length > 0 || guarded.ratesChange !== undefined || guarded.limitRaise !== undefined;
}

/**
 * Takes the guarded changes out of what is saved now; 409 (and nothing of the request saved) when a
 * change of the same kind already waits for a second admin.
 */
async function holdBackForSecondAdmin(transaction: Executor, guarded: GuardedChanges, changes: Partial<EditableSettings>): Promise<void> {
  for (const change of guarded.addressChanges) {
    await refuseWhenWaiting(
      transaction,
      'deposit_address',
      change.network,
      ADDRESS_COLUMNS[change.network],
      PENDING_CHANGE_MESSAGES.alreadyWaiting(change.network),
    );
    delete changes[ADDRESS_COLUMNS[change.network]];
  }
  if (guarded.ratesChange) {
    await refuseWhenWaiting(transaction, 'exchange_rates', EXCHANGE_RATES_SUBJECT, 'normalRate', PENDING_CHANGE_MESSAGES.ratesAlreadyWaiting);
    delete changes.rateNormalInrPaise;
    delete changes.rateVipInrPaise;
  }
  if (guarded.limitRaise) {
    await refuseWhenWaiting(
      transaction,
      'large_withdrawal_limit',
      LARGE_WITHDRAWAL_LIMIT_SUBJECT,
      'largeWithdrawalInr',
      PENDING_CHANGE_MESSAGES.limitAlreadyWaiting,
    );
    delete changes.largeWithdrawalInrPaise;
  }
}

/** The pending changes a second admin confirms or discards, asked for after the rest of the form was saved. */
async function requestSecondAdminChanges(transaction: Executor, guarded: GuardedChanges, actor: Actor): Promise<PendingChange[]> {
  const pendingChanges: PendingChange[] = [];
  for (const change of guarded.addressChanges) {
    pendingChanges.push(await requestChange(transaction, 'deposit_address', change, actor));
  }
  if (guarded.ratesChange) pendingChanges.push(await requestChange(transaction, 'exchange_rates', guarded.ratesChange, actor));
  if (guarded.limitRaise) pendingChanges.push(await requestChange(transaction, 'large_withdrawal_limit', guarded.limitRaise, actor));
  return pendingChanges;
}

const WAITING_WORDS: Partial<Record<PendingChangeKind, (change: PendingChange) => string>> = {
  deposit_address: (change) => `the ${change.network ?? ''} deposit address`,
  exchange_rates: () => 'the exchange rates',
  large_withdrawal_limit: () => 'the raise of the large-withdrawal amount',
};

/** The 202 answer's message: the address wording as before when only addresses wait, else each waiting change named. */
export function awaitingSecondAdminMessage(pendingChanges: PendingChange[]): string {
  if (pendingChanges.every((change) => change.kind === 'deposit_address')) return PENDING_CHANGE_MESSAGES.addressAwaitsSecondAdmin;
  return PENDING_CHANGE_MESSAGES.settingsAwaitSecondAdmin(pendingChanges.map((change) => WAITING_WORDS[change.kind]?.(change) ?? change.summary));
}

/** 409 when a change of this kind already waits for a second admin: nothing of the request is saved. */
async function refuseWhenWaiting(transaction: Executor, kind: PendingChangeKind, subject: string, field: string, message: string): Promise<void> {
  if (await findOpenChange(transaction, kind, subject)) throw new AppError(409, 'CHANGE_ALREADY_WAITING', message, { fields: { [field]: message } });
}

/** Both rates before and after a change of either, as the pending change keeps them. */
function exchangeRatesPayload(current: SettingsRow, changes: Partial<EditableSettings>): PendingChangePayload<'exchange_rates'> {
  return {
    from: { normalRatePaise: current.rateNormalInrPaise.toString(), vipRatePaise: current.rateVipInrPaise.toString() },
    to: {
      normalRatePaise: (changes.rateNormalInrPaise ?? current.rateNormalInrPaise).toString(),
      vipRatePaise: (changes.rateVipInrPaise ?? current.rateVipInrPaise).toString(),
    },
  };
}

/** What the audit entry of an address change made without a second admin carries, so the log shows it. */
export const SINGLE_ADMIN_MARK = 'single admin: applied at once; every admin and the support address were e-mailed';

/**
 * With a single admin an address change applies at once; so that it never goes unnoticed, every
 * admin and the support address are told, after the change committed.
 */
async function mailSingleAdminAddressChange(
  context: AppContext,
  log: FastifyBaseLogger,
  session: SessionRecord,
  changes: AddressChangePayload[],
): Promise<void> {
  const { db } = context.database;
  const changedBy = await settingsRepository.findUserName(db, session.userId);
  const recipients = new Set(await adminEmails(db));
  if (context.config.supportEmail) recipients.add(context.config.supportEmail);
  const who = changedBy ? `${changedBy.name} (${changedBy.email})` : 'an admin';
  const lines = changes.map((change) => `${change.network}: ${change.from === '' ? '(none)' : change.from} -> ${change.to === '' ? '(none)' : change.to}`);
  const text = [
    `The deposit address was changed by ${who} at ${new Date().toISOString()}.`,
    '',
    ...lines,
    '',
    'There is only one admin, so the change applied at once without a second admin confirming it.',
    'Customers now see the new address. If nobody meant to change it, change it back and secure the admin account.',
    '',
    '- Rupeedesk',
  ].join('\n');
  const html = `<p>The deposit address was changed by ${escapeHtml(who)}.</p><ul>${lines.map((line) => `<li><code>${escapeHtml(line)}</code></li>`).join('')}</ul><p>There is only one admin, so the change applied at once without a second admin confirming it. Customers now see the new address. If nobody meant to change it, change it back and secure the admin account.</p><p>Rupeedesk</p>`;
  for (const to of recipients) {
    try {
      await context.mailer.send({ to, subject: 'Deposit address changed', text, html });
    } catch (error) {
      // The change is committed; a mail that could not be queued must not turn it into an error answer.
      log.error({ reason: error instanceof Error ? error.message : 'unknown error' }, 'Could not send the e-mail about a deposit address change');
    }
  }
}

/**
 * A second admin confirms an address change: the settings row is locked, the address must still be
 * what it was when the change was asked for (else 409: it is stale), then it changes, with history,
 * audit entry and the live-update event, in the confirmation's transaction.
 */
export const addressChangeHandler: ChangeHandler<'deposit_address'> = {
  kind: 'deposit_address',
  lockSubject: lockSettings,
  apply: confirmAddressChange,
};

async function lockSettings(transaction: Executor): Promise<void> {
  await settingsRepository.getSettingsForUpdate(transaction);
}

async function confirmAddressChange(transaction: Executor, change: StoredPendingChange<'deposit_address'>, decider: Actor): Promise<void> {
  const { payload } = change;
  const column = ADDRESS_COLUMNS[payload.network];
  const current = await settingsRepository.getSettingsForUpdate(transaction);
  if (current[column] !== payload.from) throw AppError.conflict(PENDING_CHANGE_MESSAGES.staleAddress, 'STALE_CHANGE');
  const saved = await settingsRepository.updateSettings(transaction, withQrImagesSetAside({ [column]: payload.to }), decider.userId);
  await recordSettingsChangeBy(transaction, decider, current, saved, SETTINGS_AUDIT_ACTION, {
    addressChangeControl: `confirmed by a second admin (pending change ${change.id})`,
  });
}

/**
 * A second admin's confirm of a change of the settings row: the row is locked, the value must still be
 * what it was when the change was asked for (else 409: stale), then it changes, with history, audit
 * entry and the live-update event, in the confirmation's transaction.
 */
function settingsChangeHandler<Kind extends 'exchange_rates' | 'large_withdrawal_limit'>(
  kind: Kind,
  stillAsAsked: (current: SettingsRow, payload: PendingChangePayload<Kind>) => boolean,
  changesOf: (payload: PendingChangePayload<Kind>) => Partial<EditableSettings>,
  staleMessage: string,
): ChangeHandler<Kind> {
  return {
    kind,
    lockSubject: lockSettings,
    apply: async (transaction, change, decider) => {
      const current = await settingsRepository.getSettingsForUpdate(transaction);
      if (!stillAsAsked(current, change.payload)) throw AppError.conflict(staleMessage, 'STALE_CHANGE');
      const saved = await settingsRepository.updateSettings(transaction, changesOf(change.payload), decider.userId);
      await recordSettingsChangeBy(transaction, decider, current, saved, SETTINGS_AUDIT_ACTION, {
        twoPersonControl: `confirmed by a second admin (pending change ${change.id})`,
      });
    },
  };
}

/** Both rates must still be what they were when the change was asked for. */
export const exchangeRatesChangeHandler = settingsChangeHandler(
  'exchange_rates',
  (current, payload) =>
    current.rateNormalInrPaise.toString() === payload.from.normalRatePaise && current.rateVipInrPaise.toString() === payload.from.vipRatePaise,
  (payload) => ({ rateNormalInrPaise: BigInt(payload.to.normalRatePaise), rateVipInrPaise: BigInt(payload.to.vipRatePaise) }),
  PENDING_CHANGE_MESSAGES.staleRates,
);

export const largeWithdrawalLimitChangeHandler = settingsChangeHandler(
  'large_withdrawal_limit',
  (current, payload) => current.largeWithdrawalInrPaise.toString() === payload.fromInrPaise,
  (payload) => ({ largeWithdrawalInrPaise: BigInt(payload.toInrPaise) }),
  PENDING_CHANGE_MESSAGES.staleLimit,
);

/** History row, audit entry and 'settings.updated' event for one change of the settings row. */
export async function recordSettingsChange(
  db: Executor,
  request: FastifyRequest,
  session: SessionRecord,
  before: SettingsRow,
  after: SettingsRow,
  action: AuditAction,
  auditExtra: Record<string, string> = {},
): Promise<void> {
  await recordSettingsChangeBy(db, { userId: session.userId, ipAddress: request.ip }, before, after, action, auditExtra);
}

async function recordSettingsChangeBy(
  db: Executor,
  actor: Actor,
  before: SettingsRow,
  after: SettingsRow,
  action: AuditAction,
  auditExtra: Record<string, string>,
): Promise<void> {
  const beforeSnapshot = settingsSnapshot(before);
  const afterSnapshot = settingsSnapshot(after);
  await settingsRepository.insertSettingsHistory(db, { changedByUserId: actor.userId, before: beforeSnapshot, after: afterSnapshot });
  const changed = changedEntries(beforeSnapshot, afterSnapshot);
  await recordAudit(db, {
    actorUserId: actor.userId,
    action,
    targetType: 'settings',
    targetId: String(after.id),
    before: changed.before,
    after: { ...changed.after, ...auditExtra },
    ipAddress: actor.ipAddress,
  });
  await publishEvent(db, { type: 'settings.updated' });
}

/**
 * Points a file column of the settings row (a QR image, the app) at a newly uploaded file and
 * records the settings history. `before` is the row read with getSettingsForUpdate in the same
 * transaction; the caller records its own audit entry and event.
 */
export async function replaceSettingsFile(
  transaction: Executor,
  before: SettingsRow,
  column: SettingsFileColumn,
  fileId: string,
  userId: string,
): Promise<SettingsRow> {
  const after = await settingsRepository.updateSettings(transaction, { [column]: fileId }, userId);
  await settingsRepository.insertSettingsHistory(transaction, { changedByUserId: userId, before: settingsSnapshot(before), after: settingsSnapshot(after) });
  return after;
}
