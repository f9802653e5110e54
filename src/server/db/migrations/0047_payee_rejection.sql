-- Issue 31 (decision 057): an admin rejects a payee the bank did not confirm. The payee keeps the check `rejected`, who
-- rejected it, when and why, until its owner edits what the bank checks (which checks it again) or deletes it.
ALTER TABLE "bank_accounts" ADD COLUMN "rejected_by" uuid REFERENCES "users"("id") ON DELETE set null;
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "rejected_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "rejection_reason" text;
--> statement-breakpoint
ALTER TABLE "bank_accounts" DROP CONSTRAINT "bank_accounts_payee_check_valid";
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_payee_check_valid" CHECK ("payee_check" in ('unchecked', 'checking', 'verified', 'name_mismatch', 'invalid', 'check_failed', 'accepted', 'rejected'));
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_rejection_consistent" CHECK (("payee_check" = 'rejected') = ("rejected_at" is not null) and ("rejected_at" is null) = ("rejection_reason" is null) and ("rejection_reason" is null or char_length("rejection_reason") between 1 and 500));
--> statement-breakpoint
-- The kinds' check is extended from its current definition, so that kinds other migrations add are kept.
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'pending_changes_kind_valid' AND conrelid = 'pending_changes'::regclass;
  IF position('payee_rejection' in definition) = 0 THEN
    ALTER TABLE "pending_changes" DROP CONSTRAINT "pending_changes_kind_valid";
    EXECUTE 'ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" = ''payee_rejection'')';
  END IF;
END
$$;
--> statement-breakpoint
-- Decision 057: a UPI id's name may have up to 256 characters (the published VPA form); the contract also wants a handle
-- of letters only, but the check keeps accepting the handles saved before. PostgreSQL's regular expressions count a
-- repetition up to 255 only, so the name's length is checked apart.
ALTER TABLE "bank_accounts" DROP CONSTRAINT "bank_accounts_upi_shape";
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_upi_shape" CHECK ("upi_id" is null or ("upi_id" ~ '^[A-Za-z0-9._-]{2,}@[A-Za-z][A-Za-z0-9.-]{1,63}$' and char_length(split_part("upi_id", '@', 1)) <= 256));
