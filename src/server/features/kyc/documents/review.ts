import { KYC_REVIEW_MESSAGES, type LevelTwoCase, type LevelTwoCaseSummary, type RequestableItem } from '#shared/contracts/kyc-documents';
import { matchNames } from '#shared/name-match';
import type { AppContext } from '../../../context.ts';
import type { Database, Executor } from '../../../db/client.ts';
import { AppError } from '../../../errors.ts';
import { recordAudit } from '../../../platform/audit/record.ts';
import { publishEvent } from '../../../platform/events/publish.ts';
import { createNotifications } from '../../../platform/notifications/service.ts';
import { decodeCursor, toPageBy } from '../../../platform/pagination/cursor.ts';
import type { SessionRecord } from '../../../platform/sessions/repository.ts';
import { findOpenChange, needsSecondAdmin, requestChange, type Actor, type ChangeHandler } from '../../pending-changes/service.ts';
import * as kycRepository from '../repository.ts';
import type { KycRow } from '../repository.ts';
import { masterKeyFor, openImage } from './encryption.ts';
import * as documentRepository from './repository.ts';
import type { SubmissionRow, TrailColumns } from './repository.ts';

/*
 * The desk's side of KYC level 2 (decision 050): the queue, a case with its documents, the PAN's
 * result and the one name rule's verdicts, the images (to admins whose PIN is verified, each view
 * audited), and the decisions: approve (a second admin confirms while two admins exist, as lifting a
 * freeze does), reject with a reason the customer sees, or ask for one item again.
 */

function summaryOf(submission: SubmissionRow, row: KycRow, pendingChangeId: string | null): LevelTwoCaseSummary {
  return {
    id: submission.id,
    userId: submission.userId,
    name: row.name,
    email: row.email,
    documentType: submission.documentType,
    submittedAt: submission.submittedAt.toISOString(),
    riskCategory: row.riskCategory,
    nameMatch: matchNames(submission.documentName, row.name),
    pendingChangeId,
  };
}

function trailOf(trail: TrailColumns, at: Date) {
  return {
    ipAddress: trail.ipAddress,
    userAgent: trail.userAgent,
    at: at.toISOString(),
    geolocation: { status: trail.geolocationStatus, latitude: trail.latitude, longitude: trail.longitude, accuracyMeters: trail.accuracyMeters },
  };
}

async function caseOf(db: Executor, submission: SubmissionRow): Promise<LevelTwoCase> {
  const row = await kycRepository.findKyc(db, submission.userId);
  if (row === undefined) throw new Error(`user ${submission.userId} has no profile`);
  const imageIds = [submission.frontImageId, submission.backImageId, submission.selfieImageId].filter((id): id is string => id !== null);
  const images = await documentRepository.findOwnImages(db, submission.userId, imageIds);
  const ordered = imageIds.flatMap((id) => images.filter((image) => image.id === id));
  const selfie = ordered.find((image) => image.purpose === 'selfie');
  const signup = await documentRepository.findSignupTrail(db, submission.userId);
  const approval = await findOpenChange(db, 'kyc_level2_approval', submission.userId);
  return {
    ...summaryOf(submission, row, approval?.payload.submissionId === submission.id ? approval.id : null),
    status: submission.status,
    documentNumber: submission.documentNumber,
    nameOnDocument: submission.documentName,
    panNameMatch: row.panRegisteredName === null ? null : matchNames(submission.documentName, row.panRegisteredName),
    pan: { status: row.panStatus, registeredName: row.panRegisteredName, checkedBy: row.panCheckedBy, aadhaarLinked: row.panAadhaarLinked },
    address: { line1: submission.addressLine1, line2: submission.addressLine2, city: submission.city, state: submission.state, pinCode: submission.pinCode },
    images: ordered.map((image) => ({ id: image.id, purpose: image.purpose, width: image.width, height: image.height })),
    liveness: selfie?.liveness ?? null,
    submission: trailOf(submission, submission.submittedAt),
    signup: signup === undefined ? null : trailOf(signup, signup.signedUpAt),
    decidedAt: submission.decidedAt?.toISOString() ?? null,
    reason: submission.rejectionReason,
    requestedAgain: submission.requestedAgain,
  };
}

