import { sql } from 'drizzle-orm';
import type { PanStatus, RiskCategory } from '#shared/contracts/kyc';
import type { KycDocumentType, LevelTwoStatus, RequestableItem } from '#shared/contracts/kyc-documents';
import type { Executor } from '../../db/client.ts';
import type { PageCursor } from '../../platform/pagination/cursor.ts';

/** What the KYC rules read of one customer: contacts verified, name, PAN and its check, tax residence. */
export interface KycRow {
  userId: string;
  name: string;
  email: string;
  pan: string | null;
  emailVerifiedAt: Date | null;
  phoneVerifiedAt: Date | null;
  panStatus: PanStatus;
  panRegisteredName: string | null;
  panNameAccepted: string | null;
  panProviderNameScore: number | null;
  panAadhaarLinked: boolean | null;
  panRejectionReason: string | null;
  panSubmittedAt: Date | null;
  panCheckedAt: Date | null;
  panCheckedBy: 'cashfree' | 'admin' | null;
  /** The photo of the PAN card for the admin's check (decision 066), and why the desk asked for it again. */
  panCardImageId: string | null;
  panCardRequestReason: string | null;
  taxResidence: 'india' | 'other' | null;
  taxResidenceOtherCountry: string | null;
  taxResidenceDeclaredAt: Date | null;
  frozenAt: Date | null;
  frozenReason: string | null;
  frozenByName: string | null;
  riskCategory: RiskCategory;
  /** Level 2 (decision 050): the newest submission's state and what the customer is told of it. */
  level2Status: LevelTwoStatus;
  levelTwoSubmission: {
    id: string;
    documentType: KycDocumentType;
    submittedAt: string;
    reason: string | null;
    requestedAgain: RequestableItem | null;
    hasSelfie: boolean;
  } | null;
}

const KYC_COLUMNS = sql`p.user_id as "userId", p.name, u.email, p.pan, u.email_verified_at as "emailVerifiedAt", p.phone_verified_at as "phoneVerifiedAt",
  coalesce(k.pan_status, 'none') as "panStatus", k.pan_registered_name as "panRegisteredName", k.pan_name_accepted as "panNameAccepted",
  k.pan_provider_name_score as "panProviderNameScore", k.pan_aadhaar_linked as "panAadhaarLinked", k.pan_rejection_reason as "panRejectionReason",
  k.pan_submitted_at as "panSubmittedAt", k.pan_checked_at as "panCheckedAt", k.pan_checked_by as "panCheckedBy",
  k.pan_card_image_id as "panCardImageId", k.pan_card_request_reason as "panCardRequestReason", k.tax_residence as "taxResidence", k.tax_residence_other_country as "taxResidenceOtherCountry",
  k.tax_residence_declared_at as "taxResidenceDeclaredAt", k.frozen_at as "frozenAt", k.frozen_reason as "frozenReason",
  (select fp.name from profiles fp where fp.user_id = k.frozen_by_user_id) as "frozenByName", coalesce(k.risk_category, 'low') as "riskCategory",
  coalesce(k.level2_status, 'none') as "level2Status",
  (select json_build_object('id', ls.id, 'documentType', ls.document_type, 'submittedAt', ls.submitted_at, 'reason', ls.rejection_reason, 'requestedAgain', ls.requested_again, 'hasSelfie', ls.selfie_image_id is not null)
    from kyc_level2_submissions ls where ls.id = k.level2_submission_id) as "levelTwoSubmission"`;

function withDates(row: Record<string, unknown>): KycRow {
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
  return {
    ...(row as unknown as KycRow),
    emailVerifiedAt: date(row.emailVerifiedAt),
    phoneVerifiedAt: date(row.phoneVerifiedAt),
    panSubmittedAt: date(row.panSubmittedAt),
    panCheckedAt: date(row.panCheckedAt),
    taxResidenceDeclaredAt: date(row.taxResidenceDeclaredAt),
    frozenAt: date(row.frozenAt),
  };
}

