-- Decision 037. A rejected claim releases its transfer: the unique keys on submitted hashes and on
-- Transfer logs skip rejected rows, so the transfer's owner can submit it and detection can take it.
DROP INDEX "usdt_deposits_customer_hash_unique";
--> statement-breakpoint
CREATE UNIQUE INDEX "usdt_deposits_customer_hash_unique" ON "usdt_deposits" USING btree ("network","transaction_hash") WHERE source = 'customer' and status <> 'rejected';
--> statement-breakpoint
DROP INDEX "usdt_deposits_chain_log_unique";
--> statement-breakpoint
CREATE UNIQUE INDEX "usdt_deposits_chain_log_unique" ON "usdt_deposits" USING btree ("network","transaction_hash","chain_log_index") WHERE chain_log_index is not null and status <> 'rejected';
--> statement-breakpoint
-- What the chain proves besides the transfer: whether its sender is a wallet the deposit's own customer
-- proved, and how many USDT transfers to the deposit address the transaction holds.
ALTER TABLE "usdt_deposits" ADD COLUMN "chain_sender_proven" boolean;
--> statement-breakpoint
ALTER TABLE "usdt_deposits" ADD COLUMN "chain_transfers_to_address" integer;
--> statement-breakpoint
ALTER TABLE "usdt_deposits" ADD CONSTRAINT "usdt_deposits_chain_transfers_count" CHECK ("chain_transfers_to_address" is null or "chain_transfers_to_address" between 0 and 10000);
--> statement-breakpoint
ALTER TABLE "usdt_deposits" DROP CONSTRAINT "usdt_deposits_chain_problem_valid";
--> statement-breakpoint
ALTER TABLE "usdt_deposits" ADD CONSTRAINT "usdt_deposits_chain_problem_valid" CHECK ("chain_problem" is null or "chain_problem" in ('wrong_recipient', 'wrong_token', 'below_minimum', 'other_network', 'sender_of_another_customer', 'amount_too_large', 'ambiguous', 'transfer_taken'));
--> statement-breakpoint
-- A second admin's approval of a deposit the chain refutes waits as a pending change.
ALTER TABLE "pending_changes" DROP CONSTRAINT "pending_changes_kind_valid";
--> statement-breakpoint
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_kind_valid" CHECK ("kind" in ('deposit_address', 'large_withdrawal_approval', 'admin_role_grant', 'admin_role_removal', 'exchange_rates', 'large_withdrawal_limit', 'app_file', 'deposit_override', 'unclaimed_transfer_assignment'));
--> statement-breakpoint
-- A transfer to the shared deposit address from a sender no customer proved, that no claim names:
-- kept for admins to match to a customer's message and assign (decision 037).
CREATE TABLE "unclaimed_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"transaction_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount_usdt_micros" bigint NOT NULL,
	"block_number" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"deposit_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "unclaimed_transfers_network_valid" CHECK ("network" in ('TRC20', 'ERC20')),
	CONSTRAINT "unclaimed_transfers_status_valid" CHECK ("status" in ('open', 'assigned')),
	CONSTRAINT "unclaimed_transfers_amount_positive" CHECK ("amount_usdt_micros" > 0),
	CONSTRAINT "unclaimed_transfers_resolution" CHECK (("status" = 'open') = ("resolved_at" is null))
);
--> statement-breakpoint
ALTER TABLE "unclaimed_transfers" ADD CONSTRAINT "unclaimed_transfers_deposit_id_usdt_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."usdt_deposits"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "unclaimed_transfers_log_unique" ON "unclaimed_transfers" USING btree ("network","transaction_hash","log_index");
--> statement-breakpoint
CREATE INDEX "unclaimed_transfers_open_idx" ON "unclaimed_transfers" USING btree ("created_at","id") WHERE status = 'open';
