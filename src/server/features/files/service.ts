import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { QR_IMAGE_CONTENT_TYPES, QR_IMAGE_TYPE_MESSAGE, SETTINGS_LIMITS, type StoredFileView } from '#shared/contracts/settings';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import {
  ADDRESS_COLUMNS,
  getSettings,
  getSettingsForUpdate,
  qrImageShowsAddress,
  replaceSettingsFile,
  type SettingsFileColumn,
  type SettingsRow,
} from '../settings/service.ts';
import { findOpenChange, needsSecondAdmin, requestChange, type ChangeHandler } from '../pending-changes/service.ts';
import { APP_FILE_SUBJECT } from '../pending-changes/kinds.ts';
import { PENDING_CHANGE_MESSAGES, type PendingChange } from '#shared/contracts/pending-changes';
import type { Executor } from '../../db/client.ts';
import * as filesRepository from './repository.ts';
import type { StoredFileRow } from './repository.ts';
import { inspectQrImage, qrShowsAddress } from './qr-image.ts';
import { detectImageType, isZipArchive, SIGNATURE_BYTES } from './signatures.ts';
import { DatabaseFileStorage, fileStorageFor, type FileStorage } from './storage.ts';
import type { FilePurpose } from '#shared/contracts/settings';
import { QR_PURPOSE_OF_NETWORK, storedFileView } from './views.ts';
import type { DepositNetwork } from '#shared/contracts/enums';

export const FILE_UPLOAD_AUDIT_ACTION = 'settings.file_upload';
export const APK_CONTENT_TYPE = 'application/vnd.android.package-archive';
export const APK_DOWNLOAD_NAME = 'rupeedesk.apk';

interface UploadRules {
  label: string;
  chooseMessage: string;
  maxBytes: number;
  tooLargeMessage: string;
  wrongTypeMessage: string;
  /** Declared types a browser may send for this kind of file; undefined accepts any, the bytes decide. */
  declaredTypes: readonly string[] | undefined;
  /** The content type the first bytes prove, or undefined when they are not an accepted file. */
  detect(head: Buffer): string | undefined;
  /** Whether the whole file is kept in memory as it streams (a QR image, to read its code; at most maxBytes). */
  keepBytes: boolean;
}

const MEGABYTE = 1024 * 1024;

const QR_RULES: UploadRules = {
  label: 'QR image',
  chooseMessage: 'Choose a QR image to upload',
  maxBytes: SETTINGS_LIMITS.qrImageMaxBytes,
  tooLargeMessage: `The QR image must be at most ${SETTINGS_LIMITS.qrImageMaxBytes / MEGABYTE} MB`,
  wrongTypeMessage: QR_IMAGE_TYPE_MESSAGE,
  declaredTypes: QR_IMAGE_CONTENT_TYPES,
  detect: (head) => {
    const type = detectImageType(head);
    return type === 'image/webp' ? undefined : type;
  },
  keepBytes: true,
};

const APK_RULES: UploadRules = {
  label: 'app file',
  chooseMessage: 'Choose an APK file to upload',
  maxBytes: SETTINGS_LIMITS.apkMaxBytes,
  tooLargeMessage: `The app file must be at most ${SETTINGS_LIMITS.apkMaxBytes / MEGABYTE} MB`,
  wrongTypeMessage: 'The app file must be an Android APK (a ZIP archive)',
  // Browsers declare APKs in many ways (octet-stream, zip, the Android type); the ZIP signature decides.
  declaredTypes: undefined,
  detect: (head) => (isZipArchive(head) ? APK_CONTENT_TYPE : undefined),
  keepBytes: false,
};

const SETTINGS_COLUMN_OF_PURPOSE: Record<FilePurpose, SettingsFileColumn> = {
  qr_trc20: 'trc20QrFileId',
  qr_erc20: 'erc20QrFileId',
  apk: 'apkFileId',
};

const NETWORK_OF_QR_PURPOSE: Partial<Record<FilePurpose, DepositNetwork>> = { qr_trc20: 'TRC20', qr_erc20: 'ERC20' };

/** The longest part of a QR code's text quoted back to the admin when it is not the address. */
const QUOTED_QR_TEXT_LENGTH = 80;

/**
 * The QR code's text and the new PNG that is kept instead of the sender's file, read before the upload is
 * recorded; an image without a readable code, an animated one or one with several codes is refused.
 */