export async function listLevelTwoCases(
  db: Database,
  query: { cursor?: string | undefined; limit: number },
): Promise<{ items: LevelTwoCaseSummary[]; nextCursor: string | null }> {
  const cursor = decodeCursor(query.cursor);
  const rows = await documentRepository.listPendingSubmissions(db, cursor, query.limit);
  const page = toPageBy(rows, query.limit, (row) => ({ createdAt: row.cursorSubmittedAt, id: row.id }));
  const items: LevelTwoCaseSummary[] = [];
  for (const submission of page.rows) {
    const row = await kycRepository.findKyc(db, submission.userId);
    if (row === undefined) continue;
    const approval = await findOpenChange(db, 'kyc_level2_approval', submission.userId);
    items.push(summaryOf(submission, row, approval?.payload.submissionId === submission.id ? approval.id : null));
  }
  return { items, nextCursor: page.nextCursor };
}

export async function getLevelTwoCase(db: Database, id: string): Promise<LevelTwoCase> {
  const submission = await documentRepository.findSubmission(db, id);
  if (submission === undefined) throw AppError.notFound(KYC_REVIEW_MESSAGES.notFound);
  return caseOf(db, submission);
}

/**
 * An image's bytes for an admin whose PIN is verified in this session; every view writes an audit
 * row, in the same transaction that reads the image, so no view goes unrecorded.
 */
export async function viewImage(context: AppContext, session: SessionRecord, imageId: string, ipAddress: string): Promise<Buffer> {
  if (!session.pinVerified) throw new AppError(403, 'PIN_REQUIRED', KYC_REVIEW_MESSAGES.pinNeeded);
  return context.database.db.transaction(async (transaction) => {
    const image = await documentRepository.findImage(transaction, imageId);
    if (image === undefined) throw AppError.notFound(KYC_REVIEW_MESSAGES.imageNotFound);
    await recordAudit(transaction, {
      actorUserId: session.userId,
      action: 'kyc.document_view',
      targetType: 'kyc_image',
      targetId: image.id,
      targetUserId: image.userId,
      after: { purpose: image.purpose },
      ipAddress,
    });
    return openImage(masterKeyFor(context.config), image.sealed, { imageId: image.id, userId: image.userId });
  });
}

/** Locks a waiting case for a decision, refusing the admin's own KYC. */
async function waitingCase(db: Executor, actor: Actor, id: string): Promise<SubmissionRow> {
  const submission = await documentRepository.findSubmission(db, id, { forUpdate: true });
  if (submission === undefined) throw AppError.notFound(KYC_REVIEW_MESSAGES.notFound);
  if (submission.userId === actor.userId) throw AppError.forbidden(KYC_REVIEW_MESSAGES.ownAccount);
  if (submission.status !== 'pending_review' || !submission.current) throw AppError.conflict(KYC_REVIEW_MESSAGES.notPending, 'ALREADY_DECIDED');
  return submission;
}

const ITEM_WORDS: Record<RequestableItem, string> = {
  document_front: 'a new photo of the front of your document',
  document_back: 'a new photo of the back of your document',
  selfie: 'a new live selfie',
  address: 'your address again',
};

async function decide(
  transaction: Executor,
  submission: SubmissionRow,
  actor: Actor,
  outcome: { status: 'approved' | 'rejected' | 'resubmit_requested'; reason: string | null; requestedAgain: RequestableItem | null },
): Promise<void> {
  if (!(await documentRepository.decideSubmission(transaction, submission.id, { ...outcome, decidedByUserId: actor.userId }))) {
    throw AppError.conflict(KYC_REVIEW_MESSAGES.notPending, 'ALREADY_DECIDED');
  }
  const action = outcome.status === 'approved' ? 'kyc.level2_approve' : outcome.status === 'rejected' ? 'kyc.level2_reject' : 'kyc.level2_request_again';
  await recordAudit(transaction, {
    actorUserId: actor.userId,
    action,
    targetType: 'kyc_level2',
    targetId: submission.id,
    targetUserId: submission.userId,
    before: { status: 'pending_review' },
    after: outcome,
    ipAddress: actor.ipAddress,
  });
  const told =
    outcome.status === 'approved'
      ? { title: 'KYC level 2 verified', body: 'Your KYC level 2 is verified: the full limits of your tier apply.' }
      : outcome.status === 'rejected'
        ? { title: 'KYC level 2 not accepted', body: `Your level 2 documents were not accepted: ${outcome.reason ?? ''}` }
        : { title: 'Send a KYC document again', body: `Please send ${ITEM_WORDS[outcome.requestedAgain ?? 'document_front']}: ${outcome.reason ?? ''}` };
  await createNotifications(transaction, [
    {
      userId: submission.userId,
      kind: 'kyc_updated',
      title: told.title,
      body: told.body,
      link: '/kyc',
      emailSubject: told.title,
      emailText: `${told.body}\n\nOpen the KYC page in the app.`,
    },
  ]);
  await publishEvent(transaction, { type: 'wallet.updated', userId: submission.userId, reason: 'kyc.updated' });
  await publishEvent(transaction, { type: 'admin.queue.updated' });
}

