-- Issue 32: the contact checks. E-mail verification links and mobile one-time codes are stored only as
-- hashes; the SMS outbox is the developer's phone when no SMS_PROVIDER is set; the sign-up trail keeps
-- where and when each account was opened (FIU-IND's guidelines for virtual digital asset providers).
CREATE TABLE "email_verification_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"token_hash" bytea NOT NULL,
	"email" text NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "email_verification_tokens_purpose_valid" CHECK ("purpose" in ('verify', 'change')),
	CONSTRAINT "email_verification_tokens_email_length" CHECK (char_length("email") between 3 and 254)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "email_verification_tokens_hash_unique" ON "email_verification_tokens" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "email_verification_tokens_user_idx" ON "email_verification_tokens" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE TABLE "phone_verification_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"phone" text NOT NULL,
	"code_salt" bytea NOT NULL,
	"code_hash" bytea NOT NULL,
	"failed_attempts" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "phone_verification_codes_failed_attempts_range" CHECK ("failed_attempts" between 0 and 5),
	CONSTRAINT "phone_verification_codes_phone_shape" CHECK ("phone" ~ '^\+[0-9]{8,15}$')
);
--> statement-breakpoint
CREATE INDEX "phone_verification_codes_user_idx" ON "phone_verification_codes" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "phone_verification_codes_phone_idx" ON "phone_verification_codes" USING btree ("phone","created_at");
--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to_number" text NOT NULL,
	"provider" text NOT NULL,
	"body" text,
	"provider_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"delivered" boolean DEFAULT false NOT NULL,
	"last_error" text,
	CONSTRAINT "sms_outbox_provider_valid" CHECK ("provider" in ('outbox', 'msg91', 'twilio'))
);
--> statement-breakpoint
CREATE INDEX "sms_outbox_created_idx" ON "sms_outbox" USING btree ("created_at");
--> statement-breakpoint
CREATE TABLE "signup_trail" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"ip_address" text NOT NULL,
	"user_agent" text,
	"signed_up_at" timestamp with time zone DEFAULT now() NOT NULL,
	"geolocation_status" text NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"accuracy_meters" double precision,
	CONSTRAINT "signup_trail_geolocation_status_valid" CHECK ("geolocation_status" in ('granted', 'denied', 'unavailable', 'not_asked')),
	CONSTRAINT "signup_trail_position_when_granted" CHECK (("geolocation_status" = 'granted') = ("latitude" is not null and "longitude" is not null)),
	CONSTRAINT "signup_trail_latitude_range" CHECK ("latitude" is null or "latitude" between -90 and 90),
	CONSTRAINT "signup_trail_longitude_range" CHECK ("longitude" is null or "longitude" between -180 and 180),
	CONSTRAINT "signup_trail_user_agent_length" CHECK (char_length("user_agent") <= 512)
);
