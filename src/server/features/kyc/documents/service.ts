import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  BACK_NEEDED,
  KYC_DOCUMENT_MESSAGES,
  KYC_IMAGE_LIMITS,
  LIVENESS_MAX_FRAMES,
  bestFrameIndex,
  livenessUploadSchema,
  normalizeDocumentNumber,
  type LivenessChallenge,
  type KycImagePurpose,
  type KycStoredImagePurpose,
  type LivenessFrameScores,
  type LivenessReport,
  type LivenessUpload,
  type SubmitLevelTwoRequest,
} from '#shared/contracts/kyc-documents';
import { PAN_MESSAGES, type KycStatus } from '#shared/contracts/kyc';
import type { AppContext } from '../../../context.ts';
import type { Executor } from '../../../db/client.ts';
import { violatesConstraint } from '../../../db/database-errors.ts';
import { AppError } from '../../../errors.ts';
import { recordAudit } from '../../../platform/audit/record.ts';
import { assertConsentAccepted } from '../../consent/service.ts';
import { publishEvent } from '../../../platform/events/publish.ts';
import type { SessionRecord } from '../../../platform/sessions/repository.ts';
import * as kycRepository from '../repository.ts';
import { factsOf, getKycStatus } from '../service.ts';
import { kycLevelOf } from '#shared/contracts/kyc';
import { masterKeyFor, sealImage, type SealedImage } from './encryption.ts';
import { chooseChallenge, issueChallenge, verifiedChallengeId } from './liveness-challenge.ts';
import { normalizeImage } from './images.ts';
import * as documentRepository from './repository.ts';

/*
 * The customer's side of KYC level 2 (decision 050): photos of the second document and the live
 * selfie, each re-encoded without metadata and stored encrypted; then the submission that names them,
 * with the address and where and when it was sent.
 */

/** Phones retake photos; more than this many a day is not a customer finishing their KYC. */
export const KYC_IMAGES_PER_DAY = 30;

function fieldError(status: number, code: 'VALIDATION_FAILED' | 'PAYLOAD_TOO_LARGE', field: string, message: string): AppError {
  return new AppError(status, code, message, { fields: { [field]: message } });
}

