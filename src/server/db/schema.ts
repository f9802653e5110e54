import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PayeeCheck, PayeeValidationStatus } from '#shared/contracts/bank-accounts';
import type { NameMatchVerdict } from '#shared/name-match';
import type { PayoutProviderName, PayoutRoute, ProviderPayoutState } from '#shared/contracts/payouts';
import type { ChainIncidentResolution } from '#shared/contracts/chain-incidents';
import type { ChainProblem, ChainStateName, DepositSource } from '#shared/contracts/deposits';
import type {
  DepositNetwork,
  Language,
  PendingChangeKind,
  PendingChangeStatus,
  RateTier,
  RequestStatus,
  Role,
  VipLevel,
  WithdrawalStatus,
} from '#shared/contracts/enums';
import type { NotificationKind } from '#shared/contracts/notifications';
import type { FilePurpose } from '#shared/contracts/settings';
import type { PayoutFileFormat } from '#shared/contracts/payout-file-formats';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const usdtMicros = (name: string) => bigint(name, { mode: 'bigint' });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    pinResetAt: timestamp('pin_reset_at', { withTimezone: true }),
    passwordResetAt: timestamp('password_reset_at', { withTimezone: true }),
    /** When the customer opened the verification link sent to this address (issue 32); null until then. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** When the customer closed the account (decision 060): sign-in is refused and the records are kept. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** The closed account's balance admins were last told of: they are told again when it rises (decision 060). */
    closedBalanceNoticedUsdtMicros: usdtMicros('closed_balance_noticed_usdt_micros').notNull().default(0n),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_lower_unique').on(sql`lower(${table.email})`),
    index('users_closed_idx')
      .on(table.closedAt)
      .where(sql`${table.closedAt} is not null`),
    check('users_email_length', sql`char_length(${table.email}) between 3 and 254`),
  ],
);