type DecisionAnswer = { statusCode: 200 | 202; body: { message: string; case: LevelTwoCase; pendingChangeId: string | null } };

/**
 * Approves level 2: at once while a single admin exists, else as a change a second admin confirms
 * (202 with its id), since level 2 raises what may leave the account. A case without a live selfie
 * cannot be approved.
 */
export async function approveLevelTwo(db: Database, actor: Actor, id: string): Promise<DecisionAnswer> {
  return db.transaction(async (transaction) => {
    const submission = await waitingCase(transaction, actor, id);
    if (submission.selfieImageId === null) throw AppError.conflict(KYC_REVIEW_MESSAGES.selfieMissing);
    if (await needsSecondAdmin(transaction)) {
      if (await findOpenChange(transaction, 'kyc_level2_approval', submission.userId))
        throw AppError.conflict(KYC_REVIEW_MESSAGES.approvalAlreadyWaiting, 'CHANGE_ALREADY_WAITING');
      const pending = await requestChange(transaction, 'kyc_level2_approval', { userId: submission.userId, submissionId: submission.id }, actor);
      return {
        statusCode: 202,
        body: { message: KYC_REVIEW_MESSAGES.approvalWaiting, case: await caseOf(transaction, submission), pendingChangeId: pending.id },
      };
    }
    await decide(transaction, submission, actor, { status: 'approved', reason: null, requestedAgain: null });
    return { statusCode: 200, body: { message: KYC_REVIEW_MESSAGES.approved, case: await refreshed(transaction, id), pendingChangeId: null } };
  });
}

async function refreshed(db: Executor, id: string): Promise<LevelTwoCase> {
  const submission = await documentRepository.findSubmission(db, id);
  if (submission === undefined) throw new Error(`level 2 case ${id} vanished`);
  return caseOf(db, submission);
}

/** A second admin's confirm: the same case must still wait (a rejection or a newer submission since makes it stale). */
export const levelTwoApprovalHandler: ChangeHandler<'kyc_level2_approval'> = {
  kind: 'kyc_level2_approval',
  lockSubject: async (transaction, userId) => {
    await kycRepository.findKyc(transaction, userId, { forUpdate: true });
  },
  apply: async (transaction, change, decider) => {
    const submission = await documentRepository.findSubmission(transaction, change.payload.submissionId, { forUpdate: true });
    if (submission === undefined || submission.status !== 'pending_review' || !submission.current) {
      throw AppError.conflict(KYC_REVIEW_MESSAGES.notPending, 'STALE_CHANGE');
    }
    await decide(transaction, submission, decider, { status: 'approved', reason: null, requestedAgain: null });
  },
};

export async function rejectLevelTwo(db: Database, actor: Actor, id: string, reason: string): Promise<DecisionAnswer> {
  return db.transaction(async (transaction) => {
    const submission = await waitingCase(transaction, actor, id);
    await decide(transaction, submission, actor, { status: 'rejected', reason, requestedAgain: null });
    return { statusCode: 200, body: { message: KYC_REVIEW_MESSAGES.rejected, case: await refreshed(transaction, id), pendingChangeId: null } };
  });
}

export async function requestAgain(db: Database, actor: Actor, id: string, item: RequestableItem, reason: string): Promise<DecisionAnswer> {
  return db.transaction(async (transaction) => {
    const submission = await waitingCase(transaction, actor, id);
    await decide(transaction, submission, actor, { status: 'resubmit_requested', reason, requestedAgain: item });
    return { statusCode: 200, body: { message: KYC_REVIEW_MESSAGES.requestedAgain, case: await refreshed(transaction, id), pendingChangeId: null } };
  });
}
