-- Issue 31, decision 038: a bank file is issued once, UTRs are unique, every withdrawal has a short reference.

-- The short reference of a withdrawal (RD and 8 letters or digits, no 0/O/1/I so that it can be read
-- aloud and typed from a bank statement): a database default, so every insert path gets one.
CREATE FUNCTION "withdrawal_short_reference"() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  candidate text;
BEGIN
  LOOP
    candidate := 'RD';
    FOR position IN 1..8 LOOP
      candidate := candidate || substr(alphabet, 1 + floor(random() * 32)::int, 1);
    END LOOP;
    -- The unique index is the guarantee; this only spares an insert the rare collision.
    EXIT WHEN NOT EXISTS (SELECT 1 FROM "withdrawal_requests" WHERE "reference" = candidate);
  END LOOP;
  RETURN candidate;
END
$$;
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD COLUMN "reference" text;
--> statement-breakpoint
UPDATE "withdrawal_requests" SET "reference" = "withdrawal_short_reference"() WHERE "reference" IS NULL;
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ALTER COLUMN "reference" SET DEFAULT "withdrawal_short_reference"();
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ALTER COLUMN "reference" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_reference_shape" CHECK ("reference" ~ '^[A-Z0-9]{6,20}$');
--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawal_requests_reference_idx" ON "withdrawal_requests" USING btree ("reference");
--> statement-breakpoint
-- One UTR pays one withdrawal: a results file (or an approval) reusing one is refused.
CREATE UNIQUE INDEX "withdrawal_requests_payout_reference_idx" ON "withdrawal_requests" USING btree ("payout_reference") WHERE "payout_reference" IS NOT NULL;
--> statement-breakpoint
-- The second-approval rule adds up a payee account's withdrawals over a rolling window (decision 038).
CREATE INDEX "withdrawal_requests_payee_idx" ON "withdrawal_requests" USING btree ("account_number","ifsc_code");
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD COLUMN "issued_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD COLUMN "issued_by_user_id" uuid;
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD COLUMN "file_sha256" text;
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_issued_by_user_id_users_id_fk" FOREIGN KEY ("issued_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_issued_consistent" CHECK (("issued_at" is null) = ("file_sha256" is null) and ("file_sha256" is null or "file_sha256" ~ '^[0-9a-f]{64}$'));
--> statement-breakpoint
CREATE TABLE "payout_batch_downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payout_batch_id" uuid NOT NULL,
	"downloaded_by_user_id" uuid,
	"downloaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"file_sha256" text NOT NULL,
	CONSTRAINT "payout_batch_downloads_sha256_shape" CHECK ("file_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "payout_batch_downloads" ADD CONSTRAINT "payout_batch_downloads_payout_batch_id_payout_batches_id_fk" FOREIGN KEY ("payout_batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "payout_batch_downloads" ADD CONSTRAINT "payout_batch_downloads_downloaded_by_user_id_users_id_fk" FOREIGN KEY ("downloaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "payout_batch_downloads_batch_idx" ON "payout_batch_downloads" USING btree ("payout_batch_id","downloaded_at");
--> statement-breakpoint
-- The cancel of an issued file waits for a second admin: a new pending-change kind. The check is
-- extended from its current definition, so that kinds added by other migrations are kept.
DO $$
DECLARE
  definition text;
BEGIN
  SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint WHERE conname = 'pending_changes_kind_valid' AND conrelid = 'pending_changes'::regclass;
  IF position('payout_batch_cancel' in definition) = 0 THEN
    ALTER TABLE "pending_changes" DROP CONSTRAINT "pending_changes_kind_valid";
    EXECUTE 'ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_kind_valid" CHECK ((' || substring(definition from '^CHECK \((.*)\)$') || ') or "kind" = ''payout_batch_cancel'')';
  END IF;
END
$$;
