-- Issue 32 (decision 050): KYC level 2. The second document's and the selfie's images, encrypted at rest
-- (envelope encryption: each image's own data key, wrapped by the master key that never enters the
-- database), the level 2 submissions with their trail (IP, time, user agent, position), and the level 2
-- state beside the customer's KYC record.
CREATE TABLE "kyc_images" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE RESTRICT,
  "purpose" text NOT NULL,
  "content_type" text DEFAULT 'image/jpeg' NOT NULL,
  "width" integer NOT NULL,
  "height" integer NOT NULL,
  "size_bytes" integer NOT NULL,
  "master_key_id" text NOT NULL,
  "wrapped_key" bytea NOT NULL,
  "content_iv" bytea NOT NULL,
  "content_tag" bytea NOT NULL,
  "content" bytea NOT NULL,
  "liveness" jsonb,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "kyc_images_purpose_valid" CHECK ("purpose" in ('document_front', 'document_back', 'selfie')),
  CONSTRAINT "kyc_images_content_type_valid" CHECK ("content_type" = 'image/jpeg'),
  CONSTRAINT "kyc_images_size_range" CHECK ("size_bytes" between 1 and 10485760 and "width" between 1 and 10000 and "height" between 1 and 10000),
  CONSTRAINT "kyc_images_key_shapes" CHECK (octet_length("content_iv") = 12 and octet_length("content_tag") = 16 and octet_length("wrapped_key") = 60 and char_length("master_key_id") = 16)
);
--> statement-breakpoint
CREATE INDEX "kyc_images_user_idx" ON "kyc_images" ("user_id", "purpose", "created_at");
--> statement-breakpoint
CREATE TABLE "kyc_level2_submissions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE RESTRICT,
  "status" text DEFAULT 'pending_review' NOT NULL,
  "document_type" text NOT NULL,
  "document_number" text NOT NULL,
  "document_name" text NOT NULL,
  "address_line1" text NOT NULL,
  "address_line2" text,
  "city" text NOT NULL,
  "state" text NOT NULL,
  "pin_code" text NOT NULL,
  "front_image_id" uuid NOT NULL REFERENCES "kyc_images"("id"),
  "back_image_id" uuid REFERENCES "kyc_images"("id"),
  "selfie_image_id" uuid REFERENCES "kyc_images"("id"),
  "ip_address" text NOT NULL,
  "user_agent" text,
  "geolocation_status" text NOT NULL,
  "latitude" double precision,
  "longitude" double precision,
  "accuracy_meters" double precision,
  "submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
  "decided_at" timestamp with time zone,
  "decided_by_user_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "rejection_reason" text,
  "requested_again" text,
  CONSTRAINT "kyc_level2_submissions_status_valid" CHECK ("status" in ('pending_review', 'approved', 'rejected', 'resubmit_requested')),
  CONSTRAINT "kyc_level2_submissions_document_type_valid" CHECK ("document_type" in ('passport', 'driving_licence', 'voter_id', 'aadhaar_masked')),
  CONSTRAINT "kyc_level2_submissions_requested_again_valid" CHECK ("requested_again" is null or "requested_again" in ('document_front', 'document_back', 'selfie', 'address')),
  CONSTRAINT "kyc_level2_submissions_reason_length" CHECK ("rejection_reason" is null or char_length("rejection_reason") between 1 and 500),
  CONSTRAINT "kyc_level2_submissions_text_lengths" CHECK (char_length("document_number") between 4 and 20 and char_length("document_name") between 1 and 100 and char_length("address_line1") between 1 and 200 and char_length(coalesce("address_line2", '')) <= 200 and char_length("city") between 1 and 100 and char_length("state") between 1 and 60 and "pin_code" ~ '^[1-9][0-9]{5}$' and char_length(coalesce("user_agent", '')) <= 512),
  CONSTRAINT "kyc_level2_submissions_geolocation_valid" CHECK ("geolocation_status" in ('granted', 'denied', 'unavailable', 'not_asked') and ("geolocation_status" = 'granted') = ("latitude" is not null and "longitude" is not null))
);
--> statement-breakpoint
CREATE INDEX "kyc_level2_submissions_user_idx" ON "kyc_level2_submissions" ("user_id", "submitted_at");
--> statement-breakpoint
CREATE INDEX "kyc_level2_submissions_review_idx" ON "kyc_level2_submissions" ("submitted_at") WHERE "status" = 'pending_review';
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD COLUMN "level2_status" text DEFAULT 'none' NOT NULL;
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD COLUMN "level2_submission_id" uuid REFERENCES "kyc_level2_submissions"("id");
--> statement-breakpoint
ALTER TABLE "kyc_records" ADD CONSTRAINT "kyc_records_level2_status_valid" CHECK ("level2_status" in ('none', 'pending_review', 'approved', 'rejected', 'resubmit_requested') and (("level2_status" = 'none') = ("level2_submission_id" is null)));
--> statement-breakpoint
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'pending_changes_kind_valid' AND conrelid = 'pending_changes'::regclass;
  IF position('kyc_level2_approval' in definition) = 0 THEN
    ALTER TABLE "pending_changes" DROP CONSTRAINT "pending_changes_kind_valid";
    EXECUTE 'ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" = ''kyc_level2_approval'')';
  END IF;
END
$$;
