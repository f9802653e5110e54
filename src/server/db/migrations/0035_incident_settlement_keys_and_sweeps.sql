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
