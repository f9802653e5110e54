-- Issue 32 (decision 042): KYC levels. What a customer proved beyond e-mail and mobile (migration 0030):
-- the PAN's check and the self-declaration of tax residence. One row per customer, made when they first act.
CREATE TABLE "kyc_records" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"pan_status" text DEFAULT 'none' NOT NULL,
	"pan_submitted_at" timestamp with time zone,
	"pan_checked_by" text,
	"pan_checked_at" timestamp with time zone,
	"pan_registered_name" text,
	"pan_name_accepted" text,
	"pan_provider_name_score" smallint,
	"pan_aadhaar_linked" boolean,
	"pan_provider_reference" text,
	"pan_rejection_reason" text,
	"pan_reviewed_by_user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"tax_residence" text,
	"tax_residence_other_country" text,
	"tax_residence_declared_at" timestamp with time zone,
	"tax_residence_ip" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kyc_records_pan_status_valid" CHECK ("pan_status" in ('none', 'pending_review', 'verified', 'rejected')),
	CONSTRAINT "kyc_records_pan_checked_by_valid" CHECK ("pan_checked_by" is null or "pan_checked_by" in ('cashfree', 'admin')),
	CONSTRAINT "kyc_records_pan_registered_name_length" CHECK ("pan_registered_name" is null or char_length("pan_registered_name") between 1 and 200),
	CONSTRAINT "kyc_records_pan_name_accepted_length" CHECK ("pan_name_accepted" is null or char_length("pan_name_accepted") between 1 and 100),
	CONSTRAINT "kyc_records_pan_score_range" CHECK ("pan_provider_name_score" is null or "pan_provider_name_score" between 0 and 100),
	CONSTRAINT "kyc_records_pan_reference_length" CHECK ("pan_provider_reference" is null or char_length("pan_provider_reference") <= 100),
	CONSTRAINT "kyc_records_pan_rejection_length" CHECK ("pan_rejection_reason" is null or char_length("pan_rejection_reason") between 1 and 500),
	CONSTRAINT "kyc_records_tax_residence_valid" CHECK ("tax_residence" is null or "tax_residence" in ('india', 'other')),
	CONSTRAINT "kyc_records_tax_residence_country" CHECK (("tax_residence" = 'other') = ("tax_residence_other_country" is not null) and ("tax_residence_other_country" is null or char_length("tax_residence_other_country") between 2 and 60)),
	CONSTRAINT "kyc_records_tax_residence_declared" CHECK (("tax_residence" is null) = ("tax_residence_declared_at" is null))
);
--> statement-breakpoint
CREATE INDEX "kyc_records_pan_review_idx" ON "kyc_records" ("pan_submitted_at") WHERE "pan_status" = 'pending_review';
--> statement-breakpoint
-- One PAN per account. PANs that several accounts share already are kept (the oldest account's is the
-- one counted as unique) and listed for the admins in pan_conflicts; the unique index leaves them out.
ALTER TABLE "profiles" ADD COLUMN "pan_shared_before_kyc" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "profiles" p SET "pan_shared_before_kyc" = true
WHERE p."pan" IS NOT NULL AND EXISTS (
	SELECT 1 FROM "profiles" o WHERE o."pan" = p."pan" AND (o."created_at", o."user_id") < (p."created_at", p."user_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_pan_unique" ON "profiles" ("pan") WHERE "pan" IS NOT NULL AND NOT "pan_shared_before_kyc";
--> statement-breakpoint
CREATE TABLE "pan_conflicts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pan" text NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"existing_user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"source" text NOT NULL,
	"ip_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pan_conflicts_source_valid" CHECK ("source" in ('submission', 'migration')),
	CONSTRAINT "pan_conflicts_pan_length" CHECK (char_length("pan") = 10)
);
--> statement-breakpoint
CREATE INDEX "pan_conflicts_created_idx" ON "pan_conflicts" ("created_at", "id");
--> statement-breakpoint
INSERT INTO "pan_conflicts" ("pan", "user_id", "existing_user_id", "source")
SELECT p."pan", p."user_id",
	(SELECT o."user_id" FROM "profiles" o WHERE o."pan" = p."pan" AND NOT o."pan_shared_before_kyc" LIMIT 1),
	'migration'
FROM "profiles" p WHERE p."pan_shared_before_kyc";
--> statement-breakpoint
-- A PAN saved before this migration was never checked: it waits for review, it is not verified.
INSERT INTO "kyc_records" ("user_id", "pan_status", "pan_submitted_at")
SELECT p."user_id", 'pending_review', p."updated_at" FROM "profiles" p WHERE p."pan" IS NOT NULL;
--> statement-breakpoint
-- The level limits (INR, null: no limit of the level; the tier's limits still apply) and the TDS rate
-- without an operative PAN (section 206AA: 20 %).
ALTER TABLE "admin_settings" ADD COLUMN "kyc_level1_daily_limit_inr_paise" bigint;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "kyc_level1_monthly_limit_inr_paise" bigint;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "kyc_level2_daily_limit_inr_paise" bigint;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "kyc_level2_monthly_limit_inr_paise" bigint;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "tds_no_pan_basis_points" integer DEFAULT 2000 NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_kyc_limits_positive" CHECK (
	coalesce("kyc_level1_daily_limit_inr_paise", 1) > 0 and coalesce("kyc_level1_monthly_limit_inr_paise", 1) > 0
	and coalesce("kyc_level2_daily_limit_inr_paise", 1) > 0 and coalesce("kyc_level2_monthly_limit_inr_paise", 1) > 0);
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_tds_no_pan_range" CHECK ("tds_no_pan_basis_points" between 0 and 3000);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_valid";
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_valid" CHECK ("kind" in ('deposit_credited', 'deposit_rejected', 'withdrawal_paid', 'withdrawal_rejected', 'transfer_approved', 'transfer_rejected', 'transfer_received', 'kyc_required', 'kyc_updated'));
--> statement-breakpoint
-- Existing customers are told what is missing before their next withdrawal or transfer is refused.
INSERT INTO "notifications" ("user_id", "kind", "title", "body", "link", "email_subject", "email_text")
SELECT p."user_id", 'kyc_required', 'Verify your account to keep withdrawing',
	'Withdrawals and transfers now need KYC level 1: a verified e-mail and mobile number, a verified PAN in your name and your tax residence. Open the KYC page to see what is missing.',
	'/kyc', 'Verify your account to keep withdrawing',
	'Withdrawals and transfers now need KYC level 1: a verified e-mail and mobile number, a verified PAN in your name and your tax residence. Open the KYC page in the app to see what is missing. Deposits are still credited.'
FROM "profiles" p WHERE p."role" = 'user';
