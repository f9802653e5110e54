-- Withdrawal limits by tier and TDS (section 194S), see docs/decisions/018. Limits are micro-USDT, null meaning
-- no limit; the TDS rate is kept in basis points (1 % = 100) so the deduction is integer arithmetic.
ALTER TABLE "admin_settings"
  ADD COLUMN "withdrawal_daily_limit_normal_usdt_micros" bigint,
  ADD COLUMN "withdrawal_monthly_limit_normal_usdt_micros" bigint,
  ADD COLUMN "withdrawal_daily_limit_vip_usdt_micros" bigint,
  ADD COLUMN "withdrawal_monthly_limit_vip_usdt_micros" bigint,
  ADD COLUMN "withdrawal_min_usdt_micros" bigint,
  ADD COLUMN "withdrawal_max_usdt_micros" bigint,
  ADD COLUMN "tds_basis_points" integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_withdrawal_limits_positive" CHECK (
  coalesce("withdrawal_daily_limit_normal_usdt_micros", 1) > 0
  and coalesce("withdrawal_monthly_limit_normal_usdt_micros", 1) > 0
  and coalesce("withdrawal_daily_limit_vip_usdt_micros", 1) > 0
  and coalesce("withdrawal_monthly_limit_vip_usdt_micros", 1) > 0
  and coalesce("withdrawal_min_usdt_micros", 1) > 0
  and coalesce("withdrawal_max_usdt_micros", 1) > 0
);
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_tds_range" CHECK ("tds_basis_points" between 0 and 3000);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "pan" text;
--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_pan_shape" CHECK ("pan" is null or "pan" ~ '^[A-Z]{5}[0-9]{4}[A-Z]$');
--> statement-breakpoint
ALTER TABLE "withdrawal_requests"
  ADD COLUMN "tds_basis_points" integer NOT NULL DEFAULT 0,
  ADD COLUMN "tds_inr_paise" bigint NOT NULL DEFAULT 0,
  ADD COLUMN "pan" text;
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_tds_valid" CHECK (
  "tds_basis_points" between 0 and 3000
  and "tds_inr_paise" between 0 and "amount_inr_paise"
  and ("tds_basis_points" > 0 or "tds_inr_paise" = 0)
  and ("tds_basis_points" = 0 or "pan" is not null)
  and ("pan" is null or "pan" ~ '^[A-Z]{5}[0-9]{4}[A-Z]$')
);
--> statement-breakpoint
-- The quarterly TDS report reads withdrawals with a deduction by date.
CREATE INDEX "withdrawal_requests_tds_idx" ON "withdrawal_requests" ("created_at") WHERE "tds_inr_paise" > 0;
