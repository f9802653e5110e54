-- Issue 32: when the customer proved they read their e-mail and their mobile number. Null until then;
-- existing customers start unverified and are told what is missing (a level 0 customer cannot move money).
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "phone_verified_at" timestamp with time zone;