/** The customer's KYC row; `forUpdate` locks the profile (the PAN lives there) until the transaction ends. */
export async function findKyc(db: Executor, userId: string, options: { forUpdate?: boolean } = {}): Promise<KycRow | undefined> {
  const result = await db.execute(sql`select ${KYC_COLUMNS}
    from profiles p join users u on u.id = p.user_id left join kyc_records k on k.user_id = p.user_id
    where p.user_id = ${userId} ${options.forUpdate ? sql`for update of p` : sql``}`);
  const row = result.rows[0];
  return row === undefined ? undefined : withDates(row);
}

/** Another account holding this PAN (the oldest first), if any. */
export async function findOtherHolderOfPan(db: Executor, userId: string, pan: string): Promise<string | undefined> {
  const result = await db.execute<{ userId: string }>(
    sql`select user_id as "userId" from profiles where pan = ${pan} and user_id <> ${userId} order by pan_shared_before_kyc, created_at limit 1`,
  );
  return result.rows[0]?.userId;
}

export async function insertPanConflict(
  db: Executor,
  values: { pan: string; userId: string; existingUserId: string | null; ipAddress: string },
): Promise<void> {
  await db.execute(sql`insert into pan_conflicts (pan, user_id, existing_user_id, source, ip_address)
    values (${values.pan}, ${values.userId}, ${values.existingUserId}, 'submission', ${values.ipAddress})`);
}

/** How many PANs the customer submitted in the last 24 hours (each may cost a provider call). */
export async function countPanSubmissionsSince(db: Executor, userId: string, hours: number): Promise<number> {
  const result = await db.execute<{ count: number }>(sql`select count(*)::int as count from audit_log
    where actor_user_id = ${userId} and action = 'kyc.pan_submit' and created_at > now() - make_interval(hours => ${hours})`);
  return result.rows[0]?.count ?? 0;
}

/** Saves a new PAN as the account's, waiting for its check (every earlier check result is cleared, and the earlier PAN's card photo). */
export async function savePanForCheck(db: Executor, userId: string, pan: string): Promise<void> {
  await db.execute(sql`update profiles set pan = ${pan}, pan_shared_before_kyc = false, updated_at = now() where user_id = ${userId}`);
  await db.execute(sql`insert into kyc_records as k (user_id, pan_status, pan_submitted_at) values (${userId}, 'pending_review', now())
    on conflict (user_id) do update set pan_status = 'pending_review', pan_submitted_at = now(), pan_checked_by = null, pan_checked_at = null,
      pan_registered_name = null, pan_name_accepted = null, pan_provider_name_score = null, pan_aadhaar_linked = null, pan_provider_reference = null,
      pan_rejection_reason = null, pan_reviewed_by_user_id = null, pan_card_image_id = null, pan_card_request_reason = null, updated_at = now()`);
}

/** Makes `imageId` the photo of the customer's PAN card while the PAN waits for its check; answers false when it no longer waits. */
export async function savePanCardImage(db: Executor, userId: string, imageId: string): Promise<boolean> {
  const result = await db.execute(sql`update kyc_records set pan_card_image_id = ${imageId}, pan_card_request_reason = null, updated_at = now()
    where user_id = ${userId} and pan_status = 'pending_review'`);
  return (result.rowCount ?? 0) > 0;
}

/** The desk asks for the PAN card's photo again: the current one is set aside (kept, as every KYC image is) and the reason recorded. */
export async function requestPanCard(db: Executor, userId: string, reason: string): Promise<boolean> {
  const result = await db.execute(sql`update kyc_records set pan_card_image_id = null, pan_card_request_reason = ${reason}, updated_at = now()
    where user_id = ${userId} and pan_status = 'pending_review'`);
  return (result.rowCount ?? 0) > 0;
}

export interface PanCheckValues {
  status: Exclude<PanStatus, 'none'>;
  checkedBy: 'cashfree' | 'admin';
  registeredName: string | null;
  nameAccepted: string | null;
  providerNameScore: number | null;
  aadhaarLinked: boolean | null;
  providerReference: string | null;
  rejectionReason: string | null;
  reviewedByUserId: string | null;
}

/**
 * Records the check of the PAN `pan` while it is still the account's PAN and still waits for its check
 * (a newer submission made meanwhile wins). Answers whether it was recorded.
 */
