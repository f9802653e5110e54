-- Issue 31: admins see when a provider payout's last error happened, next to its attempts and the error's text.
ALTER TABLE "provider_payouts" ADD COLUMN "last_error_at" timestamp with time zone;--> statement-breakpoint
UPDATE "provider_payouts" SET "last_error_at" = "updated_at" WHERE "last_error" IS NOT NULL;