function readQrText(bytes: Buffer, contentType: string): { text: string; png: Buffer } {
  const reading = inspectQrImage(bytes, contentType);
  if (reading.kind === 'too-large') throw fileField(400, 'VALIDATION_FAILED', QR_MESSAGES.tooLarge);
  if (reading.kind === 'unreadable') throw fileField(400, 'VALIDATION_FAILED', QR_MESSAGES.unreadable);
  if (reading.kind === 'animated') throw fileField(400, 'VALIDATION_FAILED', QR_MESSAGES.animated);
  if (reading.kind === 'several-codes') throw fileField(400, 'VALIDATION_FAILED', QR_MESSAGES.severalCodes);
  return { text: reading.text, png: reading.png };
}

/**
 * A QR image is accepted only when its code shows the network's current deposit address, read in the
 * transaction that records the upload (after the settings row is locked), so that no address change
 * can slip in between; decision 023.
 */
function assertQrShowsAddress(network: DepositNetwork, text: string, address: string): void {
  if (address === '') throw fileField(400, 'VALIDATION_FAILED', QR_MESSAGES.noAddress(network));
  if (!qrShowsAddress(network, text, address)) {
    const quoted = text.length > QUOTED_QR_TEXT_LENGTH ? `${text.slice(0, QUOTED_QR_TEXT_LENGTH)}…` : text;
    throw fileField(400, 'VALIDATION_FAILED', QR_MESSAGES.otherAddress(network, quoted, address));
  }
}

const QR_MESSAGES = {
  unreadable: 'No QR code could be read in this image. Upload a sharp picture of the QR code alone.',
  animated: 'Animated images cannot be QR images: a browser could show another picture than the one checked. Upload a still PNG or JPEG.',
  severalCodes: 'This image holds more than one QR code. Upload a picture of the deposit address QR code alone.',
  tooLarge: 'The QR image must be at most 4 megapixels (for example 2000 × 2000)',
  noAddress: (network: DepositNetwork) => `Save the ${network} deposit address before uploading its QR image`,
  otherAddress: (network: DepositNetwork, shown: string, address: string) =>
    `This QR code shows "${shown}", not the ${network} deposit address ${address}. Customers would send USDT there, so it was not saved.`,
} as const;

function rulesOf(purpose: FilePurpose): UploadRules {
  return purpose === 'apk' ? APK_RULES : QR_RULES;
}

/** Keeps a display name only: no folders, no control characters, at most 255 characters. */
function safeOriginalName(filename: string, fallback: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 255);
  return cleaned === '' ? fallback : cleaned;
}

function fileField(status: number, code: 'VALIDATION_FAILED' | 'PAYLOAD_TOO_LARGE' | 'CHANGE_ALREADY_WAITING', message: string): AppError {
  return new AppError(status, code, message, { fields: { file: message } });
}

/** Hashes and measures the upload while it streams to storage, and stops it at once if its first bytes are not an accepted type. */
class UploadInspection {
  private readonly hash = createHash('sha256');
  private head = Buffer.alloc(0);
  private readonly kept: Buffer[] = [];
  sizeBytes = 0;
  contentType: string | undefined;

  constructor(private readonly rules: UploadRules) {}

  async *pass(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      if (this.contentType === undefined && this.head.length < SIGNATURE_BYTES) {
        this.head = Buffer.concat([this.head, chunk.subarray(0, SIGNATURE_BYTES - this.head.length)]);
        if (this.head.length >= SIGNATURE_BYTES) this.identify();
      }
      this.sizeBytes += chunk.length;
      if (this.sizeBytes > this.rules.maxBytes) throw fileField(413, 'PAYLOAD_TOO_LARGE', this.rules.tooLargeMessage);
      this.hash.update(chunk);
      if (this.rules.keepBytes) this.kept.push(chunk);
      yield chunk;
    }
    if (this.sizeBytes === 0) throw fileField(400, 'VALIDATION_FAILED', `The ${this.rules.label} is empty`);
    if (this.contentType === undefined) this.identify();
  }

  private identify(): void {
    this.contentType = this.rules.detect(this.head);
    if (this.contentType === undefined) throw fileField(400, 'VALIDATION_FAILED', this.rules.wrongTypeMessage);
  }

  sha256(): string {
    return this.hash.digest('hex');
  }

  /** The whole file, when the rules keep it. */
  bytes(): Buffer {
    return Buffer.concat(this.kept);
  }
}