/** Reads the multipart body: up to `maxFiles` photos (`file` parts) and the text fields. */
async function readUpload(request: FastifyRequest, maxFiles = 1): Promise<{ files: Buffer[]; fields: Record<string, string> }> {
  if (!request.isMultipart()) throw fieldError(400, 'VALIDATION_FAILED', 'file', KYC_DOCUMENT_MESSAGES.chooseImage);
  const fields: Record<string, string> = {};
  const files: Buffer[] = [];
  try {
    for await (const part of request.parts({ limits: { fileSize: KYC_IMAGE_LIMITS.maxBytes, files: maxFiles, fields: 2, fieldSize: 8192 } })) {
      if (part.type === 'file') {
        files.push(await part.toBuffer());
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fieldError(413, 'PAYLOAD_TOO_LARGE', 'file', KYC_DOCUMENT_MESSAGES.tooLarge);
    if (code === 'FST_FILES_LIMIT' && maxFiles > 1) throw fieldError(400, 'VALIDATION_FAILED', 'file', KYC_DOCUMENT_MESSAGES.tooManyFrames);
    // Everything else here comes from the sender's body: a limit passed, or a form that is malformed or cut short.
    throw fieldError(400, 'VALIDATION_FAILED', 'file', KYC_DOCUMENT_MESSAGES.chooseImage);
  }
  if (files.length === 0 || files.some((bytes) => bytes.length === 0)) throw fieldError(400, 'VALIDATION_FAILED', 'file', KYC_DOCUMENT_MESSAGES.chooseImage);
  return { files, fields };
}

const challengeExpired = () => fieldError(400, 'VALIDATION_FAILED', 'liveness', KYC_DOCUMENT_MESSAGES.livenessChallengeExpired);

interface CheckedLiveness {
  upload: LivenessUpload;
  /** Each frame's scores, in the order of the `file` parts (one frame when the report carries no `frames`). */
  frames: LivenessFrameScores[];
  challengeId: string;
}

/**
 * A selfie's report, checked against the challenge this server signed for this customer and against the number
 * of frames sent (decision 052); the token's id is what the image table takes once.
 */
function livenessOf(context: AppContext, userId: string, text: string | undefined, frameCount: number): CheckedLiveness {
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const checked = livenessUploadSchema.safeParse(parsed);
  if (!checked.success) throw fieldError(400, 'VALIDATION_FAILED', 'liveness', KYC_DOCUMENT_MESSAGES.livenessInvalid);
  const upload = checked.data;
  const frames = 'frames' in upload ? upload.frames : [upload];
  if (frames.length !== frameCount) throw fieldError(400, 'VALIDATION_FAILED', 'liveness', KYC_DOCUMENT_MESSAGES.frameCountMismatch);
  const challengeId = verifiedChallengeId(masterKeyFor(context.config), upload.challengeToken, userId, upload.challenge, new Date());
  if (challengeId === undefined) throw challengeExpired();
  return { upload, frames, challengeId };
}

/** What is kept with the selfie: the kept frame's scores at the top, and every frame's when several were sent. */
function keptReport(liveness: CheckedLiveness, keptIndex: number): LivenessReport {
  const { upload, frames } = liveness;
  const kept = frames[keptIndex];
  if (kept === undefined) throw new Error(`no frame ${keptIndex}`);
  const scores = { liveScore: kept.liveScore, realScore: kept.realScore, faceScore: kept.faceScore, documentSimilarity: kept.documentSimilarity };
  const base = { challenge: upload.challenge, passedFrames: upload.passedFrames, ...scores };
  return 'frames' in upload ? { ...base, frames, keptFrameIndex: keptIndex } : base;
}

/** `POST /api/kyc/level2/liveness-challenge`: the steps of the live selfie, chosen here so the reviewer sees what was asked (decision 052). */
export async function startLivenessChallenge(context: AppContext, session: SessionRecord): Promise<LivenessChallenge> {
  await assertConsentAccepted(context.database.db, session.userId);
  return issueChallenge(masterKeyFor(context.config), session.userId, chooseChallenge(context.config.kycLivenessChallenge), new Date());
}

const REFUSALS = {
  'other-format': KYC_DOCUMENT_MESSAGES.otherFormatRefused,
  unreadable: KYC_DOCUMENT_MESSAGES.photoUnreadable,
  'not-an-image': KYC_DOCUMENT_MESSAGES.notAnImage,
  'too-many-pixels': KYC_DOCUMENT_MESSAGES.tooManyPixels,
  'too-small': KYC_DOCUMENT_MESSAGES.tooSmall,
} as const;

async function refuseBeyondDailyImages(db: Executor, userId: string): Promise<void> {
  if ((await documentRepository.countImagesSince(db, userId, 24)) >= KYC_IMAGES_PER_DAY) {
    throw new AppError(429, 'RATE_LIMITED', KYC_DOCUMENT_MESSAGES.tooManyUploads);
  }
}

/** A photo re-encoded and sealed, ready for its row: the pipeline every KYC image goes through (decisions 050, 066). */
interface PreparedImage {
  id: string;
  width: number;
  height: number;
  sizeBytes: number;
  sealed: SealedImage;
}

/** The photo as a new JPEG of its pixels, or the refusal at the `file` field. */
async function normalizedOrRefused(bytes: Buffer): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const normalized = await normalizeImage(bytes);
  if (normalized.kind !== 'ok') throw fieldError(normalized.kind === 'too-many-pixels' ? 413 : 400, 'VALIDATION_FAILED', 'file', REFUSALS[normalized.kind]);
  return normalized;
}

/**
 * Every frame is re-encoded (each must pass the limits), then only the kept one is sealed. A cheap count first, so
 * a refused customer's photos are not decoded; the locked count at the insert decides.
 */
async function prepareImage(context: AppContext, userId: string, frames: Buffer[], keptIndex = 0): Promise<PreparedImage> {
  await refuseBeyondDailyImages(context.database.db, userId);
  const normalized: { jpeg: Buffer; width: number; height: number }[] = [];
  for (const bytes of frames) normalized.push(await normalizedOrRefused(bytes));
  const kept = normalized[keptIndex];
  if (kept === undefined) throw new Error(`no frame ${keptIndex}`);
  const id = randomUUID();
  const sealed = sealImage(masterKeyFor(context.config), kept.jpeg, { imageId: id, userId });
  return { id, width: kept.width, height: kept.height, sizeBytes: kept.jpeg.length, sealed };
}

/** Stores a prepared image in the caller's transaction, under the customer's lock and the daily count. */
async function insertPrepared(
  transaction: Executor,
  userId: string,
  purpose: KycStoredImagePurpose,
  image: PreparedImage,
  liveness: { report: LivenessReport; challengeId: string } | null,
): Promise<void> {
  // The profile's lock makes two uploads of one customer count one after the other.
  await kycRepository.findKyc(transaction, userId, { forUpdate: true });
  await refuseBeyondDailyImages(transaction, userId);
  await documentRepository.insertImage(transaction, {
    id: image.id,
    userId,
    purpose,
    width: image.width,
    height: image.height,
    sizeBytes: image.sizeBytes,
    sealed: image.sealed,
    liveness: liveness?.report ?? null,
    livenessChallengeId: liveness?.challengeId ?? null,
  });
}

/**
 * `POST /api/kyc/level2/images/:purpose`: one photo (multipart `file`; a selfie also `liveness`, the
 * browser's report as JSON). Stored as a new JPEG of its pixels, encrypted; answers its id for the submission.
 */
export async function uploadImage(
  context: AppContext,
  request: FastifyRequest,
  session: SessionRecord,
  purpose: KycImagePurpose,
): Promise<{ message: string; image: { id: string; purpose: KycImagePurpose; width: number; height: number } }> {
  const { db } = context.database;
  await assertConsentAccepted(db, session.userId);
  const { files, fields } = await readUpload(request, purpose === 'selfie' ? LIVENESS_MAX_FRAMES : 1);
  const liveness = purpose === 'selfie' ? livenessOf(context, session.userId, fields.liveness, files.length) : null;
  // The best frame by the one rule (bestFrameIndex) is kept; the others are checked and dropped (decision 052).
  const keptIndex = liveness === null ? 0 : bestFrameIndex(liveness.frames);
  const image = await prepareImage(context, session.userId, files, keptIndex);
  const kept = liveness === null ? null : { report: keptReport(liveness, keptIndex), challengeId: liveness.challengeId };
  try {
    await db.transaction(async (transaction) => insertPrepared(transaction, session.userId, purpose, image, kept));
  } catch (error) {
    // The token served a selfie already (perhaps one sent at the same moment): it is spent, like an expired one.
    if (violatesConstraint(error, documentRepository.LIVENESS_CHALLENGE_UNIQUE)) throw challengeExpired();
    throw error;
  }
  return { message: KYC_DOCUMENT_MESSAGES.imageSaved, image: { id: image.id, purpose, width: image.width, height: image.height } };
}

const panCardNotWaiting = () => AppError.conflict(PAN_MESSAGES.cardNotWaiting);

/**
 * `POST /api/kyc/pan/card-image`: the photo of the customer's PAN card for the admin who verifies the PAN without a
 * provider's answer (decision 066), through the same pipeline as level 2's photos. Only while the PAN waits for its
 * check; a new photo replaces the earlier one (which is kept, as every KYC image is).
 */
export async function uploadPanCard(
  context: AppContext,
  request: FastifyRequest,
  session: SessionRecord,
  ipAddress: string,
): Promise<{ message: string; kyc: KycStatus }> {
  const { db } = context.database;
  const userId = session.userId;
  await assertConsentAccepted(db, userId);
  if ((await kycRepository.findKyc(db, userId))?.panStatus !== 'pending_review') throw panCardNotWaiting();
  const { files } = await readUpload(request);
  const image = await prepareImage(context, userId, files);
  await db.transaction(async (transaction) => {
    await insertPrepared(transaction, userId, 'pan_card', image, null);
    if (!(await kycRepository.savePanCardImage(transaction, userId, image.id))) throw panCardNotWaiting();
    await recordAudit(transaction, {
      actorUserId: userId,
      action: 'kyc.pan_card_upload',
      targetType: 'kyc_image',
      targetId: image.id,
      targetUserId: userId,
      after: { width: image.width, height: image.height },
      ipAddress,
    });
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'kyc.updated' });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
  });
  return { message: PAN_MESSAGES.cardSaved, kyc: await getKycStatus(db, userId) };
}

