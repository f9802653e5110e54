-- The admin user list and its substring search by name, e-mail or phone read one table, user_search,
-- a copy of those three fields and the sign-up time kept by triggers in the same transaction as the
-- users and profiles rows. On one table PostgreSQL can either walk the newest users in order (many
-- matches) or collect the few matches from trigram indexes (few matches); across two tables it can
-- do neither and reads every profile.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "user_search" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "created_at" timestamp with time zone NOT NULL,
  "name" text NOT NULL,
  "email" text NOT NULL,
  "phone" text NOT NULL
);
--> statement-breakpoint
INSERT INTO "user_search" ("user_id", "created_at", "name", "email", "phone")
SELECT p."user_id", u."created_at", p."name", u."email", p."phone" FROM "profiles" p JOIN "users" u ON u."id" = p."user_id";
--> statement-breakpoint
-- Newest first, with the searched fields in the index so that walking it reads no table rows.
CREATE INDEX "user_search_created_idx" ON "user_search" ("created_at", "user_id") INCLUDE ("name", "email", "phone");
--> statement-breakpoint
CREATE INDEX "user_search_name_trigram_idx" ON "user_search" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "user_search_email_trigram_idx" ON "user_search" USING gin ("email" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "user_search_phone_trigram_idx" ON "user_search" USING gin ("phone" gin_trgm_ops);
--> statement-breakpoint
CREATE FUNCTION user_search_copy_profiles() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO user_search (user_id, created_at, name, email, phone)
    SELECT n.user_id, u.created_at, n.name, u.email, n.phone FROM new_rows n JOIN users u ON u.id = n.user_id;
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE user_search s SET name = n.name, phone = n.phone
    FROM new_rows n
    WHERE s.user_id = n.user_id AND (s.name IS DISTINCT FROM n.name OR s.phone IS DISTINCT FROM n.phone);
  ELSE
    DELETE FROM user_search s USING old_rows o WHERE s.user_id = o.user_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER profiles_user_search_insert AFTER INSERT ON profiles REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION user_search_copy_profiles();
--> statement-breakpoint
CREATE TRIGGER profiles_user_search_update AFTER UPDATE ON profiles REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION user_search_copy_profiles();
--> statement-breakpoint
CREATE TRIGGER profiles_user_search_delete AFTER DELETE ON profiles REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION user_search_copy_profiles();
--> statement-breakpoint
CREATE FUNCTION user_search_copy_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE user_search s SET email = n.email, created_at = n.created_at
  FROM new_rows n
  WHERE s.user_id = n.id AND (s.email IS DISTINCT FROM n.email OR s.created_at IS DISTINCT FROM n.created_at);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_user_search_update AFTER UPDATE ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION user_search_copy_users();
--> statement-breakpoint
-- A customer's pending sums (wallet summary) read only that customer's pending requests.
CREATE INDEX "usdt_deposits_user_pending_idx" ON "usdt_deposits" ("user_id") INCLUDE ("amount_usdt_micros") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "withdrawal_requests_user_pending_idx" ON "withdrawal_requests" ("user_id") INCLUDE ("amount_usdt_micros", "amount_inr_paise") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "transfers_sender_pending_idx" ON "transfers" ("sender_user_id") INCLUDE ("amount_usdt_micros") WHERE "status" = 'pending';
--> statement-breakpoint
-- Running totals for the admin dashboard, so that it never counts or sums a whole table: the number of
-- users, and the count and sums of pending deposits, withdrawals and transfers. Triggers keep them in
-- the same transaction as the rows they summarise, whichever code writes those rows.
CREATE TABLE "summary_totals" (
  "name" text PRIMARY KEY NOT NULL,
  "item_count" bigint NOT NULL DEFAULT 0,
  "amount_usdt_micros" bigint NOT NULL DEFAULT 0,
  "amount_inr_paise" bigint NOT NULL DEFAULT 0,
  CONSTRAINT "summary_totals_name_valid" CHECK ("name" in ('users', 'pending_deposits', 'pending_withdrawals', 'pending_transfers')),
  CONSTRAINT "summary_totals_not_negative" CHECK ("item_count" >= 0 and "amount_usdt_micros" >= 0 and "amount_inr_paise" >= 0)
);
--> statement-breakpoint
INSERT INTO "summary_totals" ("name", "item_count", "amount_usdt_micros", "amount_inr_paise")
SELECT 'users', count(*), 0, 0 FROM "users"
UNION ALL
SELECT 'pending_deposits', count(*), coalesce(sum("amount_usdt_micros"), 0), 0 FROM "usdt_deposits" WHERE "status" = 'pending'
UNION ALL
SELECT 'pending_withdrawals', count(*), coalesce(sum("amount_usdt_micros"), 0), coalesce(sum("amount_inr_paise"), 0) FROM "withdrawal_requests" WHERE "status" = 'pending'
UNION ALL
SELECT 'pending_transfers', count(*), coalesce(sum("amount_usdt_micros"), 0), 0 FROM "transfers" WHERE "status" = 'pending';
--> statement-breakpoint
-- Statement-level triggers with transition tables: one update of the totals per statement, however
-- many rows it touched (a bulk insert does not update the totals row once per row).
CREATE FUNCTION summary_totals_count_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM new_rows;
  ELSE
    SELECT -count(*) INTO delta FROM old_rows;
  END IF;
  IF delta <> 0 THEN
    UPDATE summary_totals SET item_count = item_count + delta WHERE name = 'users';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_summary_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_count_users();
--> statement-breakpoint
CREATE TRIGGER users_summary_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_count_users();
--> statement-breakpoint
-- For usdt_deposits, withdrawal_requests and transfers; TG_ARGV[0] names the totals row. Rows entering
-- the pending state add to it, rows leaving it (a decision, or a delete) subtract from it.
CREATE FUNCTION summary_totals_sum_pending() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added_count bigint := 0;
  added_usdt bigint := 0;
  added_inr bigint := 0;
  removed_count bigint := 0;
  removed_usdt bigint := 0;
  removed_inr bigint := 0;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF TG_TABLE_NAME = 'withdrawal_requests' THEN
      SELECT count(*), coalesce(sum(amount_usdt_micros), 0), coalesce(sum(amount_inr_paise), 0) INTO added_count, added_usdt, added_inr
      FROM new_rows WHERE status = 'pending';
    ELSE
      SELECT count(*), coalesce(sum(amount_usdt_micros), 0) INTO added_count, added_usdt FROM new_rows WHERE status = 'pending';
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF TG_TABLE_NAME = 'withdrawal_requests' THEN
      SELECT count(*), coalesce(sum(amount_usdt_micros), 0), coalesce(sum(amount_inr_paise), 0) INTO removed_count, removed_usdt, removed_inr
      FROM old_rows WHERE status = 'pending';
    ELSE
      SELECT count(*), coalesce(sum(amount_usdt_micros), 0) INTO removed_count, removed_usdt FROM old_rows WHERE status = 'pending';
    END IF;
  END IF;
  IF added_count <> removed_count OR added_usdt <> removed_usdt OR added_inr <> removed_inr THEN
    UPDATE summary_totals
    SET item_count = item_count + added_count - removed_count,
        amount_usdt_micros = amount_usdt_micros + added_usdt - removed_usdt,
        amount_inr_paise = amount_inr_paise + added_inr - removed_inr
    WHERE name = TG_ARGV[0];
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER usdt_deposits_summary_insert AFTER INSERT ON usdt_deposits REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('pending_deposits');
--> statement-breakpoint
CREATE TRIGGER usdt_deposits_summary_update AFTER UPDATE ON usdt_deposits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('pending_deposits');
--> statement-breakpoint
CREATE TRIGGER usdt_deposits_summary_delete AFTER DELETE ON usdt_deposits REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('pending_deposits');
--> statement-breakpoint
CREATE TRIGGER withdrawal_requests_summary_insert AFTER INSERT ON withdrawal_requests REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('pending_withdrawals');
--> statement-breakpoint
CREATE TRIGGER withdrawal_requests_summary_update AFTER UPDATE ON withdrawal_requests REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('pending_withdrawals');
--> statement-breakpoint
CREATE TRIGGER withdrawal_requests_summary_delete AFTER DELETE ON withdrawal_requests REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('pending_withdrawals');
--> statement-breakpoint
CREATE TRIGGER transfers_summary_insert AFTER INSERT ON transfers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('pending_transfers');
--> statement-breakpoint
CREATE TRIGGER transfers_summary_update AFTER UPDATE ON transfers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('pending_transfers');
--> statement-breakpoint
CREATE TRIGGER transfers_summary_delete AFTER DELETE ON transfers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('pending_transfers');
