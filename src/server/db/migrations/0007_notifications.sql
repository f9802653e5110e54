CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"email_subject" text NOT NULL,
	"email_text" text NOT NULL,
	"email_state" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "notifications_kind_valid" CHECK ("notifications"."kind" in ('deposit_credited', 'deposit_rejected', 'withdrawal_paid', 'withdrawal_rejected', 'transfer_approved', 'transfer_rejected', 'transfer_received')),
	CONSTRAINT "notifications_email_state_valid" CHECK ("notifications"."email_state" in ('pending', 'sent', 'skipped', 'failed')),
	CONSTRAINT "notifications_title_length" CHECK (char_length("notifications"."title") <= 200),
	CONSTRAINT "notifications_body_length" CHECK (char_length("notifications"."body") <= 2000)
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" is null;
--> statement-breakpoint
CREATE INDEX "notifications_email_pending_idx" ON "notifications" USING btree ("created_at") WHERE "notifications"."email_state" = 'pending';
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email_deposits" boolean DEFAULT true NOT NULL,
	"email_withdrawals" boolean DEFAULT true NOT NULL,
	"email_transfers" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
