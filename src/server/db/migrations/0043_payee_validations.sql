CREATE TABLE "payee_validations" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "bank_account_id" uuid REFERENCES "bank_accounts"("id") ON DELETE set null,
  "account_holder_name" text NOT NULL,
  "account_number" text NOT NULL,
  "ifsc_code" text NOT NULL,
  "status" text DEFAULT 'queued' NOT NULL,
  "provider_validation_id" text,
  "account_status" text,
  "registered_name" text,
  "name_verdict" text,
  "name_score" integer,
  "failure_reason" text,
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_error" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "completed_at" timestamp with time zone,
  CONSTRAINT "payee_validations_status_valid" CHECK ("status" in ('queued', 'created', 'completed', 'failed')),
  CONSTRAINT "payee_validations_account_status_valid" CHECK ("account_status" is null or "account_status" in ('active', 'invalid')),
  CONSTRAINT "payee_validations_verdict_valid" CHECK ("name_verdict" is null or "name_verdict" in ('match', 'partial', 'mismatch')),
  CONSTRAINT "payee_validations_lengths" CHECK (char_length("account_holder_name") <= 100 and char_length(coalesce("registered_name", '')) <= 200 and char_length(coalesce("failure_reason", '')) <= 500 and char_length(coalesce("last_error", '')) <= 500 and char_length(coalesce("provider_validation_id", '')) <= 64),
  CONSTRAINT "payee_validations_final_has_time" CHECK (("status" in ('completed', 'failed')) = ("completed_at" is not null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payee_validations_provider_id_unique" ON "payee_validations" ("provider_validation_id") WHERE "provider_validation_id" is not null;
--> statement-breakpoint
CREATE INDEX "payee_validations_user_idx" ON "payee_validations" ("user_id", "created_at");
--> statement-breakpoint
CREATE INDEX "payee_validations_due_idx" ON "payee_validations" ("next_attempt_at") WHERE "status" in ('queued', 'created');
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "payee_check" text DEFAULT 'unchecked' NOT NULL;
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "validation_id" uuid REFERENCES "payee_validations"("id") ON DELETE set null;
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "accepted_by" uuid REFERENCES "users"("id") ON DELETE set null;
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "accepted_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_payee_check_valid" CHECK ("payee_check" in ('unchecked', 'checking', 'verified', 'name_mismatch', 'invalid', 'check_failed', 'accepted'));
--> statement-breakpoint
CREATE INDEX "bank_accounts_review_idx" ON "bank_accounts" ("updated_at") WHERE "payee_check" in ('name_mismatch', 'check_failed', 'invalid');
--> statement-breakpoint
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'pending_changes_kind_valid' AND conrelid = 'pending_changes'::regclass;
  IF position('payee_acceptance' in definition) = 0 THEN
    ALTER TABLE "pending_changes" DROP CONSTRAINT "pending_changes_kind_valid";
    EXECUTE 'ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" = ''payee_acceptance'')';
  END IF;
END
$$;
