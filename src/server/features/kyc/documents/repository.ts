import { sql } from 'drizzle-orm';
import type { KycDocumentType, KycImagePurpose, KycStoredImagePurpose, LevelTwoStatus, LivenessReport, RequestableItem } from '#shared/contracts/kyc-documents';
import type { SignupGeolocation } from '#shared/contracts/signup-trail';
import type { Executor } from '../../../db/client.ts';
import type { PageCursor } from '../../../platform/pagination/cursor.ts';
import type { SealedImage } from './encryption.ts';

/** KYC images and level 2 submissions (decision 050): SQL only, in the caller's transaction. */

export interface NewImage {
  id: string;
  userId: string;
  purpose: KycStoredImagePurpose;
  width: number;
  height: number;
  sizeBytes: number;
  sealed: SealedImage;
  liveness: LivenessReport | null;
  /** The liveness challenge token's id a selfie was accepted with; the unique index takes each id once. */
  livenessChallengeId: string | null;
}

/** The unique index that makes a liveness challenge's token serve one selfie only (migration 0044). */
export const LIVENESS_CHALLENGE_UNIQUE = 'kyc_images_liveness_challenge_unique';

export async function insertImage(db: Executor, image: NewImage): Promise<void> {
  await db.execute(sql`insert into kyc_images (id, user_id, purpose, width, height, size_bytes, master_key_id, wrapped_key, content_iv, content_tag, content, liveness, liveness_challenge_id)
    values (${image.id}, ${image.userId}, ${image.purpose}, ${image.width}, ${image.height}, ${image.sizeBytes}, ${image.sealed.masterKeyId},
      ${image.sealed.wrappedKey}, ${image.sealed.contentIv}, ${image.sealed.contentTag}, ${image.sealed.content},
      ${image.liveness === null ? null : JSON.stringify(image.liveness)}::jsonb, ${image.livenessChallengeId}::uuid)`);
}

export async function countImagesSince(db: Executor, userId: string, hours: number): Promise<number> {
  const result = await db.execute<{ count: number }>(
    sql`select count(*)::int as count from kyc_images where user_id = ${userId} and created_at > now() - make_interval(hours => ${hours})`,
  );
  return result.rows[0]?.count ?? 0;
}

export interface ImageSummary {
  id: string;
  userId: string;
  purpose: KycImagePurpose;
  width: number;
  height: number;
  liveness: LivenessReport | null;
}

