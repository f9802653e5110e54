-- Issue 31: admins see when a provider payout's last error happened, next to its attempts and the error's text.
ALTER TABLE "provider_payouts" ADD COLUMN "last_error_at" timestamp with time zone;--> statement-breakpoint
UPDATE "provider_payouts" SET "last_error_at" = "updated_at" WHERE "last_error" IS NOT NULL;
--> statement-breakpoint
-- Issue 31: the customer is told when the bank's check blocks a bank account. The kinds' check is extended from its
-- current definition, so that kinds other migrations add are kept.
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'notifications_kind_valid' AND conrelid = 'notifications'::regclass;
  IF position('withdrawal_payee_blocked' in definition) = 0 THEN
    ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_valid";
    EXECUTE 'ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" = ''withdrawal_payee_blocked'')';
  END IF;
END $$;
