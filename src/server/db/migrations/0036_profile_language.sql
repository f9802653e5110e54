-- Issue 33: the language the customer reads the app and its e-mails in, English or Hindi; chosen on the landing page
-- or in the profile, and kept with the account so that another device opens in it too.
ALTER TABLE "profiles" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;
--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_language_valid" CHECK ("profiles"."language" in ('en', 'hi'));