function auditFileSummary(file: StoredFileRow | undefined) {
  if (!file) return null;
  return {
    fileId: file.id,
    purpose: file.purpose,
    originalName: file.originalName,
    contentType: file.contentType,
    sizeBytes: file.sizeBytes,
    sha256: file.sha256,
  };
}

/** The one file part of a multipart upload, of a type its purpose accepts by what the sender declared. */
async function uploadedPart(request: FastifyRequest, rules: UploadRules): Promise<MultipartFile> {
  const chooseFile = rules.chooseMessage;
  if (!request.isMultipart()) throw fileField(400, 'VALIDATION_FAILED', chooseFile);

  let part;
  try {
    part = await request.file({ limits: { fileSize: rules.maxBytes, files: 1, fields: 5, fieldSize: 1024 } });
  } catch (error) {
    request.log.info({ err: error }, 'unreadable multipart upload');
    throw fileField(400, 'VALIDATION_FAILED', chooseFile);
  }
  if (!part) throw fileField(400, 'VALIDATION_FAILED', chooseFile);
  if (rules.declaredTypes && !rules.declaredTypes.includes(part.mimetype.toLowerCase())) {
    part.file.destroy();
    throw fileField(400, 'VALIDATION_FAILED', rules.wrongTypeMessage);
  }
  return part;
}

/** Streams the upload into storage through its inspection; a file too large or an upload cut short is the sender's error, and leaves nothing stored. */
async function storeUploadedBytes(
  storage: FileStorage,
  storageKey: string,
  upload: MultipartFile['file'],
  inspection: UploadInspection,
  rules: UploadRules,
): Promise<void> {
  try {
    await storage.put(storageKey, inspection.pass(upload));
    if (upload.truncated) throw fileField(413, 'PAYLOAD_TOO_LARGE', rules.tooLargeMessage);
  } catch (error) {
    upload.destroy();
    await storage.delete(storageKey);
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fileField(413, 'PAYLOAD_TOO_LARGE', rules.tooLargeMessage);
    // Malformed or interrupted multipart bodies are the sender's problem, not a server error.
    if (typeof code === 'string' && code.startsWith('FST_')) throw fileField(400, 'VALIDATION_FAILED', 'The upload did not complete. Please try again.');
    throw error;
  }
}

/**
 * Receives one uploaded file (multipart field of any name), checks its type by
 * its first bytes and its size while streaming it to storage, then makes it the
 * current file of its purpose in the settings. The previous file is removed.
 */
export async function uploadSettingsFile(context: AppContext, request: FastifyRequest, session: SessionRecord, purpose: FilePurpose): Promise<UploadedFile> {
  const rules = rulesOf(purpose);
  const part = await uploadedPart(request, rules);

  const storage = fileStorageFor(context);
  const inspection = new UploadInspection(rules);
  const originalName = safeOriginalName(part.filename, purpose === 'apk' ? APK_DOWNLOAD_NAME : 'qr-image');
  // The key is ours, never the sender's file name; the content type is kept in stored_files.
  const storageKey = `${purpose}/${randomUUID()}`;
  await storeUploadedBytes(storage, storageKey, part.file, inspection, rules);
  const received: StoredBytes = {
    sha256: inspection.sha256(),
    contentType: inspection.contentType ?? 'application/octet-stream',
    sizeBytes: inspection.sizeBytes,
  };

  let saved: SavedSettingsFile;
  try {
    const { bytes, qr } = await redrawnQrImage(storage, storageKey, received, purpose, inspection);
    const upload = { purpose, originalName, storageKey, ...bytes };
    saved = await context.database.db.transaction((transaction) => saveSettingsFile(transaction, request, session, upload, qr));
  } catch (error) {
    await storage.delete(storageKey);
    throw error;
  }
  await deleteLeftBytes(storage, saved.leftStorageKeys, request.log);
  return {
    file: storedFileView(saved.file),
    settingsVersion: saved.settingsVersion,
    ...(saved.pendingChange ? { pendingChange: saved.pendingChange } : {}),
  };
}

/** What stored_files says of the bytes kept in storage. */
interface StoredBytes {
  sha256: string;
  contentType: string;
  sizeBytes: number;
}

/** The QR code's text, read from a QR image, with the network whose address it must show. */
interface QrReading {
  network: DepositNetwork;
  text: string;
}

/**
 * A QR image's code is read (400 when it does not read), and a new PNG of the pixels read replaces the
 * sender's bytes (decision 037); any other file is kept as received.
 */
