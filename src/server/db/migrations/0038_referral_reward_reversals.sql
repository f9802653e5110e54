-- A referral reward paid on a deposit that vanished from the chain is taken back when an admin settles the
-- deposit's incident (decision 049): one reversal per reward, what came back from the referrer's wallet and
-- what the referrer had already spent (written off).
CREATE TABLE "referral_reward_reversals" (
	"reward_id" uuid PRIMARY KEY NOT NULL,
	"incident_id" uuid NOT NULL,
	"taken_back_usdt_micros" bigint NOT NULL,
	"written_off_usdt_micros" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_reward_reversals_amounts_valid" CHECK ("referral_reward_reversals"."taken_back_usdt_micros" >= 0 and "referral_reward_reversals"."written_off_usdt_micros" >= 0 and "referral_reward_reversals"."taken_back_usdt_micros" + "referral_reward_reversals"."written_off_usdt_micros" > 0)
);
--> statement-breakpoint
ALTER TABLE "referral_reward_reversals" ADD CONSTRAINT "referral_reward_reversals_reward_id_referral_rewards_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."referral_rewards"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "referral_reward_reversals" ADD CONSTRAINT "referral_reward_reversals_incident_id_chain_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."chain_incidents"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
-- A provider payout that is stuck (an error, or not settled in PAYOUT_STUCK_MINUTES) is told to admins once.
ALTER TABLE "provider_payouts" ADD COLUMN "stuck_alerted_at" timestamp with time zone;
--> statement-breakpoint
-- The ledger's reason is extended from its current definition, so that reasons other migrations add are kept.
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'ledger_transfers_reason_valid' AND conrelid = 'ledger_transfers'::regclass;
  IF position('referral_reward_reversal' in definition) = 0 THEN
    ALTER TABLE "ledger_transfers" DROP CONSTRAINT "ledger_transfers_reason_valid";
    EXECUTE 'ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_reason_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "reason" = ''referral_reward_reversal'')';
  END IF;
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'notifications_kind_valid' AND conrelid = 'notifications'::regclass;
  IF position('payout_stuck' in definition) = 0 THEN
    ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_valid";
    EXECUTE 'ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" = ''payout_stuck'')';
  END IF;
END $$;
