-- An admin settles a chain incident (decision 045): the customer's balance debited back for the
-- vanished amount, or the loss written off; either with a written reason and the admin who
-- settled it (a second admin confirmed it while two admins exist).
ALTER TABLE "chain_incidents" ADD COLUMN "resolved_by_user_id" uuid;
--> statement-breakpoint
ALTER TABLE "chain_incidents" ADD COLUMN "resolution_reason" text;
--> statement-breakpoint
ALTER TABLE "chain_incidents" ADD CONSTRAINT "chain_incidents_resolved_by_user_id_users_id_fk" FOREIGN KEY ("resolved_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "chain_incidents" DROP CONSTRAINT "chain_incidents_resolution_valid";
--> statement-breakpoint
ALTER TABLE "chain_incidents" ADD CONSTRAINT "chain_incidents_resolution_valid" CHECK (("chain_incidents"."resolved_at" is null) = ("chain_incidents"."resolution" is null) and ("chain_incidents"."resolution" is null or "chain_incidents"."resolution" in ('reincluded', 'debited', 'written_off')));
--> statement-breakpoint
ALTER TABLE "chain_incidents" ADD CONSTRAINT "chain_incidents_reason_length" CHECK ("chain_incidents"."resolution_reason" is null or char_length("chain_incidents"."resolution_reason") between 1 and 500);
--> statement-breakpoint
-- The checks below are extended from their current definitions, so that values other migrations
-- add are kept: the ledger's reversal of a vanished deposit, the settlement as a kind of change
-- that waits for a second admin, and the notification admins get of a new incident.
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'ledger_transfers_reason_valid' AND conrelid = 'ledger_transfers'::regclass;
  IF position('deposit_reversal' in definition) = 0 THEN
    ALTER TABLE "ledger_transfers" DROP CONSTRAINT "ledger_transfers_reason_valid";
    EXECUTE 'ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_reason_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "reason" = ''deposit_reversal'')';
  END IF;
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'pending_changes_kind_valid' AND conrelid = 'pending_changes'::regclass;
  IF position('chain_incident_settlement' in definition) = 0 THEN
    ALTER TABLE "pending_changes" DROP CONSTRAINT "pending_changes_kind_valid";
    EXECUTE 'ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" in (''chain_incident_settlement'', ''deposit_xpub''))';
  END IF;
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'notifications_kind_valid' AND conrelid = 'notifications'::regclass;
  IF position('deposit_incident' in definition) = 0 THEN
    ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_valid";
    EXECUTE 'ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" = ''deposit_incident'')';
  END IF;
END
$$;
--> statement-breakpoint
-- The account-level extended public keys set in the admin settings (decision 045); the environment's
-- DEPOSIT_XPUB_* wins where it is set. No row: the network has no key from the settings.
CREATE TABLE "deposit_extended_keys" (
	"network" text PRIMARY KEY NOT NULL,
	"extended_public_key" text NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"set_by_user_id" uuid,
	CONSTRAINT "deposit_extended_keys_network_valid" CHECK ("deposit_extended_keys"."network" in ('TRC20', 'ERC20')),
	CONSTRAINT "deposit_extended_keys_key_shape" CHECK ("deposit_extended_keys"."extended_public_key" ~ '^xpub[1-9A-HJ-NP-Za-km-z]{100,116}$')
);
--> statement-breakpoint
ALTER TABLE "deposit_extended_keys" ADD CONSTRAINT "deposit_extended_keys_set_by_user_id_users_id_fk" FOREIGN KEY ("set_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
-- USDT moved out of a customer's deposit address (or the shared address), as the chain follower read
-- it in final blocks: a sweep by the operator's custody. A reorganisation forgets those above the
-- common ancestor, and the follower reads them again.
CREATE TABLE "usdt_sweeps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"transaction_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount_usdt_micros" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"user_id" uuid,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usdt_sweeps_network_valid" CHECK ("usdt_sweeps"."network" in ('TRC20', 'ERC20')),
	CONSTRAINT "usdt_sweeps_amount_positive" CHECK ("usdt_sweeps"."amount_usdt_micros" > 0)
);
--> statement-breakpoint
ALTER TABLE "usdt_sweeps" ADD CONSTRAINT "usdt_sweeps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "usdt_sweeps_transfer_unique" ON "usdt_sweeps" USING btree ("network","transaction_hash","log_index");
--> statement-breakpoint
CREATE INDEX "usdt_sweeps_from_idx" ON "usdt_sweeps" USING btree ("network","from_address");
--> statement-breakpoint
CREATE INDEX "usdt_sweeps_block_idx" ON "usdt_sweeps" USING btree ("network","block_number");
--> statement-breakpoint
-- A sweep plan exported for the offline signer, and its addresses; a sweep the follower reads from
-- an address of the newest open plan of its network is matched to that address's row.
CREATE TABLE "sweep_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"threshold_usdt_micros" bigint NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sweep_plans_network_valid" CHECK ("sweep_plans"."network" in ('TRC20', 'ERC20')),
	CONSTRAINT "sweep_plans_threshold_positive" CHECK ("sweep_plans"."threshold_usdt_micros" > 0)
);
--> statement-breakpoint
ALTER TABLE "sweep_plans" ADD CONSTRAINT "sweep_plans_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "sweep_plan_items" (
	"plan_id" uuid NOT NULL,
	"address" text NOT NULL,
	"derivation_path" text,
	"amount_usdt_micros" bigint NOT NULL,
	"needs" text NOT NULL,
	"sweep_id" uuid,
	CONSTRAINT "sweep_plan_items_pkey" PRIMARY KEY("plan_id","address"),
	CONSTRAINT "sweep_plan_items_amount_positive" CHECK ("sweep_plan_items"."amount_usdt_micros" > 0)
);
--> statement-breakpoint
ALTER TABLE "sweep_plan_items" ADD CONSTRAINT "sweep_plan_items_plan_id_sweep_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."sweep_plans"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "sweep_plan_items" ADD CONSTRAINT "sweep_plan_items_sweep_id_usdt_sweeps_id_fk" FOREIGN KEY ("sweep_id") REFERENCES "public"."usdt_sweeps"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "sweep_plan_items_open_idx" ON "sweep_plan_items" USING btree ("address") WHERE "sweep_plan_items"."sweep_id" is null;