async function redrawnQrImage(
  storage: FileStorage,
  storageKey: string,
  received: StoredBytes,
  purpose: FilePurpose,
  inspection: UploadInspection,
): Promise<{ bytes: StoredBytes; qr: QrReading | undefined }> {
  const network = NETWORK_OF_QR_PURPOSE[purpose];
  if (network === undefined) return { bytes: received, qr: undefined };
  const reading = readQrText(inspection.bytes(), received.contentType);
  await storage.delete(storageKey);
  await storage.put(storageKey, Readable.from([reading.png]));
  const bytes = { sha256: createHash('sha256').update(reading.png).digest('hex'), contentType: 'image/png', sizeBytes: reading.png.length };
  return { bytes, qr: { network, text: reading.text } };
}

interface SavedSettingsFile {
  file: StoredFileRow;
  settingsVersion: { before: string; after: string };
  pendingChange?: PendingChange;
  /** The storage keys of the files this one replaced, whose bytes are deleted after the commit. */
  leftStorageKeys: string[];
}

/**
 * Records the stored bytes as a file and makes it the current file of its purpose, with the audit row
 * and the live-update event; a QR image must show the network's address. While a second admin exists,
 * a new app waits for that admin instead.
 */
async function saveSettingsFile(
  transaction: Executor,
  request: FastifyRequest,
  session: SessionRecord,
  upload: StoredBytes & { purpose: FilePurpose; originalName: string; storageKey: string },
  qr: QrReading | undefined,
): Promise<SavedSettingsFile> {
  const { purpose } = upload;
  const before = await getSettingsForUpdate(transaction);
  const qrAddress = qr ? before[ADDRESS_COLUMNS[qr.network]] : null;
  if (qr && qrAddress !== null) assertQrShowsAddress(qr.network, qr.text, qrAddress);
  const column = SETTINGS_COLUMN_OF_PURPOSE[purpose];
  const file = await filesRepository.insertStoredFile(transaction, {
    ...upload,
    uploadedByUserId: session.userId,
    // Stored as the address it was checked against (the code's own text may carry a URI scheme).
    qrContent: qrAddress,
  });
  // Two-person control (decision 024): customers install what is offered here, so while a second admin
  // exists a new app is stored now and offered only once that admin confirms it.
  if (purpose === 'apk' && (await needsSecondAdmin(transaction))) {
    const pendingChange = await requestAppFile(transaction, before, file, request, session);
    // Only the app offered and the one waiting are kept: an earlier upload that was discarded goes.
    const leftStorageKeys = await deleteOtherFiles(transaction, purpose, [file.id, ...(before.apkFileId ? [before.apkFileId] : [])]);
    return { file, settingsVersion: { before: before.updatedAt.toISOString(), after: before.updatedAt.toISOString() }, pendingChange, leftStorageKeys };
  }
  const after = await replaceSettingsFile(transaction, before, column, file.id, session.userId);
  const previousFileId = before[column];
  const previous = previousFileId ? await filesRepository.findStoredFile(transaction, previousFileId) : undefined;
  // The file replaced goes, and with it any set aside by an address change or left by a discarded upload.
  const leftStorageKeys = await deleteOtherFiles(transaction, purpose, [file.id]);
  await recordAudit(transaction, {
    actorUserId: session.userId,
    action: FILE_UPLOAD_AUDIT_ACTION,
    targetType: 'stored_file',
    targetId: file.id,
    before: auditFileSummary(previous),
    after: auditFileSummary(file),
    ipAddress: request.ip,
  });
  await publishEvent(transaction, { type: 'settings.updated' });
  return { file, settingsVersion: { before: before.updatedAt.toISOString(), after: after.updatedAt.toISOString() }, leftStorageKeys };
}

/** The bytes of files the database no longer refers to; failing to delete them leaves chunks that maintenance prunes, not a wrong answer. */
async function deleteLeftBytes(storage: FileStorage, storageKeys: string[], log: FastifyBaseLogger): Promise<void> {
  for (const key of storageKeys) await storage.delete(key).catch((error: unknown) => log.warn({ err: error }, 'could not delete a replaced file'));
}

/** Deletes the files of a purpose but the ones kept, and answers their storage keys, whose bytes are deleted next. */
async function deleteOtherFiles(transaction: Executor, purpose: FilePurpose, keptIds: string[]): Promise<string[]> {
  return (await filesRepository.deleteFilesOfPurposeExcept(transaction, purpose, keptIds)).map((row) => row.storageKey);
}

