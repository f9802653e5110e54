-- The credit key of an on-chain deposit no longer depends on where its transaction landed:
-- chain_log_index is now the position of the transfer within its transaction (on Ethereum its
-- place among the transaction's Transfer events of the USDT contract; on TRON, as before, its
-- place in the transaction's log list). Ethereum rows stored the index within the block; they
-- become their order among the deposits of the same transaction (exact when, as nearly always,
-- every USDT transfer of such a transaction is a deposit). Negated first, so that no row meets
-- another's old value on the way.
UPDATE "usdt_deposits" AS d SET "chain_log_index" = -1 - r."position"
FROM (
	SELECT "id", (row_number() OVER (PARTITION BY "network", "transaction_hash" ORDER BY "chain_log_index") - 1)::integer AS "position"
	FROM "usdt_deposits" WHERE "network" = 'ERC20' AND "chain_log_index" IS NOT NULL
) AS r
WHERE d."id" = r."id";
--> statement-breakpoint
UPDATE "usdt_deposits" SET "chain_log_index" = -1 - "chain_log_index" WHERE "network" = 'ERC20' AND "chain_log_index" < 0;
--> statement-breakpoint
ALTER TABLE "usdt_deposits" ADD COLUMN "chain_block_hash" text;
--> statement-breakpoint
-- The blocks the chain follower has read (a window back from its cursor): the newest is the cursor,
-- and each new block's parent hash is checked against them to find a reorganisation.
CREATE TABLE "chain_blocks" (
	"network" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"parent_hash" text,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_blocks_pkey" PRIMARY KEY("network","block_number"),
	CONSTRAINT "chain_blocks_network_valid" CHECK ("network" in ('TRC20', 'ERC20'))
);
--> statement-breakpoint
-- A credited deposit whose transfer a reorganisation removed from the chain: open until the
-- transfer is final again (re-included) or an admin settles it; while open, the customer's
-- withdrawals may not spend the amount.
CREATE TABLE "chain_incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deposit_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"network" text NOT NULL,
	"transaction_hash" text NOT NULL,
	"amount_usdt_micros" bigint NOT NULL,
	"kind" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	CONSTRAINT "chain_incidents_kind_valid" CHECK ("kind" in ('transfer_vanished')),
	CONSTRAINT "chain_incidents_amount_positive" CHECK ("amount_usdt_micros" > 0),
	CONSTRAINT "chain_incidents_resolution_valid" CHECK (("resolved_at" IS NULL) = ("resolution" IS NULL) AND ("resolution" IS NULL OR "resolution" in ('reincluded')))
);
--> statement-breakpoint
ALTER TABLE "chain_incidents" ADD CONSTRAINT "chain_incidents_deposit_id_usdt_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."usdt_deposits"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "chain_incidents" ADD CONSTRAINT "chain_incidents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "chain_incidents_open_deposit_unique" ON "chain_incidents" USING btree ("deposit_id") WHERE "resolved_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "chain_incidents_open_user_idx" ON "chain_incidents" USING btree ("user_id") WHERE "resolved_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "usdt_deposits_chain_block_idx" ON "usdt_deposits" USING btree ("network","chain_block_number") WHERE "chain_log_index" IS NOT NULL;