export async function recordPanCheck(db: Executor, userId: string, pan: string, values: PanCheckValues): Promise<boolean> {
  const result = await db.execute(sql`update kyc_records k set pan_status = ${values.status}, pan_checked_by = ${values.checkedBy}, pan_checked_at = now(),
      pan_registered_name = ${values.registeredName}, pan_name_accepted = ${values.nameAccepted}, pan_provider_name_score = ${values.providerNameScore},
      pan_aadhaar_linked = ${values.aadhaarLinked}, pan_provider_reference = ${values.providerReference}, pan_rejection_reason = ${values.rejectionReason},
      pan_reviewed_by_user_id = ${values.reviewedByUserId}, updated_at = now()
    where k.user_id = ${userId} and k.pan_status = 'pending_review' and exists (select 1 from profiles p where p.user_id = k.user_id and p.pan = ${pan})`);
  return (result.rowCount ?? 0) > 0;
}

export async function saveTaxResidence(
  db: Executor,
  userId: string,
  values: { residence: 'india' | 'other'; otherCountry: string | null; ipAddress: string },
): Promise<void> {
  await db.execute(sql`insert into kyc_records (user_id, tax_residence, tax_residence_other_country, tax_residence_declared_at, tax_residence_ip)
    values (${userId}, ${values.residence}, ${values.otherCountry}, now(), ${values.ipAddress})
    on conflict (user_id) do update set tax_residence = excluded.tax_residence, tax_residence_other_country = excluded.tax_residence_other_country,
      tax_residence_declared_at = excluded.tax_residence_declared_at, tax_residence_ip = excluded.tax_residence_ip, updated_at = now()`);
}

export interface PanReviewRow extends KycRow {
  otherAccountsWithPan: number;
  cursorCreatedAt: string;
}

/** The PANs waiting for an admin, oldest first by submission, as a desk works a queue (keyset on submission time and user id). */
export async function listPendingPanReviews(db: Executor, cursor: PageCursor | undefined, limit: number): Promise<PanReviewRow[]> {
  const after = cursor === undefined ? sql`` : sql`and (k.pan_submitted_at, k.user_id) > (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`;
  const result = await db.execute(sql`select ${KYC_COLUMNS},
      (select count(*)::int from profiles o where o.pan = p.pan and o.user_id <> p.user_id) as "otherAccountsWithPan",
      to_char(k.pan_submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorCreatedAt"
    from kyc_records k join profiles p on p.user_id = k.user_id join users u on u.id = p.user_id
    where k.pan_status = 'pending_review' and p.pan is not null and k.pan_submitted_at is not null ${after}
    order by k.pan_submitted_at, k.user_id
    limit ${limit + 1}`);
  return result.rows.map((row) => ({
    ...withDates(row),
    otherAccountsWithPan: Number(row.otherAccountsWithPan),
    cursorCreatedAt: String(row.cursorCreatedAt),
  }));
}

export async function countOtherAccountsWithPan(db: Executor, userId: string, pan: string): Promise<number> {
  const result = await db.execute<{ count: number }>(sql`select count(*)::int as count from profiles where pan = ${pan} and user_id <> ${userId}`);
  return result.rows[0]?.count ?? 0;
}

export interface PanConflictRow {
  id: string;
  pan: string;
  source: 'submission' | 'migration';
  userId: string;
  userName: string;
  userEmail: string;
  existingUserId: string | null;
  existingName: string | null;
  existingEmail: string | null;
  createdAt: Date;
  cursorCreatedAt: string;
}

/** The refused second submissions of a PAN and the PANs shared before migration 0032, newest first. */
export async function listPanConflicts(db: Executor, cursor: PageCursor | undefined, limit: number): Promise<PanConflictRow[]> {
  const after = cursor === undefined ? sql`` : sql`where (c.created_at, c.id) < (${cursor.createdAt}::timestamptz, ${cursor.id}::bigint)`;
  const result = await db.execute(sql`select c.id::text as id, c.pan, c.source, c.user_id as "userId", p.name as "userName", u.email as "userEmail",
      c.existing_user_id as "existingUserId", ep.name as "existingName", eu.email as "existingEmail", c.created_at as "createdAt",
      to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "cursorCreatedAt"
    from pan_conflicts c
      join profiles p on p.user_id = c.user_id join users u on u.id = c.user_id
      left join profiles ep on ep.user_id = c.existing_user_id left join users eu on eu.id = c.existing_user_id
    ${after}
    order by c.created_at desc, c.id desc
    limit ${limit + 1}`);
  return result.rows.map((row) => ({ ...(row as unknown as PanConflictRow), createdAt: new Date(row.createdAt as string) }));
}