export interface UploadedFile {
  file: StoredFileView;
  settingsVersion: { before: string; after: string };
  /** Set when the file waits for a second admin (an app file while two admins exist). */
  pendingChange?: PendingChange;
}

async function requestAppFile(
  transaction: Executor,
  before: SettingsRow,
  file: StoredFileRow,
  request: FastifyRequest,
  session: SessionRecord,
): Promise<PendingChange> {
  if (await findOpenChange(transaction, 'app_file', APP_FILE_SUBJECT)) {
    throw fileField(409, 'CHANGE_ALREADY_WAITING', PENDING_CHANGE_MESSAGES.appFileAlreadyWaiting);
  }
  const current = before.apkFileId ? await filesRepository.findStoredFile(transaction, before.apkFileId) : undefined;
  await recordAudit(transaction, {
    actorUserId: session.userId,
    action: FILE_UPLOAD_AUDIT_ACTION,
    targetType: 'stored_file',
    targetId: file.id,
    before: auditFileSummary(current),
    after: { ...auditFileSummary(file), offered: 'once a second admin confirms' },
    ipAddress: request.ip,
  });
  const payload = {
    fileId: file.id,
    originalName: file.originalName,
    sizeBytes: file.sizeBytes,
    sha256: file.sha256,
    replacing: current?.originalName ?? null,
  };
  return requestChange(transaction, 'app_file', payload, { userId: session.userId, ipAddress: request.ip });
}

/**
 * A second admin's confirm of a new app file: the stored file must still be there; it becomes the
 * download, and the file it replaces is deleted with its bytes, in the confirmation's transaction.
 */
export const appFileChangeHandler: ChangeHandler<'app_file'> = {
  kind: 'app_file',
  lockSubject: async (transaction) => {
    await getSettingsForUpdate(transaction);
  },
  apply: async (transaction, change, decider) => {
    const { payload } = change;
    const before = await getSettingsForUpdate(transaction);
    const file = await filesRepository.findStoredFile(transaction, payload.fileId);
    if (!file) throw AppError.conflict(PENDING_CHANGE_MESSAGES.staleAppFile, 'STALE_CHANGE');
    await replaceSettingsFile(transaction, before, 'apkFileId', file.id, decider.userId);
    const previous = before.apkFileId && before.apkFileId !== file.id ? await filesRepository.findStoredFile(transaction, before.apkFileId) : undefined;
    const storage = new DatabaseFileStorage(transaction);
    for (const key of await deleteOtherFiles(transaction, 'apk', [file.id])) await storage.delete(key);
    await recordAudit(transaction, {
      actorUserId: decider.userId,
      action: FILE_UPLOAD_AUDIT_ACTION,
      targetType: 'stored_file',
      targetId: file.id,
      before: auditFileSummary(previous),
      after: { ...auditFileSummary(file), offered: `confirmed by a second admin (pending change ${change.id})` },
      ipAddress: decider.ipAddress,
    });
    await publishEvent(transaction, { type: 'settings.updated' });
  },
};

export interface OpenedFile {
  stream: Readable;
  contentType: string;
  sizeBytes: number;
}

async function openCurrentFile(context: AppContext, purpose: FilePurpose, missingMessage: string): Promise<OpenedFile> {
  const { db } = context.database;
  const settings = await getSettings(db);
  const fileId = settings[SETTINGS_COLUMN_OF_PURPOSE[purpose]];
  const found = fileId ? await filesRepository.findStoredFile(db, fileId) : undefined;
  const network = NETWORK_OF_QR_PURPOSE[purpose];
  const file = network === undefined || qrImageShowsAddress(found, settings[ADDRESS_COLUMNS[network]]) ? found : undefined;
  const stream = file ? await fileStorageFor(context).get(file.storageKey) : undefined;
  if (!file || !stream) throw AppError.notFound(missingMessage);
  return { stream, contentType: file.contentType, sizeBytes: file.sizeBytes };
}

export function openQrImage(context: AppContext, network: DepositNetwork): Promise<OpenedFile> {
  return openCurrentFile(context, QR_PURPOSE_OF_NETWORK[network], 'No QR code available');
}

export function openApk(context: AppContext): Promise<OpenedFile> {
  return openCurrentFile(context, 'apk', 'The app download is not available yet');
}
