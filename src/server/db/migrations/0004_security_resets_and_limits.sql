-- A forgotten PIN is replaced through a single-use link e-mailed to the account: only the token's SHA-256 is kept.
CREATE TABLE pin_reset_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
--> statement-breakpoint
CREATE UNIQUE INDEX pin_reset_tokens_hash_unique ON pin_reset_tokens (token_hash);
--> statement-breakpoint
CREATE INDEX pin_reset_tokens_user_idx ON pin_reset_tokens (user_id);
--> statement-breakpoint
-- Every wrong PIN of an account, so that at most 10 in any 24 hours are allowed, across sessions and addresses.
CREATE TABLE pin_failures (
  id bigserial PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  failed_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX pin_failures_user_time_idx ON pin_failures (user_id, failed_at);
--> statement-breakpoint
-- When the PIN or the password was last reset: withdrawals and transfers pause for SECURITY_COOLING_OFF_HOURS after it.
ALTER TABLE users ADD COLUMN pin_reset_at timestamptz;
--> statement-breakpoint
ALTER TABLE users ADD COLUMN password_reset_at timestamptz;
--> statement-breakpoint
-- When a bank account was added or its number or IFSC last changed: withdrawals to it pause after that.
ALTER TABLE bank_accounts ADD COLUMN details_changed_at timestamptz;
--> statement-breakpoint
UPDATE bank_accounts SET details_changed_at = created_at;
--> statement-breakpoint
ALTER TABLE bank_accounts ALTER COLUMN details_changed_at SET DEFAULT now();
--> statement-breakpoint
ALTER TABLE bank_accounts ALTER COLUMN details_changed_at SET NOT NULL;
