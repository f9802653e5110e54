-- Issues 32 and 33: the operator's identity and its grievance officer, shown in the footer, on the terms and privacy
-- pages and in the consent and privacy notice; empty until an admin fills them in (the pages then leave them out).
ALTER TABLE "admin_settings" ADD COLUMN "operator_legal_name" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "operator_address" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "operator_registration" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "grievance_officer_name" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "grievance_officer_email" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "grievance_officer_phone" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_operator_identity_lengths" CHECK (char_length("admin_settings"."operator_legal_name") <= 200 and char_length("admin_settings"."operator_address") <= 500 and char_length("admin_settings"."operator_registration") <= 100 and char_length("admin_settings"."grievance_officer_name") <= 200 and char_length("admin_settings"."grievance_officer_email") <= 254 and char_length("admin_settings"."grievance_officer_phone") <= 20);
--> statement-breakpoint
-- A customer's acceptance of the consent and privacy notice, before KYC starts: when, from which address and which
-- version of the notice. Kept with the KYC records (never deleted with them earlier than they are).
CREATE TABLE "consent_acceptances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"notice_version" text NOT NULL,
	"ip_address" text,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consent_acceptances_version_length" CHECK (char_length("consent_acceptances"."notice_version") between 1 and 40)
);
--> statement-breakpoint
ALTER TABLE "consent_acceptances" ADD CONSTRAINT "consent_acceptances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "consent_acceptances_user_version_unique" ON "consent_acceptances" USING btree ("user_id","notice_version");
