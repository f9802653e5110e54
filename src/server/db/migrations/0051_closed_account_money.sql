-- Issue 32 (decision 060, amended): money can still reach a closed account (a transfer to its permanent deposit
-- address, a payout the bank reverses after it was paid). Admins are told once per rise of its balance; this
-- column holds the balance they were last told of.
ALTER TABLE "users" ADD COLUMN "closed_balance_noticed_usdt_micros" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX "users_closed_idx" ON "users" ("closed_at") WHERE "closed_at" IS NOT NULL;
--> statement-breakpoint
-- The kinds are extended from the current definition, so that kinds other migrations add are kept.
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'notifications_kind_valid' AND conrelid = 'notifications'::regclass;
  IF position('closed_account_money' in definition) = 0 THEN
    ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_valid";
    EXECUTE 'ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" = ''closed_account_money'')';
  END IF;
END $$;
