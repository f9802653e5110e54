-- A network's QR image is shown to customers only when it shows that network's deposit address
-- (decision 023): the upload reads the QR code in the image and records what it shows here, and a
-- change of the address sets the QR image aside. Images uploaded before were never read, so they are
-- set aside now; until an admin uploads a checked one, customers see the QR drawn from the address.
ALTER TABLE "stored_files" ADD COLUMN "qr_content" text;
--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_qr_content_length" CHECK (char_length("stored_files"."qr_content") <= 128);
--> statement-breakpoint
UPDATE "admin_settings" SET "trc20_qr_file_id" = NULL WHERE "trc20_qr_file_id" IS NOT NULL;
--> statement-breakpoint
UPDATE "admin_settings" SET "erc20_qr_file_id" = NULL WHERE "erc20_qr_file_id" IS NOT NULL;
