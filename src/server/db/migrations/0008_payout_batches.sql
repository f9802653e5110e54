CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"withdrawal_count" integer NOT NULL,
	"total_inr_paise" bigint NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "payout_batches_status_valid" CHECK ("status" in ('open', 'cancelled')),
	CONSTRAINT "payout_batches_cancelled_at" CHECK (("status" = 'cancelled') = ("cancelled_at" is not null)),
	CONSTRAINT "payout_batches_count_positive" CHECK ("withdrawal_count" > 0 and "total_inr_paise" >= 0)
);
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "payout_batches_created_idx" ON "payout_batches" USING btree ("created_at","id");
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD COLUMN "payout_batch_id" uuid;
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_payout_batch_id_payout_batches_id_fk" FOREIGN KEY ("payout_batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "withdrawal_requests_payout_batch_idx" ON "withdrawal_requests" USING btree ("payout_batch_id");
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" DROP CONSTRAINT "withdrawal_requests_status_valid";
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_status_valid" CHECK ("status" in ('pending', 'processing', 'approved', 'rejected'));
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" DROP CONSTRAINT "withdrawal_requests_decision_consistent";
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_decision_consistent" CHECK (("status" in ('pending', 'processing')) = ("decided_at" is null));
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_batch_consistent" CHECK (("status" <> 'processing' or "payout_batch_id" is not null) and ("status" <> 'pending' or "payout_batch_id" is null));