export interface SubmissionTrail {
  ipAddress: string;
  userAgent: string | undefined;
}

/**
 * `POST /api/kyc/level2`: the second document, its photos, the live selfie and the address, from level
 * 1. The photos must be the customer's own, of the right kind; the case then waits for an admin.
 */
export async function submitLevelTwo(
  context: AppContext,
  session: SessionRecord,
  input: SubmitLevelTwoRequest,
  trail: SubmissionTrail,
): Promise<{ message: string; kyc: KycStatus }> {
  const { db } = context.database;
  const userId = session.userId;
  await assertConsentAccepted(db, userId);
  const number = normalizeDocumentNumber(input.documentType, input.documentNumber);
  if ('error' in number) throw fieldError(400, 'VALIDATION_FAILED', 'documentNumber', number.error);
  const wanted: { field: string; id: string | undefined; purpose: KycImagePurpose; message: string }[] = [
    { field: 'frontImageId', id: input.frontImageId, purpose: 'document_front', message: KYC_DOCUMENT_MESSAGES.frontNeeded },
    {
      field: 'backImageId',
      id: BACK_NEEDED[input.documentType] ? input.backImageId : undefined,
      purpose: 'document_back',
      message: KYC_DOCUMENT_MESSAGES.backNeeded,
    },
    { field: 'selfieImageId', id: input.selfieImageId, purpose: 'selfie', message: KYC_DOCUMENT_MESSAGES.selfieNeeded },
  ];
  await db.transaction(async (transaction) => {
    const row = await kycRepository.findKyc(transaction, userId, { forUpdate: true });
    if (row === undefined) throw new Error(`user ${userId} has no profile`);
    if (kycLevelOf(factsOf(row)) === 0) throw AppError.forbidden(KYC_DOCUMENT_MESSAGES.levelOneFirst);
    if (row.level2Status === 'pending_review') throw AppError.conflict(KYC_DOCUMENT_MESSAGES.alreadyPending);
    if (row.level2Status === 'approved') throw AppError.conflict(KYC_DOCUMENT_MESSAGES.alreadyApproved);
    const ids = wanted.flatMap((item) => (item.id === undefined ? [] : [item.id]));
    const own = await documentRepository.findOwnImages(transaction, userId, ids);
    for (const item of wanted) {
      if (item.id === undefined) continue;
      // Another customer's photo, a missing one and one of another kind are all "not found" to this customer.
      if (!own.some((image) => image.id === item.id && image.purpose === item.purpose)) {
        throw fieldError(400, 'VALIDATION_FAILED', item.field, KYC_DOCUMENT_MESSAGES.imageUnknown);
      }
    }
    const submissionId = await documentRepository.insertSubmission(transaction, {
      userId,
      documentType: input.documentType,
      documentNumber: number.number,
      documentName: input.nameOnDocument.trim(),
      address: {
        line1: input.address.line1.trim(),
        line2: input.address.line2 === undefined || input.address.line2.trim() === '' ? null : input.address.line2.trim(),
        city: input.address.city.trim(),
        state: input.address.state.trim(),
        pinCode: input.address.pinCode.trim(),
      },
      frontImageId: input.frontImageId,
      backImageId: BACK_NEEDED[input.documentType] ? (input.backImageId ?? null) : null,
      selfieImageId: input.selfieImageId ?? null,
      ipAddress: trail.ipAddress,
      userAgent: trail.userAgent === undefined ? null : trail.userAgent.slice(0, 512),
      geolocation: input.geolocation ?? { status: 'not_asked' },
    });
    await recordAudit(transaction, {
      actorUserId: userId,
      action: 'kyc.level2_submit',
      targetType: 'kyc_level2',
      targetId: submissionId,
      targetUserId: userId,
      after: { documentType: input.documentType, geolocation: input.geolocation?.status ?? 'not_asked' },
      ipAddress: trail.ipAddress,
    });
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'kyc.updated' });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
  });
  return { message: KYC_DOCUMENT_MESSAGES.submitted, kyc: await getKycStatus(db, userId) };
}