export const profiles = pgTable(
  'profiles',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    role: text('role').$type<Role>().notNull().default('user'),
    vipLevel: text('vip_level').$type<VipLevel>().notNull().default('normal'),
    referralCode: text('referral_code').notNull(),
    referredByUserId: uuid('referred_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The Permanent Account Number for TDS (section 194S), upper case; null until the customer adds it. */
    pan: text('pan'),
    /** When the customer entered the one-time code sent to this phone number (issue 32); null until then. */
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    /** True for a PAN another, older account held already when one PAN per account began (migration 0032); listed in pan_conflicts. */
    panSharedBeforeKyc: boolean('pan_shared_before_kyc').notNull().default(false),
    /** The language of the customer's screens and e-mails (issue 33). */
    language: text('language').$type<Language>().notNull().default('en'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('profiles_referral_code_unique').on(table.referralCode),
    index('profiles_referred_by_idx').on(table.referredByUserId),
    check('profiles_role_valid', sql`${table.role} in ('user', 'admin')`),
    check('profiles_language_valid', sql`${table.language} in ('en', 'hi')`),
    check('profiles_vip_level_valid', sql`${table.vipLevel} in ('normal', 'vip', 'vip1', 'vip2', 'vip3')`),
    check('profiles_name_length', sql`char_length(${table.name}) between 1 and 100`),
    check('profiles_phone_shape', sql`${table.phone} ~ '^\\+[0-9]{8,15}$'`),
    check('profiles_referral_code_shape', sql`${table.referralCode} ~ '^[A-Z]{5}[A-Z0-9]{5}$'`),
    check('profiles_not_self_referred', sql`${table.referredByUserId} is distinct from ${table.userId}`),
    check('profiles_pan_shape', sql`${table.pan} is null or ${table.pan} ~ '^[A-Z]{5}[0-9]{4}[A-Z]$'`),
    uniqueIndex('profiles_pan_unique')
      .on(table.pan)
      .where(sql`${table.pan} is not null and not ${table.panSharedBeforeKyc}`),
  ],
);

/** What a customer proved for KYC beyond e-mail and mobile (decision 042): the PAN's check and the tax residence. */
export const kycRecords = pgTable(
  'kyc_records',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    panStatus: text('pan_status').$type<'none' | 'pending_review' | 'verified' | 'rejected'>().notNull().default('none'),
    panSubmittedAt: timestamp('pan_submitted_at', { withTimezone: true }),
    panCheckedBy: text('pan_checked_by').$type<'cashfree' | 'admin'>(),
    panCheckedAt: timestamp('pan_checked_at', { withTimezone: true }),
    /** The name the Income Tax Department holds for the PAN (from the provider, or read by the admin from the card). */
    panRegisteredName: text('pan_registered_name'),
    /** The customer's name when the PAN was accepted for it (an admin may accept a partial match); a later name change is checked again. */
    panNameAccepted: text('pan_name_accepted'),
    panProviderNameScore: smallint('pan_provider_name_score'),
    /** False: the PAN is inoperative (not linked to Aadhaar) and TDS takes the no-PAN rate; null: not known. */
    panAadhaarLinked: boolean('pan_aadhaar_linked'),
    panProviderReference: text('pan_provider_reference'),
    panRejectionReason: text('pan_rejection_reason'),
    panReviewedByUserId: uuid('pan_reviewed_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The photo of the PAN card an admin checks the PAN against when no provider answered (decision 066). */
    panCardImageId: uuid('pan_card_image_id').references((): AnyPgColumn => kycImages.id),
    /** The reason the desk gave when it asked for the card's photo again; cleared by the next photo. */
    panCardRequestReason: text('pan_card_request_reason'),
    taxResidence: text('tax_residence').$type<'india' | 'other'>(),
    taxResidenceOtherCountry: text('tax_residence_other_country'),
    taxResidenceDeclaredAt: timestamp('tax_residence_declared_at', { withTimezone: true }),
    taxResidenceIp: text('tax_residence_ip'),
    /** Set while an admin has frozen the account (decision 047): nothing leaves it, deposits still credit. */
    frozenAt: timestamp('frozen_at', { withTimezone: true }),
    frozenReason: text('frozen_reason'),
    frozenByUserId: uuid('frozen_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Set by an admin; decides how often KYC is refreshed (decision 047). */
    riskCategory: text('risk_category').$type<'low' | 'medium' | 'high'>().notNull().default('low'),
    riskSetAt: timestamp('risk_set_at', { withTimezone: true }),
    riskSetByUserId: uuid('risk_set_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Level 2 (decision 050): the state of the newest level 2 submission, which `level2SubmissionId` names. */
    level2Status: text('level2_status').$type<'none' | 'pending_review' | 'approved' | 'rejected' | 'resubmit_requested'>().notNull().default('none'),
    level2SubmissionId: uuid('level2_submission_id'),
    /** The KYC refresh date the 14-day notice was sent for; a later date (after a refresh) gets its own notice. */
    refreshNoticeDueAt: timestamp('refresh_notice_due_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('kyc_records_pan_review_idx')
      .on(table.panSubmittedAt)
      .where(sql`${table.panStatus} = 'pending_review'`),
    check(
      'kyc_records_pan_card_request_reason_length',
      sql`${table.panCardRequestReason} is null or char_length(${table.panCardRequestReason}) between 1 and 500`,
    ),
    check('kyc_records_pan_status_valid', sql`${table.panStatus} in ('none', 'pending_review', 'verified', 'rejected')`),
    check('kyc_records_pan_checked_by_valid', sql`${table.panCheckedBy} is null or ${table.panCheckedBy} in ('cashfree', 'admin')`),
    check('kyc_records_pan_registered_name_length', sql`${table.panRegisteredName} is null or char_length(${table.panRegisteredName}) between 1 and 200`),
    check('kyc_records_pan_name_accepted_length', sql`${table.panNameAccepted} is null or char_length(${table.panNameAccepted}) between 1 and 100`),
    check('kyc_records_pan_score_range', sql`${table.panProviderNameScore} is null or ${table.panProviderNameScore} between 0 and 100`),
    check('kyc_records_pan_reference_length', sql`${table.panProviderReference} is null or char_length(${table.panProviderReference}) <= 100`),
    check('kyc_records_pan_rejection_length', sql`${table.panRejectionReason} is null or char_length(${table.panRejectionReason}) between 1 and 500`),
    check('kyc_records_tax_residence_valid', sql`${table.taxResidence} is null or ${table.taxResidence} in ('india', 'other')`),
    check(
      'kyc_records_tax_residence_country',
      sql`(${table.taxResidence} = 'other') = (${table.taxResidenceOtherCountry} is not null) and (${table.taxResidenceOtherCountry} is null or char_length(${table.taxResidenceOtherCountry}) between 2 and 60)`,
    ),
    check('kyc_records_tax_residence_declared', sql`(${table.taxResidence} is null) = (${table.taxResidenceDeclaredAt} is null)`),
    check(
      'kyc_records_frozen_reason',
      sql`(${table.frozenAt} is null) = (${table.frozenReason} is null) and (${table.frozenReason} is null or char_length(${table.frozenReason}) between 1 and 500)`,
    ),
    check('kyc_records_risk_category_valid', sql`${table.riskCategory} in ('low', 'medium', 'high')`),
    check(
      'kyc_records_level2_status_valid',
      sql`${table.level2Status} in ('none', 'pending_review', 'approved', 'rejected', 'resubmit_requested') and ((${table.level2Status} = 'none') = (${table.level2SubmissionId} is null))`,
    ),
  ],
);

/**
 * A KYC image (decision 050): the second document's sides and the selfie, re-encoded as JPEG without
 * metadata and encrypted with AES-256-GCM under its own data key, which is stored wrapped by the master
 * key (never in the database). `master_key_id` names the master key that wrapped it.
 */
export const kycImages = pgTable(
  'kyc_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    purpose: text('purpose').$type<'document_front' | 'document_back' | 'selfie' | 'pan_card'>().notNull(),
    contentType: text('content_type').notNull().default('image/jpeg'),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    masterKeyId: text('master_key_id').notNull(),
    /** The sealed image; all four are null once the image is purged after the retention (decision 060). */
    wrappedKey: bytea('wrapped_key'),
    contentIv: bytea('content_iv'),
    contentTag: bytea('content_tag'),
    content: bytea('content'),
    purgedAt: timestamp('purged_at', { withTimezone: true }),
    liveness: jsonb('liveness'),
    /** The liveness challenge token's id the selfie was accepted with (decision 052): unique, so a token serves one selfie. */
    livenessChallengeId: uuid('liveness_challenge_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('kyc_images_user_idx').on(table.userId, table.purpose, table.createdAt),
    uniqueIndex('kyc_images_liveness_challenge_unique')
      .on(table.livenessChallengeId)
      .where(sql`${table.livenessChallengeId} is not null`),
    check('kyc_images_purpose_valid', sql`${table.purpose} in ('document_front', 'document_back', 'selfie', 'pan_card')`),
    check('kyc_images_content_type_valid', sql`${table.contentType} = 'image/jpeg'`),
    check(
      'kyc_images_sealed_until_purged',
      sql`(${table.purgedAt} is null) = (${table.content} is not null) and (${table.purgedAt} is null) = (${table.wrappedKey} is not null) and (${table.purgedAt} is null) = (${table.contentIv} is not null) and (${table.purgedAt} is null) = (${table.contentTag} is not null)`,
    ),
    check(
      'kyc_images_size_range',
      sql`${table.sizeBytes} between 1 and 10485760 and ${table.width} between 1 and 10000 and ${table.height} between 1 and 10000`,
    ),
    check(
      'kyc_images_key_shapes',
      sql`octet_length(${table.contentIv}) = 12 and octet_length(${table.contentTag}) = 16 and octet_length(${table.wrappedKey}) = 60 and char_length(${table.masterKeyId}) = 16`,
    ),
  ],
);

/** A customer's level 2 submission (decision 050): the second document, the address, the images and where and when it was sent. */
export const kycLevel2Submissions = pgTable(
  'kyc_level2_submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    status: text('status').$type<'pending_review' | 'approved' | 'rejected' | 'resubmit_requested'>().notNull().default('pending_review'),
    documentType: text('document_type').$type<'passport' | 'driving_licence' | 'voter_id' | 'aadhaar_masked'>().notNull(),
    documentNumber: text('document_number').notNull(),
    documentName: text('document_name').notNull(),
    addressLine1: text('address_line1').notNull(),
    addressLine2: text('address_line2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    pinCode: text('pin_code').notNull(),
    frontImageId: uuid('front_image_id')
      .notNull()
      .references(() => kycImages.id),
    backImageId: uuid('back_image_id').references(() => kycImages.id),
    selfieImageId: uuid('selfie_image_id').references(() => kycImages.id),
    ipAddress: text('ip_address').notNull(),
    userAgent: text('user_agent'),
    geolocationStatus: text('geolocation_status').$type<'granted' | 'denied' | 'unavailable' | 'not_asked'>().notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    accuracyMeters: doublePrecision('accuracy_meters'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    rejectionReason: text('rejection_reason'),
    requestedAgain: text('requested_again').$type<'document_front' | 'document_back' | 'selfie' | 'address'>(),
  },
  (table) => [
    index('kyc_level2_submissions_user_idx').on(table.userId, table.submittedAt),
    index('kyc_level2_submissions_review_idx')
      .on(table.submittedAt)
      .where(sql`${table.status} = 'pending_review'`),
    check('kyc_level2_submissions_status_valid', sql`${table.status} in ('pending_review', 'approved', 'rejected', 'resubmit_requested')`),
    check('kyc_level2_submissions_document_type_valid', sql`${table.documentType} in ('passport', 'driving_licence', 'voter_id', 'aadhaar_masked')`),
    check(
      'kyc_level2_submissions_requested_again_valid',
      sql`${table.requestedAgain} is null or ${table.requestedAgain} in ('document_front', 'document_back', 'selfie', 'address')`,
    ),
    check('kyc_level2_submissions_reason_length', sql`${table.rejectionReason} is null or char_length(${table.rejectionReason}) between 1 and 500`),
  ],
);

/** A PAN that a second account submitted (refused) or that several accounts held before migration 0032: listed for admins. */
export const panConflicts = pgTable(
  'pan_conflicts',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    pan: text('pan').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    existingUserId: uuid('existing_user_id').references(() => users.id, { onDelete: 'set null' }),
    source: text('source').$type<'submission' | 'migration'>().notNull(),
    ipAddress: text('ip_address'),
    createdAt: createdAt(),
  },
  (table) => [
    index('pan_conflicts_created_idx').on(table.createdAt, table.id),
    check('pan_conflicts_source_valid', sql`${table.source} in ('submission', 'migration')`),
    check('pan_conflicts_pan_length', sql`char_length(${table.pan}) = 10`),
  ],
);

export const userPins = pgTable(
  'user_pins',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    pinHash: text('pin_hash').notNull(),
    failedAttempts: smallint('failed_attempts').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('user_pins_failed_attempts_range', sql`${table.failedAttempts} between 0 and 3`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: bytea('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    pinVerifiedAt: timestamp('pin_verified_at', { withTimezone: true }),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
  },
  (table) => [uniqueIndex('sessions_token_hash_unique').on(table.tokenHash), index('sessions_user_idx').on(table.userId)],
);

export const pinFailures = pgTable(
  'pin_failures',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('pin_failures_user_time_idx').on(table.userId, table.failedAt)],
);

export const pinResetTokens = pgTable(
  'pin_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: bytea('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('pin_reset_tokens_hash_unique').on(table.tokenHash), index('pin_reset_tokens_user_idx').on(table.userId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: bytea('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('password_reset_tokens_hash_unique').on(table.tokenHash), index('password_reset_tokens_user_idx').on(table.userId)],
);

/** E-mail verification links (issue 32): `verify` proves the account's address, `change` proves a new one before it replaces the old. SHA-256 only. */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: bytea('token_hash').notNull(),
    email: text('email').notNull(),
    purpose: text('purpose').$type<'verify' | 'change'>().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('email_verification_tokens_hash_unique').on(table.tokenHash),
    index('email_verification_tokens_user_idx').on(table.userId, table.createdAt),
    check('email_verification_tokens_purpose_valid', sql`${table.purpose} in ('verify', 'change')`),
    check('email_verification_tokens_email_length', sql`char_length(${table.email}) between 3 and 254`),
  ],
);

/** Mobile one-time codes (issue 32): salted SHA-256 only; closed when used, replaced, or after the fifth wrong entry. */
export const phoneVerificationCodes = pgTable(
  'phone_verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    codeSalt: bytea('code_salt').notNull(),
    codeHash: bytea('code_hash').notNull(),
    failedAttempts: smallint('failed_attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [
    index('phone_verification_codes_user_idx').on(table.userId, table.createdAt),
    index('phone_verification_codes_phone_idx').on(table.phone, table.createdAt),
    check('phone_verification_codes_failed_attempts_range', sql`${table.failedAttempts} between 0 and 5`),
    check('phone_verification_codes_phone_shape', sql`${table.phone} ~ '^\\+[0-9]{8,15}$'`),
  ],
);

/** Text messages: with no SMS_PROVIDER the body is kept here for the developer to read; sent through a provider, only its id is kept. */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toNumber: text('to_number').notNull(),
    provider: text('provider').$type<'outbox' | 'msg91' | 'twilio'>().notNull(),
    body: text('body'),
    providerMessageId: text('provider_message_id'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    delivered: boolean('delivered').notNull().default(false),
    lastError: text('last_error'),
  },
  (table) => [index('sms_outbox_created_idx').on(table.createdAt), check('sms_outbox_provider_valid', sql`${table.provider} in ('outbox', 'msg91', 'twilio')`)],
);

/** Where and when each account was opened (issue 32): address, browser, and the position when the customer allowed it. */
export const signupTrail = pgTable(
  'signup_trail',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    ipAddress: text('ip_address').notNull(),
    userAgent: text('user_agent'),
    signedUpAt: timestamp('signed_up_at', { withTimezone: true }).notNull().defaultNow(),
    geolocationStatus: text('geolocation_status').$type<'granted' | 'denied' | 'unavailable' | 'not_asked'>().notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    accuracyMeters: doublePrecision('accuracy_meters'),
  },
  (table) => [
    check('signup_trail_geolocation_status_valid', sql`${table.geolocationStatus} in ('granted', 'denied', 'unavailable', 'not_asked')`),
    check(
      'signup_trail_position_when_granted',
      sql`(${table.geolocationStatus} = 'granted') = (${table.latitude} is not null and ${table.longitude} is not null)`,
    ),
    check('signup_trail_latitude_range', sql`${table.latitude} is null or ${table.latitude} between -90 and 90`),
    check('signup_trail_longitude_range', sql`${table.longitude} is null or ${table.longitude} between -180 and 180`),
    check('signup_trail_user_agent_length', sql`char_length(${table.userAgent}) <= 512`),
  ],
);

export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountHolderName: text('account_holder_name').notNull(),
    accountNumber: text('account_number').notNull(),
    bankName: text('bank_name').notNull(),
    ifscCode: text('ifsc_code').notNull(),
    upiId: text('upi_id'),
    /** The IFSC's branch, from the IFSC API (decision 067); null while it is not known (the API not asked, unreachable or silent). */
    branchName: text('branch_name'),
    detailsChangedAt: timestamp('details_changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when a payout to the account failed for a reason of the account; cleared by the owner's edit (decision 044). */
    flaggedAt: timestamp('flagged_at', { withTimezone: true }),
    flagReason: text('flag_reason'),
    /**
     * What the payout provider's account validation (a penny drop) said of the current details (decision 054):
     * `verified` lifts the cooling-off; `name_mismatch`, `invalid`, `check_failed` and `rejected` keep withdrawals from it.
     */
    payeeCheck: text('payee_check').$type<PayeeCheck>().notNull().default('unchecked'),
    /** The validation of the current details; an edit of them points it at a new one. */
    validationId: uuid('validation_id').references((): AnyPgColumn => payeeValidations.id, { onDelete: 'set null' }),
    /** The admin who accepted a name that did not match (or a check that failed), and when. */
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** The admin who rejected it (decision 057), when and why; cleared with the check when its owner edits what the bank checks. */
    rejectedBy: uuid('rejected_by').references(() => users.id, { onDelete: 'set null' }),
    rejectedAt: timestamp('rejected_at', { withTimezone: true }),
    rejectionReason: text('rejection_reason'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('bank_accounts_user_idx').on(table.userId, table.createdAt),
    index('bank_accounts_review_idx')
      .on(table.updatedAt)
      .where(sql`${table.payeeCheck} in ('name_mismatch', 'check_failed', 'invalid')`),
    check(
      'bank_accounts_payee_check_valid',
      sql`${table.payeeCheck} in ('unchecked', 'checking', 'verified', 'name_mismatch', 'invalid', 'check_failed', 'accepted', 'rejected')`,
    ),
    check(
      'bank_accounts_rejection_consistent',
      sql`(${table.payeeCheck} = 'rejected') = (${table.rejectedAt} is not null) and (${table.rejectedAt} is null) = (${table.rejectionReason} is null) and (${table.rejectionReason} is null or char_length(${table.rejectionReason}) between 1 and 500)`,
    ),
    check('bank_accounts_holder_length', sql`char_length(${table.accountHolderName}) between 2 and 100`),
    check('bank_accounts_number_shape', sql`${table.accountNumber} ~ '^[0-9]{9,18}$'`),
    check('bank_accounts_bank_length', sql`char_length(${table.bankName}) between 2 and 100`),
    check('bank_accounts_ifsc_shape', sql`${table.ifscCode} ~ '^[A-Z]{4}0[A-Z0-9]{6}$'`),
    check(
      'bank_accounts_upi_shape',
      sql`${table.upiId} is null or (${table.upiId} ~ '^[A-Za-z0-9._-]{2,}@[A-Za-z][A-Za-z0-9.-]{1,63}$' and char_length(split_part(${table.upiId}, '@', 1)) <= 256)`,
    ),
    check(
      'bank_accounts_flag_consistent',
      sql`(${table.flaggedAt} is null) = (${table.flagReason} is null) and (${table.flagReason} is null or char_length(${table.flagReason}) between 1 and 200)`,
    ),
    check('bank_accounts_branch_length', sql`${table.branchName} is null or char_length(${table.branchName}) between 1 and 200`),
  ],
);

/**
 * What the IFSC API said of a code (decision 067), kept so each code is asked once: `found` false is its 404 (a code
 * the offline dataset knows and the API does not), with no branch. The offline dataset stays the validator.
 */
export const ifscBranches = pgTable(
  'ifsc_branches',
  {
    ifscCode: text('ifsc_code').primaryKey(),
    found: boolean('found').notNull(),
    branchName: text('branch_name'),
    city: text('city'),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('ifsc_branches_code_shape', sql`${table.ifscCode} ~ '^[A-Z]{4}0[A-Z0-9]{6}$'`),
    check('ifsc_branches_branch_length', sql`${table.branchName} is null or char_length(${table.branchName}) between 1 and 200`),
    check('ifsc_branches_city_length', sql`${table.city} is null or char_length(${table.city}) between 1 and 100`),
    check('ifsc_branches_found_has_branch', sql`${table.found} or (${table.branchName} is null and ${table.city} is null)`),
  ],
);

/**
 * Each account validation (penny drop) asked of the payout provider for a payee's details (decision 054): kept
 * after the payee is deleted, since each one costs the operator and the per-day limit counts them.
 */
export const payeeValidations = pgTable(
  'payee_validations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bankAccountId: uuid('bank_account_id').references((): AnyPgColumn => bankAccounts.id, { onDelete: 'set null' }),
    accountHolderName: text('account_holder_name').notNull(),
    accountNumber: text('account_number').notNull(),
    ifscCode: text('ifsc_code').notNull(),
    /** The UPI id this validation checks; null when it checks the bank account (decision 054). */
    vpa: text('vpa'),
    status: text('status').$type<PayeeValidationStatus>().notNull().default('queued'),
    providerValidationId: text('provider_validation_id'),
    accountStatus: text('account_status').$type<'active' | 'invalid'>(),
    registeredName: text('registered_name'),
    nameVerdict: text('name_verdict').$type<NameMatchVerdict>(),
    nameScore: integer('name_score'),
    failureReason: text('failure_reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('payee_validations_provider_id_unique')
      .on(table.providerValidationId)
      .where(sql`${table.providerValidationId} is not null`),
    index('payee_validations_user_idx').on(table.userId, table.createdAt),
    index('payee_validations_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} in ('queued', 'created')`),
    check('payee_validations_status_valid', sql`${table.status} in ('queued', 'created', 'completed', 'failed')`),
    check('payee_validations_account_status_valid', sql`${table.accountStatus} is null or ${table.accountStatus} in ('active', 'invalid')`),
    check('payee_validations_verdict_valid', sql`${table.nameVerdict} is null or ${table.nameVerdict} in ('match', 'partial', 'mismatch')`),
    check(
      'payee_validations_lengths',
      sql`char_length(${table.accountHolderName}) <= 100 and char_length(coalesce(${table.registeredName}, '')) <= 200 and char_length(coalesce(${table.failureReason}, '')) <= 500 and char_length(coalesce(${table.lastError}, '')) <= 500 and char_length(coalesce(${table.providerValidationId}, '')) <= 64`,
    ),
    check('payee_validations_vpa_length', sql`${table.vpa} is null or char_length(${table.vpa}) between 3 and 321`),
    check('payee_validations_final_has_time', sql`(${table.status} in ('completed', 'failed')) = (${table.completedAt} is not null)`),
  ],
);

const requestStatus = (name: string, column: { getSQL(): unknown }) => check(name, sql`${column} in ('pending', 'approved', 'rejected')`);

export const usdtDeposits = pgTable(
  'usdt_deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    network: text('network').$type<DepositNetwork>().notNull(),
    amountUsdtMicros: usdtMicros('amount_usdt_micros').notNull(),
    transactionHash: text('transaction_hash').notNull(),
    depositAddress: text('deposit_address').notNull(),
    status: text('status').$type<RequestStatus>().notNull().default('pending'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    rejectionReason: text('rejection_reason'),
    /** What the customer typed; amountUsdtMicros becomes the on-chain amount once the transfer is final. */
    typedAmountUsdtMicros: usdtMicros('typed_amount_usdt_micros'),
    source: text('source').$type<DepositSource>().notNull().default('customer'),
    chainState: text('chain_state').$type<ChainStateName>().notNull().default('unchecked'),
    chainProblem: text('chain_problem').$type<ChainProblem>(),
    chainAmountUsdtMicros: usdtMicros('chain_amount_usdt_micros'),
    chainFromAddress: text('chain_from_address'),
    chainToAddress: text('chain_to_address'),
    chainConfirmations: integer('chain_confirmations'),
    chainRequiredConfirmations: integer('chain_required_confirmations'),
    chainBlockNumber: bigint('chain_block_number', { mode: 'bigint' }),
    /** The transfer's position within its transaction (see decision 036): with network and hash, the credit key. */
    chainLogIndex: integer('chain_log_index'),
    /** The block the transfer was read in, to find the deposits a reorganisation touches. */
    chainBlockHash: text('chain_block_hash'),
    chainCheckedAt: timestamp('chain_checked_at', { withTimezone: true }),
    chainDelayed: boolean('chain_delayed').notNull().default(false),
    /** Whether the transfer's sender is a wallet this deposit's own customer proved; null until a transfer is read. */
    chainSenderProven: boolean('chain_sender_proven'),
    /** How many USDT transfers to the deposit address the transaction holds; null until it is read. */
    chainTransfersToAddress: integer('chain_transfers_to_address'),
  },
  (table) => [
    // A rejected claim releases its transfer (decision 037): neither key counts rejected rows.
    uniqueIndex('usdt_deposits_chain_log_unique')
      .on(table.network, table.transactionHash, table.chainLogIndex)
      .where(sql`${table.chainLogIndex} is not null and ${table.status} <> 'rejected'`),
    check('usdt_deposits_source_valid', sql`${table.source} in ('customer', 'detected')`),
    check('usdt_deposits_chain_state_valid', sql`${table.chainState} in ('unchecked', 'confirming', 'confirmed', 'not_found', 'mismatch', 'failed')`),
    check(
      'usdt_deposits_chain_problem_valid',
      sql`${table.chainProblem} is null or ${table.chainProblem} in ('wrong_recipient', 'wrong_token', 'below_minimum', 'other_network', 'sender_of_another_customer', 'amount_too_large', 'ambiguous', 'transfer_taken')`,
    ),
    check('usdt_deposits_chain_transfers_count', sql`${table.chainTransfersToAddress} is null or ${table.chainTransfersToAddress} between 0 and 10000`),
    check('usdt_deposits_chain_amount_positive', sql`${table.chainAmountUsdtMicros} is null or ${table.chainAmountUsdtMicros} > 0`),
    check('usdt_deposits_typed_amount_positive', sql`${table.typedAmountUsdtMicros} is null or ${table.typedAmountUsdtMicros} > 0`),
    // A customer submits a hash once; detection may record several deposits of one transaction, one per Transfer log.
    uniqueIndex('usdt_deposits_customer_hash_unique')
      .on(table.network, table.transactionHash)
      .where(sql`${table.source} = 'customer' and ${table.status} <> 'rejected'`),
    index('usdt_deposits_network_hash_idx').on(table.network, table.transactionHash),
    index('usdt_deposits_chain_block_idx')
      .on(table.network, table.chainBlockNumber)
      .where(sql`${table.chainLogIndex} is not null`),
    index('usdt_deposits_user_idx').on(table.userId, table.createdAt),
    // The SQL migration adds INCLUDE (amount_usdt_micros), which drizzle cannot express.
    index('usdt_deposits_user_pending_idx')
      .on(table.userId)
      .where(sql`${table.status} = 'pending'`),
    index('usdt_deposits_status_idx').on(table.status, table.createdAt),
    check('usdt_deposits_network_valid', sql`${table.network} in ('TRC20', 'ERC20')`),
    check('usdt_deposits_amount_positive', sql`${table.amountUsdtMicros} > 0`),
    requestStatus('usdt_deposits_status_valid', table.status),
    check(
      'usdt_deposits_hash_shape',
      sql`(${table.network} = 'TRC20' and ${table.transactionHash} ~ '^[0-9a-f]{64}$') or (${table.network} = 'ERC20' and ${table.transactionHash} ~ '^0x[0-9a-f]{64}$')`,
    ),
    check('usdt_deposits_decision_consistent', sql`(${table.status} = 'pending') = (${table.decidedAt} is null)`),
    check('usdt_deposits_reason_length', sql`${table.rejectionReason} is null or char_length(${table.rejectionReason}) <= 500`),
  ],
);

/**
 * A payout batch: the withdrawals put into one bank file. Open while any of them
 * is processing; cancelled returns them to pending (and clears their batch id).
 */
export const payoutBatches = pgTable(
  'payout_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    status: text('status').$type<'open' | 'cancelled'>().notNull().default('open'),
    withdrawalCount: integer('withdrawal_count').notNull(),
    totalInrPaise: bigint('total_inr_paise', { mode: 'bigint' }).notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The first download of the bank file issues it (decision 038): when, by whom, and the SHA-256 of the bytes given. */
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    issuedByUserId: uuid('issued_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    fileSha256: text('file_sha256'),
    /** The layout and debit account the file was issued in (decision 064), so later downloads have the same bytes. */
    fileFormat: text('file_format').$type<PayoutFileFormat>(),
    fileDebitAccountNumber: text('file_debit_account_number'),
  },
  (table) => [
    index('payout_batches_created_idx').on(table.createdAt, table.id),
    check('payout_batches_file_format_valid', sql`${table.fileFormat} is null or ${table.fileFormat} in ('generic', 'razorpayx_bulk', 'plural_bulk')`),
    check(
      'payout_batches_issued_consistent',
      sql`(${table.issuedAt} is null) = (${table.fileSha256} is null) and (${table.fileSha256} is null or ${table.fileSha256} ~ '^[0-9a-f]{64}$')`,
    ),
    check('payout_batches_status_valid', sql`${table.status} in ('open', 'cancelled')`),
    check('payout_batches_cancelled_at', sql`(${table.status} = 'cancelled') = (${table.cancelledAt} is not null)`),
    check('payout_batches_count_positive', sql`${table.withdrawalCount} > 0 and ${table.totalInrPaise} >= 0`),
  ],
);

/** Every download of a batch's bank file, the first (which issued it) included (decision 038). */
export const payoutBatchDownloads = pgTable(
  'payout_batch_downloads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    payoutBatchId: uuid('payout_batch_id')
      .notNull()
      .references(() => payoutBatches.id, { onDelete: 'restrict' }),
    downloadedByUserId: uuid('downloaded_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    downloadedAt: timestamp('downloaded_at', { withTimezone: true }).notNull().defaultNow(),
    fileSha256: text('file_sha256').notNull(),
  },
  (table) => [
    index('payout_batch_downloads_batch_idx').on(table.payoutBatchId, table.downloadedAt),
    check('payout_batch_downloads_sha256_shape', sql`${table.fileSha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

export const withdrawalRequests = pgTable(
  'withdrawal_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    bankAccountId: uuid('bank_account_id').references(() => bankAccounts.id, { onDelete: 'set null' }),
    // The bank details are copied at request time so that the payout goes where the customer asked,
    // even if the saved account is edited or deleted later.
    accountHolderName: text('account_holder_name').notNull(),
    accountNumber: text('account_number').notNull(),
    bankName: text('bank_name').notNull(),
    ifscCode: text('ifsc_code').notNull(),
    upiId: text('upi_id'),
    amountUsdtMicros: usdtMicros('amount_usdt_micros').notNull(),
    rateInrPaise: bigint('rate_inr_paise', { mode: 'bigint' }).notNull(),
    rateTier: text('rate_tier').$type<RateTier>().notNull(),
    amountInrPaise: bigint('amount_inr_paise', { mode: 'bigint' }).notNull(),
    status: text('status').$type<WithdrawalStatus>().notNull().default('pending'),
    createdAt: createdAt(),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    payoutReference: text('payout_reference'),
    rejectionReason: text('rejection_reason'),
    payoutBatchId: uuid('payout_batch_id').references(() => payoutBatches.id, { onDelete: 'restrict' }),
    /** TDS withheld from amountInrPaise (which stays gross); the payout is the difference. See docs/decisions/018. */
    tdsBasisPoints: integer('tds_basis_points').notNull().default(0),
    tdsInrPaise: bigint('tds_inr_paise', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** The customer's PAN when TDS was withheld, as the return reports it. */
    pan: text('pan'),
    /** The short reference (RD and 8 letters or digits) shown to people, in the bank file's narration and matched in its results (decision 038). */
    reference: text('reference')
      .notNull()
      .default(sql`withdrawal_short_reference()`),
    /** How it leaves: in a bank file, or through the payout provider; never both (decision 043). */
    payoutRoute: text('payout_route').$type<PayoutRoute>(),
    /** A paid withdrawal whose payment the bank returned afterwards; its USDT went back to the wallet. */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
  },
  (table) => [
    index('withdrawal_requests_payout_batch_idx').on(table.payoutBatchId),
    uniqueIndex('withdrawal_requests_reference_idx').on(table.reference),
    index('withdrawal_requests_payee_idx').on(table.accountNumber, table.ifscCode),
    uniqueIndex('withdrawal_requests_payout_reference_idx')
      .on(table.payoutReference)
      .where(sql`${table.payoutReference} is not null`),
    check('withdrawal_requests_reference_shape', sql`${table.reference} ~ '^[A-Z0-9]{6,20}$'`),
    index('withdrawal_requests_user_idx').on(table.userId, table.createdAt),
    // The SQL migration adds INCLUDE (amount_usdt_micros, amount_inr_paise).
    index('withdrawal_requests_user_pending_idx')
      .on(table.userId)
      .where(sql`${table.status} = 'pending'`),
    index('withdrawal_requests_status_idx').on(table.status, table.createdAt),
    index('withdrawal_requests_bank_account_idx').on(table.bankAccountId),
    check('withdrawal_requests_amount_positive', sql`${table.amountUsdtMicros} > 0 and ${table.amountInrPaise} >= 0`),
    check('withdrawal_requests_amount_cents', sql`${table.amountUsdtMicros} % 10000 = 0`),
    check('withdrawal_requests_rate_positive', sql`${table.rateInrPaise} > 0`),
    check('withdrawal_requests_rate_tier_valid', sql`${table.rateTier} in ('normal', 'vip')`),
    check('withdrawal_requests_status_valid', sql`${table.status} in ('pending', 'processing', 'approved', 'rejected', 'cancelled')`),
    check('withdrawal_requests_decision_consistent', sql`(${table.status} in ('pending', 'processing')) = (${table.decidedAt} is null)`),
    check(
      'withdrawal_requests_batch_consistent',
      sql`(${table.status} <> 'processing' or ${table.payoutBatchId} is not null or ${table.payoutRoute} in ('razorpayx', 'cashfree')) and (${table.status} <> 'pending' or ${table.payoutBatchId} is null)`,
    ),
    check('withdrawal_requests_payout_route_valid', sql`${table.payoutRoute} is null or ${table.payoutRoute} in ('bank_file', 'razorpayx', 'cashfree')`),
    check(
      'withdrawal_requests_provider_not_in_batch',
      sql`${table.payoutRoute} is null or ${table.payoutRoute} = 'bank_file' or ${table.payoutBatchId} is null`,
    ),
    check('withdrawal_requests_reversed_paid', sql`${table.reversedAt} is null or ${table.status} = 'approved'`),
    // The migration also adds the trigger withdrawal_requests_payout_route_kept.
    uniqueIndex('withdrawal_requests_id_route_idx').on(table.id, table.payoutRoute),
    index('withdrawal_requests_provider_processing_idx')
      .on(table.payoutRoute, table.createdAt)
      .where(sql`${table.status} = 'processing' and ${table.payoutRoute} in ('razorpayx', 'cashfree')`),
    check('withdrawal_requests_approved_at', sql`(${table.status} = 'approved') = (${table.approvedAt} is not null)`),
    check('withdrawal_requests_reference_length', sql`${table.payoutReference} is null or char_length(${table.payoutReference}) <= 64`),
    check('withdrawal_requests_reason_length', sql`${table.rejectionReason} is null or char_length(${table.rejectionReason}) <= 500`),
    index('withdrawal_requests_tds_idx')
      .on(table.createdAt)
      .where(sql`${table.tdsInrPaise} > 0`),
    check(
      'withdrawal_requests_tds_valid',
      sql`${table.tdsBasisPoints} between 0 and 3000 and ${table.tdsInrPaise} between 0 and ${table.amountInrPaise} and (${table.tdsBasisPoints} > 0 or ${table.tdsInrPaise} = 0) and (${table.tdsBasisPoints} = 0 or ${table.pan} is not null)`,
    ),
  ],
);

export const transfers = pgTable(
  'transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    senderUserId: uuid('sender_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    recipientUserId: uuid('recipient_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountUsdtMicros: usdtMicros('amount_usdt_micros').notNull(),
    status: text('status').$type<RequestStatus>().notNull().default('pending'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    rejectionReason: text('rejection_reason'),
  },
  (table) => [
    index('transfers_sender_idx').on(table.senderUserId, table.createdAt),
    // The SQL migration adds INCLUDE (amount_usdt_micros).
    index('transfers_sender_pending_idx')
      .on(table.senderUserId)
      .where(sql`${table.status} = 'pending'`),
    index('transfers_recipient_idx').on(table.recipientUserId, table.createdAt),
    index('transfers_status_idx').on(table.status, table.createdAt),
    check('transfers_amount_positive', sql`${table.amountUsdtMicros} > 0`),
    check('transfers_not_to_self', sql`${table.senderUserId} <> ${table.recipientUserId}`),
    requestStatus('transfers_status_valid', table.status),
    check('transfers_decision_consistent', sql`(${table.status} = 'pending') = (${table.decidedAt} is null)`),
    check('transfers_reason_length', sql`${table.rejectionReason} is null or char_length(${table.rejectionReason}) <= 500`),
  ],
);

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    kind: text('kind').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'restrict' }),
    balanceUsdtMicros: usdtMicros('balance_usdt_micros')
      .notNull()
      .default(sql`0`),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('ledger_accounts_wallet_unique').on(table.userId),
    uniqueIndex('ledger_accounts_house_unique')
      .on(table.kind)
      .where(sql`${table.userId} is null`),
    check(
      'ledger_accounts_kind_valid',
      sql`${table.kind} in ('customer_wallet', 'deposits_received', 'withdrawals_pending', 'withdrawals_paid', 'transfers_pending', 'referral_rewards')`,
    ),
    check('ledger_accounts_wallet_has_owner', sql`(${table.kind} = 'customer_wallet') = (${table.userId} is not null)`),
    check('ledger_accounts_wallet_not_negative', sql`${table.kind} <> 'customer_wallet' or ${table.balanceUsdtMicros} >= 0`),
  ],
);

export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    fromAccountId: bigint('from_account_id', { mode: 'bigint' })
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
    toAccountId: bigint('to_account_id', { mode: 'bigint' })
      .notNull()
      .references(() => ledgerAccounts.id, { onDelete: 'restrict' }),
    amountUsdtMicros: usdtMicros('amount_usdt_micros').notNull(),
    reason: text('reason').notNull(),
    referenceId: uuid('reference_id'),
    createdAt: createdAt(),
  },
  (table) => [
    index('ledger_transfers_from_idx').on(table.fromAccountId),
    index('ledger_transfers_to_idx').on(table.toAccountId),
    index('ledger_transfers_reference_idx').on(table.referenceId),
    check('ledger_transfers_amount_positive', sql`${table.amountUsdtMicros} > 0`),
    check('ledger_transfers_distinct_accounts', sql`${table.fromAccountId} <> ${table.toAccountId}`),
    check(
      'ledger_transfers_reason_valid',
      sql`${table.reason} in ('deposit_credit', 'withdrawal_hold', 'withdrawal_payout', 'withdrawal_refund', 'transfer_hold', 'transfer_credit', 'transfer_refund', 'referral_reward', 'withdrawal_reversal', 'deposit_reversal', 'referral_reward_reversal')`,
    ),
  ],
);

export const referralRewards = pgTable(
  'referral_rewards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referrerUserId: uuid('referrer_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    referredUserId: uuid('referred_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    depositId: uuid('deposit_id')
      .notNull()
      .references(() => usdtDeposits.id, { onDelete: 'restrict' }),
    level: smallint('level').notNull(),
    rewardUsdtMicros: usdtMicros('reward_usdt_micros').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('referral_rewards_deposit_level_unique').on(table.depositId, table.level),
    index('referral_rewards_referrer_idx').on(table.referrerUserId, table.createdAt),
    check('referral_rewards_level_valid', sql`${table.level} in (1, 2)`),
    check('referral_rewards_amount_positive', sql`${table.rewardUsdtMicros} > 0`),
  ],
);

/** A referral reward taken back because its deposit vanished from the chain (decision 049): one per reward. */
export const referralRewardReversals = pgTable(
  'referral_reward_reversals',
  {
    rewardId: uuid('reward_id')
      .primaryKey()
      .references(() => referralRewards.id, { onDelete: 'restrict' }),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => chainIncidents.id, { onDelete: 'restrict' }),
    /** What came back from the referrer's wallet to the house account. */
    takenBackUsdtMicros: usdtMicros('taken_back_usdt_micros').notNull(),
    /** What the referrer had already spent: the operator's loss. */
    writtenOffUsdtMicros: usdtMicros('written_off_usdt_micros').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check(
      'referral_reward_reversals_amounts_valid',
      sql`${table.takenBackUsdtMicros} >= 0 and ${table.writtenOffUsdtMicros} >= 0 and ${table.takenBackUsdtMicros} + ${table.writtenOffUsdtMicros} > 0`,
    ),
  ],
);

export const storedFiles = pgTable(
  'stored_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose').$type<FilePurpose>().notNull(),
    originalName: text('original_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedByUserId: uuid('uploaded_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** What a QR image was read to show when it was uploaded: the deposit address it was checked against (decision 023). */
    qrContent: text('qr_content'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('stored_files_storage_key_unique').on(table.storageKey),
    check('stored_files_qr_content_length', sql`char_length(${table.qrContent}) <= 128`),
    check('stored_files_purpose_valid', sql`${table.purpose} in ('qr_trc20', 'qr_erc20', 'apk')`),
    check('stored_files_size_positive', sql`${table.sizeBytes} > 0`),
    check('stored_files_name_length', sql`char_length(${table.originalName}) between 1 and 255`),
  ],
);

/** The bytes of uploaded files, in chunks (see features/files/storage.ts); keyed like stored_files.storage_key. */
export const storedFileChunks = pgTable(
  'stored_file_chunks',
  {
    storageKey: text('storage_key').notNull(),
    chunkIndex: integer('chunk_index').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ name: 'stored_file_chunks_pk', columns: [table.storageKey, table.chunkIndex] }),
    check('stored_file_chunks_index_valid', sql`${table.chunkIndex} >= 0`),
    check('stored_file_chunks_size_valid', sql`octet_length(${table.bytes}) between 1 and 1048576`),
    check('stored_file_chunks_key_length', sql`char_length(${table.storageKey}) between 1 and 200`),
  ],
);

export const adminSettings = pgTable(
  'admin_settings',
  {
    id: smallint('id').primaryKey().default(1),
    rateNormalInrPaise: bigint('rate_normal_inr_paise', { mode: 'bigint' })
      .notNull()
      .default(sql`8300`),
    rateVipInrPaise: bigint('rate_vip_inr_paise', { mode: 'bigint' })
      .notNull()
      .default(sql`8325`),
    trc20Address: text('trc20_address').notNull().default(''),
    erc20Address: text('erc20_address').notNull().default(''),
    trc20QrFileId: uuid('trc20_qr_file_id').references(() => storedFiles.id, { onDelete: 'set null' }),
    erc20QrFileId: uuid('erc20_qr_file_id').references(() => storedFiles.id, { onDelete: 'set null' }),
    apkFileId: uuid('apk_file_id').references(() => storedFiles.id, { onDelete: 'set null' }),
    whatsappSupportNumber: text('whatsapp_support_number').notNull().default(''),
    websiteUrl: text('website_url').notNull().default(''),
    minDepositUsdtMicros: usdtMicros('min_deposit_usdt_micros')
      .notNull()
      .default(sql`10000000`),
    /** Approving a withdrawal worth more than this needs a second admin while two or more admins exist (decision 017). */
    largeWithdrawalInrPaise: bigint('large_withdrawal_inr_paise', { mode: 'bigint' })
      .notNull()
      .default(sql`20000000`),
    // Withdrawal limits (null: no limit) and the TDS rate; see docs/decisions/018.
    withdrawalDailyLimitNormalUsdtMicros: usdtMicros('withdrawal_daily_limit_normal_usdt_micros'),
    withdrawalMonthlyLimitNormalUsdtMicros: usdtMicros('withdrawal_monthly_limit_normal_usdt_micros'),
    withdrawalDailyLimitVipUsdtMicros: usdtMicros('withdrawal_daily_limit_vip_usdt_micros'),
    withdrawalMonthlyLimitVipUsdtMicros: usdtMicros('withdrawal_monthly_limit_vip_usdt_micros'),
    withdrawalMinUsdtMicros: usdtMicros('withdrawal_min_usdt_micros'),
    withdrawalMaxUsdtMicros: usdtMicros('withdrawal_max_usdt_micros'),
    tdsBasisPoints: integer('tds_basis_points').notNull().default(0),
    /** KYC level limits in INR (null: none of the level; the tier's limits apply within them); decision 042. */
    kycLevel1DailyLimitInrPaise: bigint('kyc_level1_daily_limit_inr_paise', { mode: 'bigint' }),
    kycLevel1MonthlyLimitInrPaise: bigint('kyc_level1_monthly_limit_inr_paise', { mode: 'bigint' }),
    kycLevel2DailyLimitInrPaise: bigint('kyc_level2_daily_limit_inr_paise', { mode: 'bigint' }),
    kycLevel2MonthlyLimitInrPaise: bigint('kyc_level2_monthly_limit_inr_paise', { mode: 'bigint' }),
    /** The TDS rate when the PAN is inoperative (section 206AA: 20 %). */
    tdsNoPanBasisPoints: integer('tds_no_pan_basis_points').notNull().default(2000),
    /** Months between KYC refreshes: high-risk customers, and the others (decision 047). */
    kycRefreshMonthsHighRisk: smallint('kyc_refresh_months_high_risk').notNull().default(6),
    kycRefreshMonthsOther: smallint('kyc_refresh_months_other').notNull().default(12),
    /** Years a closed account's KYC records are kept (decision 060): never below FIU-IND's 5. */
    recordRetentionYears: smallint('record_retention_years').notNull().default(5),
    /** The operator's identity and grievance officer (issues 32 and 33); empty until an admin fills them in. */
    operatorLegalName: text('operator_legal_name').notNull().default(''),
    operatorAddress: text('operator_address').notNull().default(''),
    operatorRegistration: text('operator_registration').notNull().default(''),
    grievanceOfficerName: text('grievance_officer_name').notNull().default(''),
    grievanceOfficerEmail: text('grievance_officer_email').notNull().default(''),
    grievanceOfficerPhone: text('grievance_officer_phone').notNull().default(''),
    /** The layout of payout batches' bank files and the account it debits (decision 064). */
    payoutFileFormat: text('payout_file_format').$type<PayoutFileFormat>().notNull().default('generic'),
    payoutFileDebitAccountNumber: text('payout_file_debit_account_number').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedByUserId: uuid('updated_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    check('admin_settings_single_row', sql`${table.id} = 1`),
    check('admin_settings_rates_positive', sql`${table.rateNormalInrPaise} > 0 and ${table.rateVipInrPaise} > 0`),
    check('admin_settings_min_deposit_positive', sql`${table.minDepositUsdtMicros} > 0`),
    check('admin_settings_large_withdrawal_positive', sql`${table.largeWithdrawalInrPaise} > 0`),
    check('admin_settings_tds_range', sql`${table.tdsBasisPoints} between 0 and 3000`),
    check(
      'admin_settings_kyc_limits_positive',
      sql`coalesce(${table.kycLevel1DailyLimitInrPaise}, 1) > 0 and coalesce(${table.kycLevel1MonthlyLimitInrPaise}, 1) > 0 and coalesce(${table.kycLevel2DailyLimitInrPaise}, 1) > 0 and coalesce(${table.kycLevel2MonthlyLimitInrPaise}, 1) > 0`,
    ),
    check('admin_settings_tds_no_pan_range', sql`${table.tdsNoPanBasisPoints} between 0 and 3000`),
    check(
      'admin_settings_kyc_refresh_months_range',
      sql`${table.kycRefreshMonthsHighRisk} between 1 and 12 and ${table.kycRefreshMonthsOther} between 1 and 12`,
    ),
    check('admin_settings_record_retention_years_range', sql`${table.recordRetentionYears} between 5 and 50`),
    check(
      'admin_settings_operator_identity_lengths',
      sql`char_length(${table.operatorLegalName}) <= 200 and char_length(${table.operatorAddress}) <= 500 and char_length(${table.operatorRegistration}) <= 100 and char_length(${table.grievanceOfficerName}) <= 200 and char_length(${table.grievanceOfficerEmail}) <= 254 and char_length(${table.grievanceOfficerPhone}) <= 20`,
    ),
    check(
      'admin_settings_payout_file_valid',
      sql`${table.payoutFileFormat} in ('generic', 'razorpayx_bulk', 'plural_bulk') and char_length(${table.payoutFileDebitAccountNumber}) <= 22`,
    ),
  ],
);

export const adminSettingsHistory = pgTable('admin_settings_history', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  changedByUserId: uuid('changed_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  before: jsonb('before').notNull(),
  after: jsonb('after').notNull(),
  createdAt: createdAt(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    before: jsonb('before'),
    after: jsonb('after'),
    ipAddress: text('ip_address'),
    createdAt: createdAt(),
  },
  (table) => [
    index('audit_log_created_idx').on(table.createdAt, table.id),
    index('audit_log_action_idx').on(table.action, table.createdAt),
    index('audit_log_target_user_idx').on(table.targetUserId, table.createdAt),
    index('audit_log_actor_user_idx').on(table.actorUserId, table.createdAt),
  ],
);

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    delivered: boolean('delivered').notNull().default(false),
  },
  (table) => [
    index('mail_outbox_pending_idx')
      .on(table.createdAt)
      .where(sql`not ${table.delivered}`),
  ],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: smallint('response_status').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] })],
);

/** Attempts counted per key and window. Unlogged (migration 0021, decision 027): emptied by a crash, its writes wait for no disk flush. */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});

/** Past an account's ceiling of wrong passwords, when the last password check claimed for it may run (decision 026). Unlogged, as rate_limit_buckets. */
export const rateLimitSlots = pgTable('rate_limit_slots', {
  key: text('key').primaryKey(),
  nextCheckAt: timestamp('next_check_at', { withTimezone: true }).notNull(),
});

/** Browsers that signed in to an account before: they skip the queue of password checks past its ceiling (decision 026). */
export const knownDevices = pgTable(
  'known_devices',
  {
    tokenHash: bytea('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSignedInAt: timestamp('last_signed_in_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.tokenHash, table.userId] }), index('known_devices_user_id_index').on(table.userId)],
);

export const customerWallets = pgTable(
  'customer_wallets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    network: text('network').$type<DepositNetwork>().notNull(),
    /** As the customer gave it (EIP-55 mixed case on Ethereum); addressKey is the form compared. */
    address: text('address').notNull(),
    addressKey: text('address_key').notNull(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('customer_wallets_address_unique').on(table.network, table.addressKey),
    index('customer_wallets_user_idx').on(table.userId, table.verifiedAt),
    check('customer_wallets_network_valid', sql`${table.network} in ('TRC20', 'ERC20')`),
    check('customer_wallets_address_length', sql`char_length(${table.address}) between 20 and 64`),
  ],
);

export const walletChallenges = pgTable(
  'wallet_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    network: text('network').$type<DepositNetwork>().notNull(),
    addressKey: text('address_key').notNull(),
    message: text('message').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('wallet_challenges_user_idx').on(table.userId, table.network, table.addressKey, table.createdAt),
    check('wallet_challenges_network_valid', sql`${table.network} in ('TRC20', 'ERC20')`),
    check('wallet_challenges_message_length', sql`char_length(${table.message}) <= 1000`),
  ],
);

export const chainJobs = pgTable(
  'chain_jobs',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    kind: text('kind').$type<'verify_deposit' | 'scan_network'>().notNull(),
    depositId: uuid('deposit_id').references(() => usdtDeposits.id, { onDelete: 'cascade' }),
    network: text('network').$type<DepositNetwork>().notNull(),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    failures: integer('failures').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('chain_jobs_deposit_unique')
      .on(table.depositId)
      .where(sql`${table.depositId} is not null`),
    uniqueIndex('chain_jobs_scan_unique')
      .on(table.network)
      .where(sql`${table.kind} = 'scan_network'`),
    index('chain_jobs_due_idx')
      .on(table.runAfter)
      .where(sql`${table.finishedAt} is null`),
    check('chain_jobs_kind_valid', sql`${table.kind} in ('verify_deposit', 'scan_network')`),
    check('chain_jobs_network_valid', sql`${table.network} in ('TRC20', 'ERC20')`),
    check('chain_jobs_shape', sql`(${table.kind} = 'verify_deposit') = (${table.depositId} is not null)`),
  ],
);

export const chainScanCursors = pgTable(
  'chain_scan_cursors',
  {
    network: text('network').$type<DepositNetwork>().notNull(),
    depositAddress: text('deposit_address').notNull(),
    /** A block number on Ethereum, a block timestamp in milliseconds on TRON. */
    scannedThrough: bigint('scanned_through', { mode: 'bigint' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.network, table.depositAddress] })],
);

/** The blocks the chain follower read, a window back from its cursor (the newest row); see decision 036. */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    network: text('network').$type<DepositNetwork>().notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    blockHash: text('block_hash').notNull(),
    /** Unknown for a block seen only through its logs. */
    parentHash: text('parent_hash'),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'chain_blocks_pkey', columns: [table.network, table.blockNumber] }),
    check('chain_blocks_network_valid', sql`${table.network} in ('TRC20', 'ERC20')`),
  ],
);

/** A credited deposit whose transfer a reorganisation removed: the customer's withdrawals may not spend it while open. */
export const chainIncidents = pgTable(
  'chain_incidents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    depositId: uuid('deposit_id')
      .notNull()
      .references(() => usdtDeposits.id, { onDelete: 'restrict' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    network: text('network').$type<DepositNetwork>().notNull(),
    transactionHash: text('transaction_hash').notNull(),
    amountUsdtMicros: usdtMicros('amount_usdt_micros').notNull(),
    kind: text('kind').$type<'transfer_vanished'>().notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolution: text('resolution').$type<ChainIncidentResolution>(),
    /** The admin whose settlement applied (the confirming one while two admins exist); null when the chain itself closed it. */
    resolvedByUserId: uuid('resolved_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    resolutionReason: text('resolution_reason'),
  },
  (table) => [
    uniqueIndex('chain_incidents_open_deposit_unique')
      .on(table.depositId)
      .where(sql`${table.resolvedAt} is null`),
    index('chain_incidents_open_user_idx')
      .on(table.userId)
      .where(sql`${table.resolvedAt} is null`),
    check('chain_incidents_kind_valid', sql`${table.kind} in ('transfer_vanished')`),
    check('chain_incidents_amount_positive', sql`${table.amountUsdtMicros} > 0`),
    check(
      'chain_incidents_resolution_valid',
      sql`(${table.resolvedAt} is null) = (${table.resolution} is null) and (${table.resolution} is null or ${table.resolution} in ('reincluded', 'debited', 'written_off'))`,
    ),
    check('chain_incidents_reason_length', sql`${table.resolutionReason} is null or char_length(${table.resolutionReason}) between 1 and 500`),
  ],
);

/** What a customer is told about their money: shown in the app, and e-mailed unless they turned that kind off. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NotificationKind>().notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link'),
    emailSubject: text('email_subject').notNull(),
    emailText: text('email_text').notNull(),
    emailState: text('email_state').$type<'pending' | 'sent' | 'skipped' | 'failed'>().notNull().default('pending'),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (table) => [
    index('notifications_user_idx').on(table.userId, table.createdAt),
    index('notifications_unread_idx')
      .on(table.userId)
      .where(sql`${table.readAt} is null`),
    index('notifications_email_pending_idx')
      .on(table.createdAt)
      .where(sql`${table.emailState} = 'pending'`),
    check(
      'notifications_kind_valid',
      sql`${table.kind} in ('deposit_credited', 'deposit_rejected', 'withdrawal_paid', 'withdrawal_rejected', 'transfer_approved', 'transfer_rejected', 'transfer_received', 'deposit_incident', 'withdrawal_cancelled', 'kyc_required', 'kyc_updated', 'payout_stuck', 'withdrawal_payee_blocked', 'closed_account_money')`,
    ),
    check('notifications_email_state_valid', sql`${table.emailState} in ('pending', 'sent', 'skipped', 'failed')`),
    check('notifications_title_length', sql`char_length(${table.title}) <= 200`),
    check('notifications_body_length', sql`char_length(${table.body}) <= 2000`),
  ],
);

/** Which notification e-mails a customer wants; no row means all of them. Security e-mails are not listed: they always go. */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailDeposits: boolean('email_deposits').notNull().default(true),
  emailWithdrawals: boolean('email_withdrawals').notNull().default(true),
  emailTransfers: boolean('email_transfers').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
/**
 * Running totals kept by triggers (migrations 0006 and 0011) in the same transaction as the rows they count:
 * the number of users, the pending deposits, withdrawals and transfers with their sums, the withdrawals in a
 * payout batch (processing), and the customers' wallets added up (customer_balances, kept at commit).
 */
export const summaryTotals = pgTable(
  'summary_totals',
  {
    name: text('name').primaryKey(),
    itemCount: bigint('item_count', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    amountUsdtMicros: usdtMicros('amount_usdt_micros')
      .notNull()
      .default(sql`0`),
    amountInrPaise: bigint('amount_inr_paise', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
  },
  (table) => [
    check(
      'summary_totals_name_valid',
      sql`${table.name} in ('users', 'pending_deposits', 'pending_withdrawals', 'processing_withdrawals', 'pending_transfers', 'customer_balances')`,
    ),
    check('summary_totals_not_negative', sql`${table.itemCount} >= 0 and ${table.amountUsdtMicros} >= 0 and ${table.amountInrPaise} >= 0`),
  ],
);

/**
 * What was paid out (withdrawals approved) and credited (deposits approved) per day in India time, added by
 * triggers (migration 0011) when a request becomes approved, for the dashboard's figures of today.
 */
export const dailyTotals = pgTable(
  'daily_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    name: text('name').$type<'withdrawals_paid' | 'deposits_credited'>().notNull(),
    itemCount: bigint('item_count', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    amountUsdtMicros: usdtMicros('amount_usdt_micros')
      .notNull()
      .default(sql`0`),
    amountInrPaise: bigint('amount_inr_paise', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
  },
  (table) => [
    primaryKey({ name: 'daily_totals_pk', columns: [table.day, table.name] }),
    check('daily_totals_name_valid', sql`${table.name} in ('withdrawals_paid', 'deposits_credited')`),
    check('daily_totals_not_negative', sql`${table.itemCount} >= 0 and ${table.amountUsdtMicros} >= 0 and ${table.amountInrPaise} >= 0`),
  ],
);

/**
 * The admin user list's copy of each user's sign-up time, name, e-mail and phone, kept by triggers
 * (migration 0006) in the same transaction as users and profiles, so that the list and its substring
 * search read one table with trigram indexes. Answers still come from users and profiles.
 */
export const userSearch = pgTable(
  'user_search',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    /** lower(name), a unit separator, lower(email): what the search compares with LIKE (migration 0017). */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`lower(name) || chr(31) || lower(email)`),
  },
  (table) => [
    // The SQL migration adds INCLUDE (search_text, phone), which drizzle cannot express.
    index('user_search_created_idx').on(table.createdAt, table.userId),
    index('user_search_text_trigram_idx').using('gin', table.searchText.op('gin_trgm_ops')),
    index('user_search_phone_trigram_idx').using('gin', table.phone.op('gin_trgm_ops')),
  ],
);

/** Changes that wait for a second admin (decision 017): a deposit address change, a large withdrawal's first approval. */
export const pendingChanges = pgTable(
  'pending_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<PendingChangeKind>().notNull(),
    /** What the change is about: the network of an address change, the withdrawal's id for a first approval. */
    subject: text('subject').notNull(),
    payload: jsonb('payload').notNull(),
    requestedByUserId: uuid('requested_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    status: text('status').$type<PendingChangeStatus>().notNull().default('open'),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('pending_changes_one_open_idx')
      .on(table.kind, table.subject)
      .where(sql`${table.status} = 'open'`),
    index('pending_changes_requested_idx').on(table.requestedAt, table.id),
    check(
      'pending_changes_kind_valid',
      sql`${table.kind} in ('deposit_address', 'large_withdrawal_approval', 'admin_role_grant', 'admin_role_removal', 'exchange_rates', 'large_withdrawal_limit', 'app_file', 'deposit_override', 'unclaimed_transfer_assignment', 'payout_batch_cancel', 'chain_incident_settlement', 'deposit_xpub', 'account_unfreeze', 'kyc_level2_approval', 'payee_acceptance', 'payee_rejection')`,
    ),
    check('pending_changes_status_valid', sql`${table.status} in ('open', 'confirmed', 'discarded')`),
    check('pending_changes_decision_consistent', sql`(${table.status} = 'open') = (${table.decidedAt} is null)`),
    check('pending_changes_subject_length', sql`char_length(${table.subject}) between 1 and 64`),
  ],
);

/** A network's account-level extended public key set in the admin settings (decision 045); the environment's wins where set. */
export const depositExtendedKeys = pgTable(
  'deposit_extended_keys',
  {
    network: text('network').$type<DepositNetwork>().primaryKey(),
    extendedPublicKey: text('extended_public_key').notNull(),
    setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
    setByUserId: uuid('set_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    check('deposit_extended_keys_network_valid', sql`${table.network} in ('TRC20', 'ERC20')`),
    check('deposit_extended_keys_key_shape', sql`${table.extendedPublicKey} ~ '^xpub[1-9A-HJ-NP-Za-km-z]{100,116}$'`),
  ],
);

/**
 * A customer's own deposit address on one network, derived watch-only from the operator's extended
 * public key at .../0/addressIndex. ERC20 addresses are stored lower-case, TRC20 in base58check.
 * Rows are permanent: a trigger (migration 0026) refuses UPDATE, DELETE and TRUNCATE, so an address is
 * never reassigned and an index never handed out again (docs/decisions/035).
 */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    network: text('network').$type<DepositNetwork>().notNull(),
    addressIndex: integer('address_index').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    extendedPublicKey: text('extended_public_key').notNull(),
    address: text('address').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ name: 'deposit_addresses_pkey', columns: [table.network, table.extendedPublicKey, table.addressIndex] }),
    uniqueIndex('deposit_addresses_address_unique').on(table.network, table.address),
    uniqueIndex('deposit_addresses_user_key_unique').on(table.network, table.extendedPublicKey, table.userId),
    check('deposit_addresses_network_valid', sql`${table.network} in ('TRC20', 'ERC20')`),
    check('deposit_addresses_index_range', sql`${table.addressIndex} >= 0`),
  ],
);

/**
 * A USDT transfer to the shared deposit address from a sender no customer proved, that no claim
 * names (decision 037): listed for admins, who match it to a customer's message and assign it.
 */
export const unclaimedTransfers = pgTable(
  'unclaimed_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    network: text('network').$type<DepositNetwork>().notNull(),
    transactionHash: text('transaction_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amountUsdtMicros: usdtMicros('amount_usdt_micros').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    /** open: nobody's yet (a customer's claim of its hash hides it from the list); assigned: an admin gave it to a customer. */
    status: text('status').$type<'open' | 'assigned'>().notNull().default('open'),
    depositId: uuid('deposit_id').references(() => usdtDeposits.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('unclaimed_transfers_log_unique').on(table.network, table.transactionHash, table.logIndex),
    index('unclaimed_transfers_open_idx')
      .on(table.createdAt, table.id)
      .where(sql`${table.status} = 'open'`),
    check('unclaimed_transfers_network_valid', sql`${table.network} in ('TRC20', 'ERC20')`),
    check('unclaimed_transfers_status_valid', sql`${table.status} in ('open', 'assigned')`),
    check('unclaimed_transfers_amount_positive', sql`${table.amountUsdtMicros} > 0`),
    check('unclaimed_transfers_resolution', sql`(${table.status} = 'open') = (${table.resolvedAt} is null)`),
  ],
);

/**
 * A withdrawal handed to the payout provider (decision 043): one row per withdrawal, so one provider payout per
 * withdrawal, sent with one idempotency key that never changes. Its foreign key with the route keeps it to
 * withdrawals routed to the provider, and the route from changing while it exists.
 */
export const providerPayouts = pgTable(
  'provider_payouts',
  {
    withdrawalId: uuid('withdrawal_id').primaryKey(),
    /** The provider the withdrawal was handed to (decision 062); the default is kept for rows made before Cashfree. */
    payoutRoute: text('payout_route').$type<PayoutProviderName>().notNull().default('razorpayx'),
    idempotencyKey: text('idempotency_key').notNull(),
    amountInrPaise: bigint('amount_inr_paise', { mode: 'bigint' }).notNull(),
    mode: text('mode').$type<'IMPS' | 'UPI' | 'NEFT'>().notNull(),
    providerPayoutId: text('provider_payout_id'),
    state: text('state').$type<ProviderPayoutState | 'unsent'>().notNull().default('unsent'),
    utr: text('utr'),
    statusReason: text('status_reason'),
    statusDescription: text('status_description'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /** When `last_error` was last recorded (issue 31): admins read the attempts, the error and when. */
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /**
     * When the withdrawal was marked paid or refunded from this payout's state; the worker asks no more after, except
     * about a processed payout for a while, to find a reversal whose webhook was lost (decision 053).
     */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** When admins were told this payout is stuck (decision 049): once, not at every poll. */
    stuckAlertedAt: timestamp('stuck_alerted_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    foreignKey({
      name: 'provider_payouts_withdrawal_route_fk',
      columns: [table.withdrawalId, table.payoutRoute],
      foreignColumns: [withdrawalRequests.id, withdrawalRequests.payoutRoute],
    })
      .onDelete('restrict')
      .onUpdate('restrict'),
    uniqueIndex('provider_payouts_key_idx').on(table.idempotencyKey),
    uniqueIndex('provider_payouts_provider_id_idx')
      .on(table.providerPayoutId)
      .where(sql`${table.providerPayoutId} is not null`),
    index('provider_payouts_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.settledAt} is null`),
    index('provider_payouts_reversal_watch_idx')
      .on(table.settledAt)
      .where(sql`${table.state} = 'processed'`),
    check('provider_payouts_route_valid', sql`${table.payoutRoute} in ('razorpayx', 'cashfree')`),
    check('provider_payouts_key_shape', sql`${table.idempotencyKey} ~ '^[A-Za-z0-9_ -]{4,36}$'`),
    check('provider_payouts_amount_positive', sql`${table.amountInrPaise} >= 100`),
    check('provider_payouts_mode_valid', sql`${table.mode} in ('IMPS', 'UPI', 'NEFT')`),
    check(
      'provider_payouts_state_valid',
      sql`${table.state} in ('unsent', 'queued', 'pending', 'processing', 'processed', 'reversed', 'cancelled', 'rejected', 'failed')`,
    ),
    check('provider_payouts_sent_has_id', sql`${table.state} in ('unsent', 'failed') or ${table.providerPayoutId} is not null`),
    check('provider_payouts_id_length', sql`${table.providerPayoutId} is null or char_length(${table.providerPayoutId}) <= 64`),
    check('provider_payouts_utr_length', sql`${table.utr} is null or char_length(${table.utr}) <= 64`),
    check(
      'provider_payouts_reason_length',
      sql`(${table.statusReason} is null or char_length(${table.statusReason}) <= 100) and (${table.statusDescription} is null or char_length(${table.statusDescription}) <= 500)`,
    ),
    check('provider_payouts_error_length', sql`${table.lastError} is null or char_length(${table.lastError}) <= 500`),
  ],
);

/** The provider's states of one payout as they came (decision 043), for the withdrawal's timeline. */
export const providerPayoutEvents = pgTable(
  'provider_payout_events',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    withdrawalId: uuid('withdrawal_id')
      .notNull()
      .references(() => providerPayouts.withdrawalId, { onDelete: 'cascade' }),
    state: text('state').$type<ProviderPayoutState>().notNull(),
    utr: text('utr'),
    reason: text('reason'),
    source: text('source').$type<'send' | 'webhook' | 'poll'>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('provider_payout_events_withdrawal_idx').on(table.withdrawalId, table.id),
    check(
      'provider_payout_events_state_valid',
      sql`${table.state} in ('queued', 'pending', 'processing', 'processed', 'reversed', 'cancelled', 'rejected', 'failed')`,
    ),
    check('provider_payout_events_source_valid', sql`${table.source} in ('send', 'webhook', 'poll')`),
    check(
      'provider_payout_events_lengths',
      sql`(${table.utr} is null or char_length(${table.utr}) <= 64) and (${table.reason} is null or char_length(${table.reason}) <= 500)`,
    ),
  ],
);

/** Webhook deliveries already applied, by the provider's event id: a redelivery changes nothing. */
export const providerWebhookEvents = pgTable(
  'provider_webhook_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    event: text('event').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'provider_webhook_events_pkey', columns: [table.provider, table.eventId] }),
    index('provider_webhook_events_received_idx').on(table.receivedAt),
    check('provider_webhook_events_lengths', sql`char_length(${table.eventId}) <= 100 and char_length(${table.event}) <= 100`),
  ],
);

/** USDT moved out of a customer's deposit address or the shared address, read by the chain follower in final blocks (decision 045). */
export const usdtSweeps = pgTable(
  'usdt_sweeps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    network: text('network').$type<DepositNetwork>().notNull(),
    transactionHash: text('transaction_hash').notNull(),
    logIndex: integer('log_index').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amountUsdtMicros: usdtMicros('amount_usdt_micros').notNull(),
    blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
    /** The customer whose deposit address it left; null for the shared address. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'restrict' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('usdt_sweeps_transfer_unique').on(table.network, table.transactionHash, table.logIndex),
    index('usdt_sweeps_from_idx').on(table.network, table.fromAddress),
    index('usdt_sweeps_block_idx').on(table.network, table.blockNumber),
    check('usdt_sweeps_network_valid', sql`${table.network} in ('TRC20', 'ERC20')`),
    check('usdt_sweeps_amount_positive', sql`${table.amountUsdtMicros} > 0`),
  ],
);

/** A sweep plan exported for the offline signer (decision 045). */
export const sweepPlans = pgTable(
  'sweep_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    network: text('network').$type<DepositNetwork>().notNull(),
    thresholdUsdtMicros: usdtMicros('threshold_usdt_micros').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('sweep_plans_network_valid', sql`${table.network} in ('TRC20', 'ERC20')`),
    check('sweep_plans_threshold_positive', sql`${table.thresholdUsdtMicros} > 0`),
  ],
);

/** An address of a sweep plan; `sweepId` is the sweep the follower matched to it. */
export const sweepPlanItems = pgTable(
  'sweep_plan_items',
  {
    planId: uuid('plan_id')
      .notNull()
      .references(() => sweepPlans.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    derivationPath: text('derivation_path'),
    amountUsdtMicros: usdtMicros('amount_usdt_micros').notNull(),
    /** What the address needs before it can be swept, in words: the network's coin for the fee, or nothing. */
    needs: text('needs').notNull(),
    sweepId: uuid('sweep_id').references(() => usdtSweeps.id, { onDelete: 'set null' }),
  },
  (table) => [
    primaryKey({ name: 'sweep_plan_items_pkey', columns: [table.planId, table.address] }),
    index('sweep_plan_items_open_idx')
      .on(table.address)
      .where(sql`${table.sweepId} is null`),
    check('sweep_plan_items_amount_positive', sql`${table.amountUsdtMicros} > 0`),
  ],
);

/** A customer's acceptance of the consent and privacy notice before KYC starts (issue 32): when, from where, which version. */
export const consentAcceptances = pgTable(
  'consent_acceptances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    noticeVersion: text('notice_version').notNull(),
    ipAddress: text('ip_address'),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('consent_acceptances_user_version_unique').on(table.userId, table.noticeVersion),
    check('consent_acceptances_version_length', sql`char_length(${table.noticeVersion}) between 1 and 40`),
  ],
);
