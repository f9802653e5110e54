-- Issue 31 section 1, decision 043: withdrawals paid through a payout provider (RazorpayX Payouts).

-- How a withdrawal leaves: in a bank file (set when a batch takes it) or through the provider (set when an admin's
-- approval hands it over). A withdrawal with the provider is never in a batch, and one that went into a bank file never
-- goes to the provider (the trigger below).
ALTER TABLE "withdrawal_requests" ADD COLUMN "payout_route" text;
--> statement-breakpoint
UPDATE "withdrawal_requests" SET "payout_route" = 'bank_file' WHERE "payout_batch_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_payout_route_valid" CHECK ("payout_route" is null or "payout_route" in ('bank_file', 'razorpayx'));
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_provider_not_in_batch" CHECK ("payout_route" is distinct from 'razorpayx' or "payout_batch_id" is null);
--> statement-breakpoint
-- Processing means in a batch, or with the provider.
ALTER TABLE "withdrawal_requests" DROP CONSTRAINT "withdrawal_requests_batch_consistent";
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_batch_consistent" CHECK (("status" <> 'processing' or "payout_batch_id" is not null or "payout_route" = 'razorpayx') and ("status" <> 'pending' or "payout_batch_id" is null));
--> statement-breakpoint
-- A paid withdrawal whose payment the bank returned afterwards (a provider's reversal): its USDT went back to the wallet.
ALTER TABLE "withdrawal_requests" ADD COLUMN "reversed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_reversed_paid" CHECK ("reversed_at" is null or "status" = 'approved');
--> statement-breakpoint
-- The target of provider_payouts' foreign key: a provider payout exists only for a withdrawal routed to the provider,
-- and the route cannot change while it exists.
CREATE UNIQUE INDEX "withdrawal_requests_id_route_idx" ON "withdrawal_requests" USING btree ("id", "payout_route");
--> statement-breakpoint
CREATE INDEX "withdrawal_requests_provider_processing_idx" ON "withdrawal_requests" USING btree ("created_at") WHERE "status" = 'processing' and "payout_route" = 'razorpayx';
--> statement-breakpoint
CREATE FUNCTION "withdrawal_payout_route_kept"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."payout_route" = 'razorpayx' AND NEW."payout_route" IS DISTINCT FROM 'razorpayx' THEN
    RAISE EXCEPTION 'withdrawal % was sent to the payout provider and stays with it', OLD."id" USING ERRCODE = 'check_violation', CONSTRAINT = 'withdrawal_requests_payout_route_kept';
  END IF;
  IF OLD."payout_route" = 'bank_file' AND NEW."payout_route" = 'razorpayx' THEN
    RAISE EXCEPTION 'withdrawal % went into a bank file and never goes to the payout provider', OLD."id" USING ERRCODE = 'check_violation', CONSTRAINT = 'withdrawal_requests_payout_route_kept';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "withdrawal_requests_payout_route_kept" BEFORE UPDATE OF "payout_route" ON "withdrawal_requests" FOR EACH ROW EXECUTE FUNCTION "withdrawal_payout_route_kept"();
--> statement-breakpoint
CREATE TABLE "provider_payouts" (
	"withdrawal_id" uuid PRIMARY KEY NOT NULL,
	"payout_route" text DEFAULT 'razorpayx' NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_inr_paise" bigint NOT NULL,
	"mode" text NOT NULL,
	"provider_payout_id" text,
	"state" text DEFAULT 'unsent' NOT NULL,
	"utr" text,
	"status_reason" text,
	"status_description" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_payouts_withdrawal_route_fk" FOREIGN KEY ("withdrawal_id", "payout_route") REFERENCES "withdrawal_requests"("id", "payout_route") ON DELETE restrict ON UPDATE restrict,
	CONSTRAINT "provider_payouts_route_valid" CHECK ("payout_route" = 'razorpayx'),
	CONSTRAINT "provider_payouts_key_shape" CHECK ("idempotency_key" ~ '^[A-Za-z0-9_ -]{4,36}$'),
	CONSTRAINT "provider_payouts_amount_positive" CHECK ("amount_inr_paise" >= 100),
	CONSTRAINT "provider_payouts_mode_valid" CHECK ("mode" in ('IMPS', 'UPI', 'NEFT')),
	CONSTRAINT "provider_payouts_state_valid" CHECK ("state" in ('unsent', 'queued', 'pending', 'processing', 'processed', 'reversed', 'cancelled', 'rejected', 'failed')),
	CONSTRAINT "provider_payouts_sent_has_id" CHECK ("state" in ('unsent', 'failed') or "provider_payout_id" is not null),
	CONSTRAINT "provider_payouts_id_length" CHECK ("provider_payout_id" is null or char_length("provider_payout_id") <= 64),
	CONSTRAINT "provider_payouts_utr_length" CHECK ("utr" is null or char_length("utr") <= 64),
	CONSTRAINT "provider_payouts_reason_length" CHECK (("status_reason" is null or char_length("status_reason") <= 100) and ("status_description" is null or char_length("status_description") <= 500)),
	CONSTRAINT "provider_payouts_error_length" CHECK ("last_error" is null or char_length("last_error") <= 500)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "provider_payouts_key_idx" ON "provider_payouts" USING btree ("idempotency_key");
--> statement-breakpoint
CREATE UNIQUE INDEX "provider_payouts_provider_id_idx" ON "provider_payouts" USING btree ("provider_payout_id") WHERE "provider_payout_id" IS NOT NULL;
--> statement-breakpoint
-- What the worker sends or asks about next: every payout whose withdrawal is not yet paid or refunded.
CREATE INDEX "provider_payouts_due_idx" ON "provider_payouts" USING btree ("next_attempt_at") WHERE "settled_at" IS NULL;
--> statement-breakpoint
-- The provider's states of one payout as they came, for the withdrawal's timeline.
CREATE TABLE "provider_payout_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"withdrawal_id" uuid NOT NULL REFERENCES "provider_payouts"("withdrawal_id") ON DELETE cascade,
	"state" text NOT NULL,
	"utr" text,
	"reason" text,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_payout_events_state_valid" CHECK ("state" in ('queued', 'pending', 'processing', 'processed', 'reversed', 'cancelled', 'rejected', 'failed')),
	CONSTRAINT "provider_payout_events_source_valid" CHECK ("source" in ('send', 'webhook', 'poll')),
	CONSTRAINT "provider_payout_events_lengths" CHECK (("utr" is null or char_length("utr") <= 64) and ("reason" is null or char_length("reason") <= 500))
);
--> statement-breakpoint
CREATE INDEX "provider_payout_events_withdrawal_idx" ON "provider_payout_events" USING btree ("withdrawal_id", "id");
--> statement-breakpoint
-- Webhook deliveries already applied, by the provider's event id (x-razorpay-event-id): a redelivery changes nothing.
CREATE TABLE "provider_webhook_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"event" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_webhook_events_pkey" PRIMARY KEY ("provider", "event_id"),
	CONSTRAINT "provider_webhook_events_lengths" CHECK (char_length("event_id") <= 100 and char_length("event") <= 100)
);
--> statement-breakpoint
CREATE INDEX "provider_webhook_events_received_idx" ON "provider_webhook_events" USING btree ("received_at");
--> statement-breakpoint
-- A reversal returns a paid withdrawal's USDT: its own ledger reason. Widened from the current definition, so reasons
-- other branches add are kept whatever the order.
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'ledger_transfers_reason_valid' AND conrelid = 'ledger_transfers'::regclass;
  IF position('withdrawal_reversal' in definition) = 0 THEN
    ALTER TABLE "ledger_transfers" DROP CONSTRAINT "ledger_transfers_reason_valid";
    EXECUTE 'ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_reason_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "reason" = ''withdrawal_reversal'')';
  END IF;
END
$$;
