ALTER TABLE "kyc_images" ADD COLUMN "liveness_challenge_id" uuid;
--> statement-breakpoint
CREATE UNIQUE INDEX "kyc_images_liveness_challenge_unique" ON "kyc_images" ("liveness_challenge_id") WHERE "liveness_challenge_id" is not null;
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD COLUMN "refresh_notice_due_at" timestamp with time zone;
