-- Issue 31, sections 4 and 5 (decision 044). A customer may cancel a withdrawal that is still pending:
-- the new status 'cancelled' (decided_at set, decided_by_user_id the customer) and the notification kind
-- 'withdrawal_cancelled'. The two checks are widened from their current definitions (as 0029 did), so
-- values other branches add are kept whatever the order the migrations run in.
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'withdrawal_requests_status_valid' AND conrelid = 'withdrawal_requests'::regclass;
  IF position('cancelled' in definition) = 0 THEN
    ALTER TABLE "withdrawal_requests" DROP CONSTRAINT "withdrawal_requests_status_valid";
    EXECUTE 'ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_status_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "status" = ''cancelled'')';
  END IF;
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'notifications_kind_valid' AND conrelid = 'notifications'::regclass;
  IF position('withdrawal_cancelled' in definition) = 0 THEN
    ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_valid";
    EXECUTE 'ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" = ''withdrawal_cancelled'')';
  END IF;
END
$$;
--> statement-breakpoint
-- A payee whose payout failed (or was reversed) for a reason of the account itself is flagged: it cannot be
-- chosen for a withdrawal until its owner edits it. The payout provider's work sets the same two columns.
ALTER TABLE "bank_accounts" ADD COLUMN "flagged_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD COLUMN "flag_reason" text;
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_flag_consistent" CHECK (("flagged_at" is null) = ("flag_reason" is null) and (flag_reason is null or char_length("flag_reason") between 1 and 200));
--> statement-breakpoint
-- The branch of the IFSC, from the IFSC dataset (null for accounts saved before it and for codes whose branch the dataset does not name).
ALTER TABLE "bank_accounts" ADD COLUMN "branch_name" text;
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_branch_length" CHECK ("branch_name" is null or char_length("branch_name") between 1 and 200);
