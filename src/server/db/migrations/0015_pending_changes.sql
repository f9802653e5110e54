-- Two-person control (issue 13, item 3; docs/decisions/017): while two or more admins exist, a deposit
-- address change, the approval of a large withdrawal and a grant of the admin role wait here for a second admin.
ALTER TABLE "admin_settings" ADD COLUMN "large_withdrawal_inr_paise" bigint DEFAULT 20000000 NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_large_withdrawal_positive" CHECK ("large_withdrawal_inr_paise" > 0);
--> statement-breakpoint
CREATE TABLE "pending_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	-- What it is about: the network of an address change, the withdrawal's id for a first approval, the user's id for an admin role grant.
	"subject" text NOT NULL,
	"payload" jsonb NOT NULL,
	"requested_by_user_id" uuid,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_by_user_id" uuid,
	"decided_at" timestamp with time zone,
	CONSTRAINT "pending_changes_kind_valid" CHECK ("kind" in ('deposit_address', 'large_withdrawal_approval', 'admin_role_grant')),
	CONSTRAINT "pending_changes_status_valid" CHECK ("status" in ('open', 'confirmed', 'discarded')),
	CONSTRAINT "pending_changes_decision_consistent" CHECK (("status" = 'open') = ("decided_at" is null)),
	CONSTRAINT "pending_changes_subject_length" CHECK (char_length("subject") between 1 and 64)
);
--> statement-breakpoint
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
-- At most one open change per address network and per withdrawal.
CREATE UNIQUE INDEX "pending_changes_one_open_idx" ON "pending_changes" USING btree ("kind", "subject") WHERE "status" = 'open';
--> statement-breakpoint
CREATE INDEX "pending_changes_requested_idx" ON "pending_changes" USING btree ("requested_at", "id");
