-- Issue 31, section 2 (decision 064): the bank file of a payout batch in the layout an admin picks, and the
-- layout (and debit account) a batch's file was issued in, so every later download has the same bytes.
ALTER TABLE "admin_settings" ADD COLUMN "payout_file_format" text DEFAULT 'generic' NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "payout_file_debit_account_number" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_payout_file_valid" CHECK ("payout_file_format" in ('generic', 'razorpayx_bulk', 'plural_bulk') and char_length("payout_file_debit_account_number") <= 22);
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD COLUMN "file_format" text;
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD COLUMN "file_debit_account_number" text;
--> statement-breakpoint
-- Files issued before this migration were the generic CSV.
UPDATE "payout_batches" SET "file_format" = 'generic' WHERE "issued_at" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_file_format_valid" CHECK ("file_format" is null or "file_format" in ('generic', 'razorpayx_bulk', 'plural_bulk'));
