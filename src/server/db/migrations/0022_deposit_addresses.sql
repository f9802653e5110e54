-- A deposit address per customer and network, derived watch-only from the operator's account-level
-- extended public key (m/44'/60'/0' for ERC20, m/44'/195'/0' for TRC20) at .../0/address_index.
-- An index is handed out once and never reused or reassigned; the key it was derived from is kept
-- so that an operator who changes the key never sees an old address re-derived to someone else.
CREATE TABLE "deposit_addresses" (
	"network" text NOT NULL,
	"address_index" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"extended_public_key" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_addresses_pkey" PRIMARY KEY("network","extended_public_key","address_index"),
	CONSTRAINT "deposit_addresses_network_valid" CHECK ("network" in ('TRC20', 'ERC20')),
	CONSTRAINT "deposit_addresses_index_range" CHECK ("address_index" >= 0),
	CONSTRAINT "deposit_addresses_address_shape" CHECK (("network" = 'ERC20' and "address" ~ '^0x[0-9a-f]{40}$') or ("network" = 'TRC20' and "address" ~ '^T[1-9A-HJ-NP-Za-km-z]{33}$'))
);
--> statement-breakpoint
ALTER TABLE "deposit_addresses" ADD CONSTRAINT "deposit_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_address_unique" ON "deposit_addresses" USING btree ("network","address");
--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_user_key_unique" ON "deposit_addresses" USING btree ("network","extended_public_key","user_id");
