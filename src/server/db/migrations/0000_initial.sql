CREATE TABLE "admin_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"rate_normal_inr_paise" bigint DEFAULT 8300 NOT NULL,
	"rate_vip_inr_paise" bigint DEFAULT 8325 NOT NULL,
	"trc20_address" text DEFAULT '' NOT NULL,
	"erc20_address" text DEFAULT '' NOT NULL,
	"trc20_qr_file_id" uuid,
	"erc20_qr_file_id" uuid,
	"apk_file_id" uuid,
	"whatsapp_support_number" text DEFAULT '' NOT NULL,
	"website_url" text DEFAULT '' NOT NULL,
	"min_deposit_usdt_micros" bigint DEFAULT 10000000 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_user_id" uuid,
	CONSTRAINT "admin_settings_single_row" CHECK ("admin_settings"."id" = 1),
	CONSTRAINT "admin_settings_rates_positive" CHECK ("admin_settings"."rate_normal_inr_paise" > 0 and "admin_settings"."rate_vip_inr_paise" > 0),
	CONSTRAINT "admin_settings_min_deposit_positive" CHECK ("admin_settings"."min_deposit_usdt_micros" > 0)
);
--> statement-breakpoint
CREATE TABLE "admin_settings_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"changed_by_user_id" uuid,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_user_id" uuid,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"target_user_id" uuid,
	"before" jsonb,
	"after" jsonb,
	"ip_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"account_holder_name" text NOT NULL,
	"account_number" text NOT NULL,
	"bank_name" text NOT NULL,
	"ifsc_code" text NOT NULL,
	"upi_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_accounts_holder_length" CHECK (char_length("bank_accounts"."account_holder_name") between 2 and 100),
	CONSTRAINT "bank_accounts_number_shape" CHECK ("bank_accounts"."account_number" ~ '^[0-9]{9,18}$'),
	CONSTRAINT "bank_accounts_bank_length" CHECK (char_length("bank_accounts"."bank_name") between 2 and 100),
	CONSTRAINT "bank_accounts_ifsc_shape" CHECK ("bank_accounts"."ifsc_code" ~ '^[A-Z]{4}0[A-Z0-9]{6}$'),
	CONSTRAINT "bank_accounts_upi_shape" CHECK ("bank_accounts"."upi_id" is null or "bank_accounts"."upi_id" ~ '^[A-Za-z0-9._-]{2,64}@[A-Za-z][A-Za-z0-9.-]{1,63}$')
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"operation" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" smallint NOT NULL,
	"response_body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"balance_usdt_micros" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_kind_valid" CHECK ("ledger_accounts"."kind" in ('customer_wallet', 'deposits_received', 'withdrawals_pending', 'withdrawals_paid', 'transfers_pending', 'referral_rewards')),
	CONSTRAINT "ledger_accounts_wallet_has_owner" CHECK (("ledger_accounts"."kind" = 'customer_wallet') = ("ledger_accounts"."user_id" is not null)),
	CONSTRAINT "ledger_accounts_wallet_not_negative" CHECK ("ledger_accounts"."kind" <> 'customer_wallet' or "ledger_accounts"."balance_usdt_micros" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"from_account_id" bigint NOT NULL,
	"to_account_id" bigint NOT NULL,
	"amount_usdt_micros" bigint NOT NULL,
	"reason" text NOT NULL,
	"reference_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_transfers_amount_positive" CHECK ("ledger_transfers"."amount_usdt_micros" > 0),
	CONSTRAINT "ledger_transfers_distinct_accounts" CHECK ("ledger_transfers"."from_account_id" <> "ledger_transfers"."to_account_id"),
	CONSTRAINT "ledger_transfers_reason_valid" CHECK ("ledger_transfers"."reason" in ('deposit_credit', 'withdrawal_hold', 'withdrawal_payout', 'withdrawal_refund', 'transfer_hold', 'transfer_credit', 'transfer_refund', 'referral_reward'))
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text,
	"html_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"delivered" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"role" text DEFAULT 'user' NOT NULL,
	"vip_level" text DEFAULT 'normal' NOT NULL,
	"referral_code" text NOT NULL,
	"referred_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_role_valid" CHECK ("profiles"."role" in ('user', 'admin')),
	CONSTRAINT "profiles_vip_level_valid" CHECK ("profiles"."vip_level" in ('normal', 'vip', 'vip1', 'vip2', 'vip3')),
	CONSTRAINT "profiles_name_length" CHECK (char_length("profiles"."name") between 1 and 100),
	CONSTRAINT "profiles_phone_shape" CHECK ("profiles"."phone" ~ '^\+[0-9]{8,15}$'),
	CONSTRAINT "profiles_referral_code_shape" CHECK ("profiles"."referral_code" ~ '^[A-Z]{5}[A-Z0-9]{5}$'),
	CONSTRAINT "profiles_not_self_referred" CHECK ("profiles"."referred_by_user_id" is distinct from "profiles"."user_id")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_rewards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"referrer_user_id" uuid NOT NULL,
	"referred_user_id" uuid NOT NULL,
	"deposit_id" uuid NOT NULL,
	"level" smallint NOT NULL,
	"reward_usdt_micros" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_rewards_level_valid" CHECK ("referral_rewards"."level" in (1, 2)),
	CONSTRAINT "referral_rewards_amount_positive" CHECK ("referral_rewards"."reward_usdt_micros" > 0)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" "bytea" NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"pin_verified_at" timestamp with time zone,
	"ip_address" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purpose" text NOT NULL,
	"original_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"uploaded_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_purpose_valid" CHECK ("stored_files"."purpose" in ('qr_trc20', 'qr_erc20', 'apk')),
	CONSTRAINT "stored_files_size_positive" CHECK ("stored_files"."size_bytes" > 0),
	CONSTRAINT "stored_files_name_length" CHECK (char_length("stored_files"."original_name") between 1 and 255)
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"sender_user_id" uuid NOT NULL,
	"recipient_user_id" uuid NOT NULL,
	"amount_usdt_micros" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by_user_id" uuid,
	"rejection_reason" text,
	CONSTRAINT "transfers_amount_positive" CHECK ("transfers"."amount_usdt_micros" > 0),
	CONSTRAINT "transfers_not_to_self" CHECK ("transfers"."sender_user_id" <> "transfers"."recipient_user_id"),
	CONSTRAINT "transfers_status_valid" CHECK ("transfers"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "transfers_decision_consistent" CHECK (("transfers"."status" = 'pending') = ("transfers"."decided_at" is null)),
	CONSTRAINT "transfers_reason_length" CHECK ("transfers"."rejection_reason" is null or char_length("transfers"."rejection_reason") <= 500)
);
--> statement-breakpoint
CREATE TABLE "usdt_deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"network" text NOT NULL,
	"amount_usdt_micros" bigint NOT NULL,
	"transaction_hash" text NOT NULL,
	"deposit_address" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by_user_id" uuid,
	"rejection_reason" text,
	CONSTRAINT "usdt_deposits_network_valid" CHECK ("usdt_deposits"."network" in ('TRC20', 'ERC20')),
	CONSTRAINT "usdt_deposits_amount_positive" CHECK ("usdt_deposits"."amount_usdt_micros" > 0),
	CONSTRAINT "usdt_deposits_status_valid" CHECK ("usdt_deposits"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "usdt_deposits_hash_shape" CHECK (("usdt_deposits"."network" = 'TRC20' and "usdt_deposits"."transaction_hash" ~ '^[0-9a-f]{64}$') or ("usdt_deposits"."network" = 'ERC20' and "usdt_deposits"."transaction_hash" ~ '^0x[0-9a-f]{64}$')),
	CONSTRAINT "usdt_deposits_decision_consistent" CHECK (("usdt_deposits"."status" = 'pending') = ("usdt_deposits"."decided_at" is null)),
	CONSTRAINT "usdt_deposits_reason_length" CHECK ("usdt_deposits"."rejection_reason" is null or char_length("usdt_deposits"."rejection_reason") <= 500)
);
--> statement-breakpoint
CREATE TABLE "user_pins" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"pin_hash" text NOT NULL,
	"failed_attempts" smallint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_pins_failed_attempts_range" CHECK ("user_pins"."failed_attempts" between 0 and 3)
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_length" CHECK (char_length("users"."email") between 3 and 254)
);
--> statement-breakpoint
CREATE TABLE "withdrawal_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"bank_account_id" uuid,
	"account_holder_name" text NOT NULL,
	"account_number" text NOT NULL,
	"bank_name" text NOT NULL,
	"ifsc_code" text NOT NULL,
	"upi_id" text,
	"amount_usdt_micros" bigint NOT NULL,
	"rate_inr_paise" bigint NOT NULL,
	"rate_tier" text NOT NULL,
	"amount_inr_paise" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by_user_id" uuid,
	"payout_reference" text,
	"rejection_reason" text,
	CONSTRAINT "withdrawal_requests_amount_positive" CHECK ("withdrawal_requests"."amount_usdt_micros" > 0 and "withdrawal_requests"."amount_inr_paise" >= 0),
	CONSTRAINT "withdrawal_requests_amount_cents" CHECK ("withdrawal_requests"."amount_usdt_micros" % 10000 = 0),
	CONSTRAINT "withdrawal_requests_rate_positive" CHECK ("withdrawal_requests"."rate_inr_paise" > 0),
	CONSTRAINT "withdrawal_requests_rate_tier_valid" CHECK ("withdrawal_requests"."rate_tier" in ('normal', 'vip')),
	CONSTRAINT "withdrawal_requests_status_valid" CHECK ("withdrawal_requests"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "withdrawal_requests_decision_consistent" CHECK (("withdrawal_requests"."status" = 'pending') = ("withdrawal_requests"."decided_at" is null)),
	CONSTRAINT "withdrawal_requests_approved_at" CHECK (("withdrawal_requests"."status" = 'approved') = ("withdrawal_requests"."approved_at" is not null)),
	CONSTRAINT "withdrawal_requests_reference_length" CHECK ("withdrawal_requests"."payout_reference" is null or char_length("withdrawal_requests"."payout_reference") <= 64),
	CONSTRAINT "withdrawal_requests_reason_length" CHECK ("withdrawal_requests"."rejection_reason" is null or char_length("withdrawal_requests"."rejection_reason") <= 500)
);
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_trc20_qr_file_id_stored_files_id_fk" FOREIGN KEY ("trc20_qr_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_erc20_qr_file_id_stored_files_id_fk" FOREIGN KEY ("erc20_qr_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_apk_file_id_stored_files_id_fk" FOREIGN KEY ("apk_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_settings_history" ADD CONSTRAINT "admin_settings_history_changed_by_user_id_users_id_fk" FOREIGN KEY ("changed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_from_account_id_ledger_accounts_id_fk" FOREIGN KEY ("from_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_to_account_id_ledger_accounts_id_fk" FOREIGN KEY ("to_account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_referred_by_user_id_users_id_fk" FOREIGN KEY ("referred_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_referrer_user_id_users_id_fk" FOREIGN KEY ("referrer_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_referred_user_id_users_id_fk" FOREIGN KEY ("referred_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_deposit_id_usdt_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."usdt_deposits"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_sender_user_id_users_id_fk" FOREIGN KEY ("sender_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usdt_deposits" ADD CONSTRAINT "usdt_deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usdt_deposits" ADD CONSTRAINT "usdt_deposits_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_pins" ADD CONSTRAINT "user_pins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_target_user_idx" ON "audit_log" USING btree ("target_user_id","created_at");--> statement-breakpoint
CREATE INDEX "bank_accounts_user_idx" ON "bank_accounts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_wallet_unique" ON "ledger_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_house_unique" ON "ledger_accounts" USING btree ("kind") WHERE "ledger_accounts"."user_id" is null;--> statement-breakpoint
CREATE INDEX "ledger_transfers_from_idx" ON "ledger_transfers" USING btree ("from_account_id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_to_idx" ON "ledger_transfers" USING btree ("to_account_id");--> statement-breakpoint
CREATE INDEX "ledger_transfers_reference_idx" ON "ledger_transfers" USING btree ("reference_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_pending_idx" ON "mail_outbox" USING btree ("created_at") WHERE not "mail_outbox"."delivered";--> statement-breakpoint
CREATE UNIQUE INDEX "password_reset_tokens_hash_unique" ON "password_reset_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_referral_code_unique" ON "profiles" USING btree ("referral_code");--> statement-breakpoint
CREATE INDEX "profiles_referred_by_idx" ON "profiles" USING btree ("referred_by_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "referral_rewards_deposit_level_unique" ON "referral_rewards" USING btree ("deposit_id","level");--> statement-breakpoint
CREATE INDEX "referral_rewards_referrer_idx" ON "referral_rewards" USING btree ("referrer_user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_unique" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stored_files_storage_key_unique" ON "stored_files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "transfers_sender_idx" ON "transfers" USING btree ("sender_user_id","created_at");--> statement-breakpoint
CREATE INDEX "transfers_recipient_idx" ON "transfers" USING btree ("recipient_user_id","created_at");--> statement-breakpoint
CREATE INDEX "transfers_status_idx" ON "transfers" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "usdt_deposits_network_hash_unique" ON "usdt_deposits" USING btree ("network","transaction_hash");--> statement-breakpoint
CREATE INDEX "usdt_deposits_user_idx" ON "usdt_deposits" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "usdt_deposits_status_idx" ON "usdt_deposits" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "withdrawal_requests_user_idx" ON "withdrawal_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawal_requests_status_idx" ON "withdrawal_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "withdrawal_requests_bank_account_idx" ON "withdrawal_requests" USING btree ("bank_account_id");