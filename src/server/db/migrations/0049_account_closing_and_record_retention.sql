-- Issue 32 (decision 060): a customer closes an account with a zero balance; sign-in is disabled and the records
-- are kept. FIU-IND asks for the KYC records, documents and sign-up trail 5 years after the account is closed.
ALTER TABLE "users" ADD COLUMN "closed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD COLUMN "record_retention_years" smallint DEFAULT 5 NOT NULL;
--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_record_retention_years_range" CHECK ("record_retention_years" between 5 and 50);
--> statement-breakpoint
-- A purged image keeps its row (a level 2 submission names it) and loses its sealed bytes.
ALTER TABLE "kyc_images" ADD COLUMN "purged_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "kyc_images" ALTER COLUMN "wrapped_key" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "kyc_images" ALTER COLUMN "content_iv" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "kyc_images" ALTER COLUMN "content_tag" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "kyc_images" ALTER COLUMN "content" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "kyc_images" ADD CONSTRAINT "kyc_images_sealed_until_purged" CHECK (
  ("purged_at" IS NULL) = ("content" IS NOT NULL)
  AND ("purged_at" IS NULL) = ("wrapped_key" IS NOT NULL)
  AND ("purged_at" IS NULL) = ("content_iv" IS NOT NULL)
  AND ("purged_at" IS NULL) = ("content_tag" IS NOT NULL)
);
--> statement-breakpoint
-- Whether a user's records may go: the account was closed at least 5 years ago, the legal floor. The app applies
-- the operator's longer setting on top; the database holds the floor whoever connects.
CREATE FUNCTION records_retention_over(owner uuid) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT closed_at <= now() - interval '5 years' FROM users WHERE id = owner), false)
$$;
--> statement-breakpoint
CREATE FUNCTION kyc_records_are_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION '% rows are kept for 5 years after the account is closed (TRUNCATE refused)', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
  END IF;
  IF NOT records_retention_over(OLD.user_id) THEN
    RAISE EXCEPTION '% rows are kept for 5 years after the account is closed (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER kyc_records_kept BEFORE DELETE ON "kyc_records" FOR EACH ROW EXECUTE FUNCTION kyc_records_are_kept();
--> statement-breakpoint
CREATE TRIGGER kyc_records_kept_truncate BEFORE TRUNCATE ON "kyc_records" FOR EACH STATEMENT EXECUTE FUNCTION kyc_records_are_kept();
--> statement-breakpoint
CREATE TRIGGER signup_trail_kept BEFORE DELETE ON "signup_trail" FOR EACH ROW EXECUTE FUNCTION kyc_records_are_kept();
--> statement-breakpoint
CREATE TRIGGER signup_trail_kept_truncate BEFORE TRUNCATE ON "signup_trail" FOR EACH STATEMENT EXECUTE FUNCTION kyc_records_are_kept();
--> statement-breakpoint
CREATE TRIGGER kyc_level2_submissions_kept BEFORE DELETE ON "kyc_level2_submissions" FOR EACH ROW EXECUTE FUNCTION kyc_records_are_kept();
--> statement-breakpoint
CREATE TRIGGER kyc_level2_submissions_kept_truncate BEFORE TRUNCATE ON "kyc_level2_submissions" FOR EACH STATEMENT EXECUTE FUNCTION kyc_records_are_kept();
--> statement-breakpoint
-- An image's row is never deleted; its bytes go only by a purge after the retention, and a purge is final. Its data
-- key may be wrapped again (a master key's rotation); the sealed image itself is never replaced.
CREATE FUNCTION kyc_images_are_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'kyc_images rows are kept; a purge removes their content (% refused)', TG_OP USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.purged_at IS NOT NULL AND (NEW.purged_at IS NULL OR NEW.content IS NOT NULL) THEN
    RAISE EXCEPTION 'a purged KYC image stays purged' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.purged_at IS NULL AND NEW.purged_at IS NOT NULL AND NOT records_retention_over(OLD.user_id) THEN
    RAISE EXCEPTION 'a KYC image is kept for 5 years after the account is closed (purge refused)' USING ERRCODE = 'restrict_violation';
  END IF;
  IF OLD.purged_at IS NULL AND NEW.purged_at IS NULL
    AND (NEW.content IS DISTINCT FROM OLD.content OR NEW.content_iv IS DISTINCT FROM OLD.content_iv OR NEW.content_tag IS DISTINCT FROM OLD.content_tag) THEN
    RAISE EXCEPTION 'a KYC image''s sealed content is never replaced' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER kyc_images_kept BEFORE UPDATE OR DELETE ON "kyc_images" FOR EACH ROW EXECUTE FUNCTION kyc_images_are_kept();
--> statement-breakpoint
CREATE TRIGGER kyc_images_kept_truncate BEFORE TRUNCATE ON "kyc_images" FOR EACH STATEMENT EXECUTE FUNCTION kyc_images_are_kept();
