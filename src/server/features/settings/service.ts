import type { FastifyRequest } from 'fastify';
import {
  SETTINGS_CONFLICT_MESSAGE,
  type AdminSettings,
  type PublicSettings,
  type RatesResponse,
  type SettingsFormOutput,
  type UpdateSettingsInput,
} from '../../../shared/contracts/settings.ts';
import { parseRatePaise, parseUsdtMicros, ratePaiseToWire, usdtMicrosToWire, type DecimalParseResult } from '../../../shared/money.ts';
import type { AppContext } from '../../context.ts';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { publicFileUrl, storedFileView } from '../files/views.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { isValidErc20Address, isValidTronAddress, toChecksumAddress } from './addresses.ts';
import * as settingsRepository from './repository.ts';
import type { EditableSettings, SettingsFileColumn, SettingsRow } from './repository.ts';
import type { AuditAction } from '../../../shared/contracts/enums.ts';
import { assertMinimumNotAboveMaximum, desiredWithdrawalRules, withdrawalRulesSnapshot, withdrawalRulesView } from './withdrawal-rules.ts';

/** Deposits, withdrawals, the wallet and file uploads read the settings row through this module. */
export { getSettings, getSettingsForUpdate, type SettingsFileColumn } from './repository.ts';
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
  return { normalRate: ratePaiseToWire(row.rate_normal_inr_paise), vipRate: ratePaiseToWire(row.rate_vip_inr_paise), fallback: false, updatedAt: row.updated_at_iso };
}

export async function getPublicSettings(db: Executor): Promise<PublicSettings> {
  const row = await settingsRepository.getSettings(db);
  const apkFile = row.apkFileId ? (await settingsRepository.findStoredFilesByIds(db, [row.apkFileId])).get(row.apkFileId) : undefined;
  return {
    rates: ratesOf(row),
    addresses: { TRC20: row.trc20Address, ERC20: row.erc20Address },
    qrImages: {
      TRC20: row.trc20QrFileId ? { exists: true, url: publicFileUrl('qr_trc20', row.trc20QrFileId) } : { exists: false, url: null },
      ERC20: row.erc20QrFileId ? { exists: true, url: publicFileUrl('qr_erc20', row.erc20QrFileId) } : { exists: false, url: null },
    },
    whatsappSupportNumber: row.whatsappSupportNumber,
    websiteUrl: row.websiteUrl,
    minDeposit: usdtMicrosToWire(row.minDepositUsdtMicros),
    apk: apkFile ? { exists: true, url: publicFileUrl('apk', apkFile.id), sizeBytes: apkFile.sizeBytes } : { exists: false, url: null, sizeBytes: null },
  };
}

export async function adminSettingsView(db: Executor, row: SettingsRow, viewer: Pick<SessionRecord, 'role'>): Promise<AdminSettings> {
  const fileIds = [row.trc20QrFileId, row.erc20QrFileId, row.apkFileId].filter((id): id is string => id !== null);
  const files = await settingsRepository.findStoredFilesByIds(db, fileIds);
  const fileView = (id: string | null) => {
    const file = id ? files.get(id) : undefined;
    return file ? storedFileView(file) : null;
  };
  // VIP-level readers are customers: they see the settings, not which admin changed them.
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
    files: { trc20Qr: fileView(row.trc20QrFileId), erc20Qr: fileView(row.erc20QrFileId), apk: fileView(row.apkFileId) },
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: updatedBy ?? null,
    canEdit,
    ...withdrawalRulesView(row),
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
    trc20QrFileId: row.trc20QrFileId,
    erc20QrFileId: row.erc20QrFileId,
    apkFileId: row.apkFileId,
    ...withdrawalRulesSnapshot(row),
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

function desiredSettings(input: SettingsFormOutput): Partial<EditableSettings> {
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
    ...desiredWithdrawalRules(input),
  };
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
): Promise<AdminSettings> {
  const desired = desiredSettings(input);
  return context.database.db.transaction(async (transaction) => {
    const current = await settingsRepository.getSettingsForUpdate(transaction);
    if (current.updatedAt.getTime() !== Date.parse(input.expectedUpdatedAt)) throw AppError.conflict(SETTINGS_CONFLICT_MESSAGE);
    assertMinimumNotAboveMaximum(current, desired);
    const changes: Partial<EditableSettings> = {};
    for (const key of Object.keys(desired) as (keyof EditableSettings)[]) {
      if (desired[key] !== current[key]) Object.assign(changes, { [key]: desired[key] });
    }
    if (Object.keys(changes).length === 0) return adminSettingsView(transaction, current, session);
    const updated = await settingsRepository.updateSettings(transaction, changes, session.userId);
    await recordSettingsChange(transaction, request, session, current, updated, SETTINGS_AUDIT_ACTION);
    return adminSettingsView(transaction, updated, session);
  });
}

/** History row, audit entry and 'settings.updated' event for one change of the settings row. */
export async function recordSettingsChange(
  db: Executor,
  request: FastifyRequest,
  session: SessionRecord,
  before: SettingsRow,
  after: SettingsRow,
  action: AuditAction,
): Promise<void> {
  const beforeSnapshot = settingsSnapshot(before);
  const afterSnapshot = settingsSnapshot(after);
  await settingsRepository.insertSettingsHistory(db, { changedByUserId: session.userId, before: beforeSnapshot, after: afterSnapshot });
  const changed = changedEntries(beforeSnapshot, afterSnapshot);
  await recordAudit(db, {
    actorUserId: session.userId,
    action,
    targetType: 'settings',
    targetId: String(after.id),
    before: changed.before,
    after: changed.after,
    ipAddress: request.ip,
  });
  await publishEvent(db, { type: 'settings.updated' });
}

/**
 * Points a file column of the settings row (a QR image, the app) at a newly uploaded file and
 * records the settings history. `before` is the row read with getSettingsForUpdate in the same
 * transaction; the caller records its own audit entry and event.
 */
export async function replaceSettingsFile(transaction: Executor, before: SettingsRow, column: SettingsFileColumn, fileId: string, userId: string): Promise<SettingsRow> {
  const after = await settingsRepository.updateSettings(transaction, { [column]: fileId }, userId);
  await settingsRepository.insertSettingsHistory(transaction, { changedByUserId: userId, before: settingsSnapshot(before), after: settingsSnapshot(after) });
  return after;
}