/** Freezes the account (decision 047); answers false when it was frozen already. */
export async function freezeAccount(db: Executor, userId: string, values: { reason: string; adminUserId: string }): Promise<boolean> {
  const result = await db.execute(sql`insert into kyc_records as k (user_id, frozen_at, frozen_reason, frozen_by_user_id)
    values (${userId}, now(), ${values.reason}, ${values.adminUserId})
    on conflict (user_id) do update set frozen_at = now(), frozen_reason = excluded.frozen_reason, frozen_by_user_id = excluded.frozen_by_user_id, updated_at = now()
      where k.frozen_at is null`);
  return (result.rowCount ?? 0) > 0;
}

/** Lifts the freeze; answers false when the account was not frozen. */
export async function unfreezeAccount(db: Executor, userId: string): Promise<boolean> {
  const result = await db.execute(sql`update kyc_records set frozen_at = null, frozen_reason = null, frozen_by_user_id = null, updated_at = now()
    where user_id = ${userId} and frozen_at is not null`);
  return (result.rowCount ?? 0) > 0;
}

export async function setRiskCategory(db: Executor, userId: string, values: { riskCategory: RiskCategory; adminUserId: string }): Promise<void> {
  await db.execute(sql`insert into kyc_records (user_id, risk_category, risk_set_at, risk_set_by_user_id)
    values (${userId}, ${values.riskCategory}, now(), ${values.adminUserId})
    on conflict (user_id) do update set risk_category = excluded.risk_category, risk_set_at = now(), risk_set_by_user_id = excluded.risk_set_by_user_id, updated_at = now()`);
}

/** Whether the account is frozen, read under the caller's transaction. */
export async function isFrozen(db: Executor, userId: string): Promise<boolean> {
  const result = await db.execute<{ frozen: boolean }>(
    sql`select exists (select 1 from kyc_records where user_id = ${userId} and frozen_at is not null) as frozen`,
  );
  return result.rows[0]?.frozen === true;
}

/**
 * Customers whose KYC refresh date falls within the next `days` days or has passed, and who were not told of
 * that date yet, the oldest date first. The date is computed as `kycDueAt` computes it (the older of the
 * PAN's check and the tax residence declaration plus the risk category's calendar months, in UTC, a day
 * past a month's end running into the next month as JavaScript's does); the caller checks each again.
 */
export async function findRefreshNoticeCandidates(
  db: Executor,
  values: { monthsHighRisk: number; monthsOther: number; days: number; limit: number },
): Promise<string[]> {
  const since = sql`(least(k.pan_checked_at, k.tax_residence_declared_at) at time zone 'UTC')`;
  const result = await db.execute<{ userId: string }>(sql`select user_id as "userId" from (
      select k.user_id, k.refresh_notice_due_at,
        date_trunc('milliseconds', (date_trunc('month', ${since})
          + make_interval(months => case when k.risk_category = 'high' then ${values.monthsHighRisk}::int else ${values.monthsOther}::int end)
          + (${since} - date_trunc('month', ${since}))) at time zone 'UTC') as due_at
      from kyc_records k join users u on u.id = k.user_id join profiles p on p.user_id = k.user_id
      where k.pan_status = 'verified' and k.pan_checked_at is not null and k.tax_residence_declared_at is not null
        and u.email_verified_at is not null and p.phone_verified_at is not null
    ) due
    where due_at <= now() + make_interval(days => ${values.days}) and refresh_notice_due_at is distinct from due_at
    order by due_at, user_id
    limit ${values.limit}`);
  return result.rows.map((row) => row.userId);
}

/** Records that the customer was told of this refresh date; false when they were already (another process was first). */
export async function markRefreshNoticeSent(db: Executor, userId: string, dueAt: Date): Promise<boolean> {
  const result = await db.execute(sql`update kyc_records set refresh_notice_due_at = ${dueAt.toISOString()}::timestamptz
    where user_id = ${userId} and refresh_notice_due_at is distinct from ${dueAt.toISOString()}::timestamptz`);
  return (result.rowCount ?? 0) === 1;
}
