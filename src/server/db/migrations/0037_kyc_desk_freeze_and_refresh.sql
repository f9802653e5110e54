-- Issue 32 (decision 047): an admin's freeze of an account (FIU-IND suspicious activity), the customer's
-- risk category and the re-KYC schedule per risk. Kept beside the customer's KYC record.
ALTER TABLE "kyc_records" ADD COLUMN "frozen_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD COLUMN "frozen_reason" text;
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD COLUMN "frozen_by_user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD COLUMN "risk_category" text DEFAULT 'low' NOT NULL;
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD COLUMN "risk_set_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD COLUMN "risk_set_by_user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD CONSTRAINT "kyc_records_frozen_reason" CHECK (("frozen_at" is null) = ("frozen_reason" is null) and ("frozen_reason" is null or char_length("frozen_reason") between 1 and 500));
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD CONSTRAINT "kyc_records_risk_category_valid" CHECK ("risk_category" in ('low', 'medium', 'high'));
--> statement-breakpoint
-- How often KYC is refreshed: every 6 months for high-risk customers, every 12 for the others (FIU-IND).
ALTER TABLE "admin_settings" ADD COLUMN "kyc_refresh_months_high_risk" smallint DEFAULT 6 NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "kyc_refresh_months_other" smallint DEFAULT 12 NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_kyc_refresh_months_range" CHECK ("kyc_refresh_months_high_risk" between 1 and 12 and "kyc_refresh_months_other" between 1 and 12);
--> statement-breakpoint
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'pending_changes_kind_valid' AND conrelid = 'pending_changes'::regclass;
  IF position('account_unfreeze' in definition) = 0 THEN
    ALTER TABLE "pending_changes" DROP CONSTRAINT "pending_changes_kind_valid";
    EXECUTE 'ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" = ''account_unfreeze'')';
  END IF;
END
$$;
