-- Past an account's ceiling of wrong passwords, its password checks run one at a time, whichever
-- server and address they come from (decision 026): next_check_at is when the last check claimed
-- may run; each new one claims the delay after it, or is refused when that is too far away.
CREATE TABLE "rate_limit_slots" (
  "key" text PRIMARY KEY NOT NULL,
  "next_check_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Browsers that signed in to an account before (a random token in an HttpOnly cookie, stored as its
-- SHA-256): they skip that queue, so guessing from elsewhere does not keep the owner out.
CREATE TABLE "known_devices" (
  "token_hash" bytea NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_signed_in_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "known_devices_pkey" PRIMARY KEY ("token_hash", "user_id")
);
--> statement-breakpoint
CREATE INDEX "known_devices_user_id_index" ON "known_devices" ("user_id");