/** The customer's own images among `ids` (another customer's are not found). */
export async function findOwnImages(db: Executor, userId: string, ids: string[]): Promise<ImageSummary[]> {
  if (ids.length === 0) return [];
  const result = await db.execute<ImageSummary & Record<string, unknown>>(sql`select id, user_id as "userId", purpose, width, height, liveness from kyc_images
    where user_id = ${userId} and id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  return result.rows;
}

/** Any stored image, also the PAN card's photo (decision 066). */
export interface StoredImage extends Omit<ImageSummary, 'purpose'> {
  purpose: KycStoredImagePurpose;
  sealed: SealedImage;
}

export async function findImage(db: Executor, id: string): Promise<StoredImage | undefined> {
  const result = await db.execute<Record<string, unknown>>(sql`select id, user_id as "userId", purpose, width, height, liveness,
      master_key_id as "masterKeyId", wrapped_key as "wrappedKey", content_iv as "contentIv", content_tag as "contentTag", content
    from kyc_images where id = ${id} and purged_at is null`);
  const row = result.rows[0];
  if (row === undefined) return undefined;
  return {
    id: row.id as string,
    userId: row.userId as string,
    purpose: row.purpose as KycStoredImagePurpose,
    width: row.width as number,
    height: row.height as number,
    liveness: row.liveness as LivenessReport | null,
    sealed: {
      masterKeyId: row.masterKeyId as string,
      wrappedKey: row.wrappedKey as Buffer,
      contentIv: row.contentIv as Buffer,
      contentTag: row.contentTag as Buffer,
      content: row.content as Buffer,
    },
  };
}

export interface NewSubmission {
  userId: string;
  documentType: KycDocumentType;
  documentNumber: string;
  documentName: string;
  address: { line1: string; line2: string | null; city: string; state: string; pinCode: string };
  frontImageId: string;
  backImageId: string | null;
  selfieImageId: string | null;
  ipAddress: string;
  userAgent: string | null;
  geolocation: SignupGeolocation | { status: 'not_asked' };
}

/** Records a submission and makes it the customer's current level 2 case, waiting for a review. */
export async function insertSubmission(db: Executor, values: NewSubmission): Promise<string> {
  const position = values.geolocation.status === 'granted' ? values.geolocation : undefined;
  const result = await db.execute<{ id: string }>(sql`insert into kyc_level2_submissions (user_id, document_type, document_number, document_name,
      address_line1, address_line2, city, state, pin_code, front_image_id, back_image_id, selfie_image_id, ip_address, user_agent,
      geolocation_status, latitude, longitude, accuracy_meters)
    values (${values.userId}, ${values.documentType}, ${values.documentNumber}, ${values.documentName}, ${values.address.line1}, ${values.address.line2},
      ${values.address.city}, ${values.address.state}, ${values.address.pinCode}, ${values.frontImageId}, ${values.backImageId}, ${values.selfieImageId},
      ${values.ipAddress}, ${values.userAgent}, ${values.geolocation.status}, ${position?.latitude ?? null}, ${position?.longitude ?? null}, ${position?.accuracyMeters ?? null})
    returning id`);
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error('the level 2 submission was not inserted');
  await db.execute(sql`insert into kyc_records as k (user_id, level2_status, level2_submission_id) values (${values.userId}, 'pending_review', ${id})
    on conflict (user_id) do update set level2_status = 'pending_review', level2_submission_id = excluded.level2_submission_id, updated_at = now()`);
  return id;
}

/** Where and when something was sent from: the sign-up's trail and each submission's. */
export interface TrailColumns {
  ipAddress: string;
  userAgent: string | null;
  geolocationStatus: 'granted' | 'denied' | 'unavailable' | 'not_asked';
  latitude: number | null;
  longitude: number | null;
  accuracyMeters: number | null;
}

export interface SubmissionRow extends TrailColumns {
  id: string;
  userId: string;
  status: Exclude<LevelTwoStatus, 'none'>;
  documentType: KycDocumentType;
  documentNumber: string;
  documentName: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  pinCode: string;
  frontImageId: string;
  backImageId: string | null;
  selfieImageId: string | null;
  submittedAt: Date;
  decidedAt: Date | null;
  rejectionReason: string | null;
  requestedAgain: RequestableItem | null;
  /** Whether this is still the customer's current case (a newer submission replaces it). */
  current: boolean;
  cursorSubmittedAt: string;
}

const SUBMISSION_COLUMNS = sql`s.id, s.user_id as "userId", s.status, s.document_type as "documentType", s.document_number as "documentNumber",
  s.document_name as "documentName", s.address_line1 as "addressLine1", s.address_line2 as "addressLine2", s.city, s.state, s.pin_code as "pinCode",
  s.front_image_id as "frontImageId", s.back_image_id as "backImageId", s.selfie_image_id as "selfieImageId", s.ip_address as "ipAddress",
  s.user_agent as "userAgent", s.geolocation_status as "geolocationStatus", s.latitude, s.longitude, s.accuracy_meters as "accuracyMeters",
  s.submitted_at as "submittedAt", s.decided_at as "decidedAt", s.rejection_reason as "rejectionReason", s.requested_again as "requestedAgain",
  exists (select 1 from kyc_records k where k.user_id = s.user_id and k.level2_submission_id = s.id) as current,
  to_char(s.submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorSubmittedAt"`;

function submissionOf(row: Record<string, unknown>): SubmissionRow {
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
  return { ...(row as unknown as SubmissionRow), submittedAt: new Date(row.submittedAt as string), decidedAt: date(row.decidedAt) };
}

/** A submission; `forUpdate` locks it until the transaction ends, so two decisions on it take turns. */
export async function findSubmission(db: Executor, id: string, options: { forUpdate?: boolean } = {}): Promise<SubmissionRow | undefined> {
  const result = await db.execute(
    sql`select ${SUBMISSION_COLUMNS} from kyc_level2_submissions s where s.id = ${id} ${options.forUpdate ? sql`for update of s` : sql``}`,
  );
  const row = result.rows[0];
  return row === undefined ? undefined : submissionOf(row);
}

/** The cases waiting for a review, oldest first (keyset on submission time and id). */
export async function listPendingSubmissions(db: Executor, cursor: PageCursor | undefined, limit: number): Promise<SubmissionRow[]> {
  const after = cursor === undefined ? sql`` : sql`and (s.submitted_at, s.id) > (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
  const result = await db.execute(sql`select ${SUBMISSION_COLUMNS} from kyc_level2_submissions s
    where s.status = 'pending_review' ${after}
    order by s.submitted_at, s.id
    limit ${limit + 1}`);
  return result.rows.map(submissionOf);
}

/** Decides a waiting submission and carries its outcome to the customer's KYC record; answers false when it no longer waits. */
export async function decideSubmission(
  db: Executor,
  id: string,
  values: { status: 'approved' | 'rejected' | 'resubmit_requested'; reason: string | null; requestedAgain: RequestableItem | null; decidedByUserId: string },
): Promise<boolean> {
  const result = await db.execute(sql`update kyc_level2_submissions set status = ${values.status}, rejection_reason = ${values.reason},
      requested_again = ${values.requestedAgain}, decided_at = now(), decided_by_user_id = ${values.decidedByUserId}
    where id = ${id} and status = 'pending_review'`);
  if ((result.rowCount ?? 0) === 0) return false;
  await db.execute(sql`update kyc_records set level2_status = ${values.status}, updated_at = now() where level2_submission_id = ${id}`);
  return true;
}

export interface TrailRow extends TrailColumns {
  signedUpAt: Date;
}

export async function findSignupTrail(db: Executor, userId: string): Promise<TrailRow | undefined> {
  const result = await db.execute<Record<string, unknown>>(sql`select ip_address as "ipAddress", user_agent as "userAgent", signed_up_at as "signedUpAt",
      geolocation_status as "geolocationStatus", latitude, longitude, accuracy_meters as "accuracyMeters"
    from signup_trail where user_id = ${userId}`);
  const row = result.rows[0];
  return row === undefined ? undefined : { ...(row as unknown as TrailRow), signedUpAt: new Date(row.signedUpAt as string) };
}
