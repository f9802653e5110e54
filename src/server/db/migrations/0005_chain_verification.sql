-- What the blockchain says about each deposit, filled in by the chain worker. The customer's typed amount is kept
-- beside the stored amount, which becomes the on-chain amount once the transfer is final.
ALTER TABLE "usdt_deposits"
  ADD COLUMN "typed_amount_usdt_micros" bigint,
  ADD COLUMN "source" text DEFAULT 'customer' NOT NULL,
  ADD COLUMN "chain_state" text DEFAULT 'unchecked' NOT NULL,
  ADD COLUMN "chain_problem" text,
  ADD COLUMN "chain_amount_usdt_micros" bigint,
  ADD COLUMN "chain_from_address" text,
  ADD COLUMN "chain_to_address" text,
  ADD COLUMN "chain_confirmations" integer,
  ADD COLUMN "chain_required_confirmations" integer,
  ADD COLUMN "chain_block_number" bigint,
  ADD COLUMN "chain_log_index" integer,
  ADD COLUMN "chain_checked_at" timestamp with time zone,
  ADD COLUMN "chain_delayed" boolean DEFAULT false NOT NULL,
  ADD CONSTRAINT "usdt_deposits_source_valid" CHECK ("source" in ('customer', 'detected')),
  ADD CONSTRAINT "usdt_deposits_chain_state_valid" CHECK ("chain_state" in ('unchecked', 'confirming', 'confirmed', 'not_found', 'mismatch', 'failed')),
  ADD CONSTRAINT "usdt_deposits_chain_problem_valid" CHECK ("chain_problem" is null or "chain_problem" in ('wrong_recipient', 'wrong_token', 'below_minimum', 'other_network', 'sender_of_another_customer', 'amount_too_large')),
  ADD CONSTRAINT "usdt_deposits_chain_amount_positive" CHECK ("chain_amount_usdt_micros" is null or "chain_amount_usdt_micros" > 0),
  ADD CONSTRAINT "usdt_deposits_typed_amount_positive" CHECK ("typed_amount_usdt_micros" is null or "typed_amount_usdt_micros" > 0);
--> statement-breakpoint
UPDATE "usdt_deposits" SET "typed_amount_usdt_micros" = "amount_usdt_micros";
--> statement-breakpoint
-- The credit key: one on-chain Transfer log is credited at most once, whoever submitted or detected it.
CREATE UNIQUE INDEX "usdt_deposits_chain_log_unique" ON "usdt_deposits" ("network", "transaction_hash", "chain_log_index") WHERE "chain_log_index" is not null;
--> statement-breakpoint
CREATE TABLE "customer_wallets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"address_key" text NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_wallets_network_valid" CHECK ("network" in ('TRC20', 'ERC20')),
	CONSTRAINT "customer_wallets_address_length" CHECK (char_length("address") between 20 and 64)
);
--> statement-breakpoint
-- An address belongs to at most one customer: whoever proved it first.
CREATE UNIQUE INDEX "customer_wallets_address_unique" ON "customer_wallets" ("network", "address_key");
--> statement-breakpoint
CREATE INDEX "customer_wallets_user_idx" ON "customer_wallets" ("user_id", "verified_at");
--> statement-breakpoint
CREATE TABLE "wallet_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"network" text NOT NULL,
	"address_key" text NOT NULL,
	"message" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_challenges_network_valid" CHECK ("network" in ('TRC20', 'ERC20')),
	CONSTRAINT "wallet_challenges_message_length" CHECK (char_length("message") <= 1000)
);
--> statement-breakpoint
CREATE INDEX "wallet_challenges_user_idx" ON "wallet_challenges" ("user_id", "network", "address_key", "created_at");
--> statement-breakpoint
-- Work for the chain worker: a deposit to verify, or a network to scan. Every app process runs the worker; a job is
-- leased by moving run_after forward inside a FOR UPDATE SKIP LOCKED claim, so two processes never work on one job.
CREATE TABLE "chain_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"deposit_id" uuid REFERENCES "usdt_deposits"("id") ON DELETE cascade,
	"network" text NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "chain_jobs_kind_valid" CHECK ("kind" in ('verify_deposit', 'scan_network')),
	CONSTRAINT "chain_jobs_network_valid" CHECK ("network" in ('TRC20', 'ERC20')),
	CONSTRAINT "chain_jobs_shape" CHECK (("kind" = 'verify_deposit') = ("deposit_id" is not null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "chain_jobs_deposit_unique" ON "chain_jobs" ("deposit_id") WHERE "deposit_id" is not null;
--> statement-breakpoint
CREATE UNIQUE INDEX "chain_jobs_scan_unique" ON "chain_jobs" ("network") WHERE "kind" = 'scan_network';
--> statement-breakpoint
CREATE INDEX "chain_jobs_due_idx" ON "chain_jobs" ("run_after") WHERE "finished_at" is null;
--> statement-breakpoint
-- How far the scan for transfers without a submitted hash has read each network, per operator address: a block
-- number on Ethereum, a block timestamp in milliseconds on TRON (its event API pages by time).
CREATE TABLE "chain_scan_cursors" (
	"network" text NOT NULL,
	"deposit_address" text NOT NULL,
	"scanned_through" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("network", "deposit_address")
);
