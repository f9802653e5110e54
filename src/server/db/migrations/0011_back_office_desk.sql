-- The operator's dashboard (issue 13, item 8) reads only running totals, never a whole table (decision 014):
-- withdrawals in a payout batch (processing) beside the pending ones, the customers' balances kept apart
-- from the house accounts so that the two can be compared, and what was paid and credited each day.
ALTER TABLE "summary_totals" DROP CONSTRAINT "summary_totals_name_valid";
--> statement-breakpoint
ALTER TABLE "summary_totals" ADD CONSTRAINT "summary_totals_name_valid"
  CHECK ("name" in ('users', 'pending_deposits', 'pending_withdrawals', 'processing_withdrawals', 'pending_transfers', 'customer_balances'));
--> statement-breakpoint
-- The function of migration 0006, now told which state it sums (TG_ARGV[1], 'pending' when absent), so that
-- the same code keeps the processing withdrawals' row.
CREATE OR REPLACE FUNCTION summary_totals_sum_pending() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted_status text := coalesce(TG_ARGV[1], 'pending');
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
      FROM new_rows WHERE status = counted_status;
    ELSE
      SELECT count(*), coalesce(sum(amount_usdt_micros), 0) INTO added_count, added_usdt FROM new_rows WHERE status = counted_status;
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF TG_TABLE_NAME = 'withdrawal_requests' THEN
      SELECT count(*), coalesce(sum(amount_usdt_micros), 0), coalesce(sum(amount_inr_paise), 0) INTO removed_count, removed_usdt, removed_inr
      FROM old_rows WHERE status = counted_status;
    ELSE
      SELECT count(*), coalesce(sum(amount_usdt_micros), 0) INTO removed_count, removed_usdt FROM old_rows WHERE status = counted_status;
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
INSERT INTO "summary_totals" ("name", "item_count", "amount_usdt_micros", "amount_inr_paise")
SELECT 'processing_withdrawals', count(*), coalesce(sum("amount_usdt_micros"), 0), coalesce(sum("amount_inr_paise"), 0)
FROM "withdrawal_requests" WHERE "status" = 'processing';
--> statement-breakpoint
-- Triggers fire in name order, so every statement on withdrawal_requests locks this row before the
-- pending one ('processing' sorts before 'summary'): two writers cannot wait on the two rows crosswise.
CREATE TRIGGER withdrawal_requests_processing_summary_insert AFTER INSERT ON withdrawal_requests REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('processing_withdrawals', 'processing');
--> statement-breakpoint
CREATE TRIGGER withdrawal_requests_processing_summary_update AFTER UPDATE ON withdrawal_requests REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('processing_withdrawals', 'processing');
--> statement-breakpoint
CREATE TRIGGER withdrawal_requests_processing_summary_delete AFTER DELETE ON withdrawal_requests REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION summary_totals_sum_pending('processing_withdrawals', 'processing');
--> statement-breakpoint
-- The customers' wallets added up, kept apart from the house accounts: the dashboard shows both, and
-- the books balance when this total plus the five house accounts is zero. The triggers are deferred to
-- the commit, so the row is locked after every ledger account a transaction touches (never before one),
-- and two money transactions cannot wait on each other through it.
INSERT INTO "summary_totals" ("name", "item_count", "amount_usdt_micros", "amount_inr_paise")
SELECT 'customer_balances', 0, coalesce(sum("balance_usdt_micros"), 0), 0 FROM "ledger_accounts" WHERE "user_id" IS NOT NULL;
--> statement-breakpoint
-- Only balances are summed (item_count stays 0): a new wallet opens at zero and touches nothing.
CREATE FUNCTION summary_totals_customer_balances() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint := 0;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    delta := delta + NEW.balance_usdt_micros;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    delta := delta - OLD.balance_usdt_micros;
  END IF;
  IF delta <> 0 THEN
    UPDATE summary_totals SET amount_usdt_micros = amount_usdt_micros + delta WHERE name = 'customer_balances';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_accounts_customer_balances_insert AFTER INSERT ON ledger_accounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.user_id IS NOT NULL AND NEW.balance_usdt_micros <> 0)
  EXECUTE FUNCTION summary_totals_customer_balances();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_accounts_customer_balances_update AFTER UPDATE ON ledger_accounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.user_id IS NOT NULL AND NEW.user_id IS NOT NULL AND OLD.balance_usdt_micros <> NEW.balance_usdt_micros)
  EXECUTE FUNCTION summary_totals_customer_balances();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_accounts_customer_balances_delete AFTER DELETE ON ledger_accounts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.user_id IS NOT NULL AND OLD.balance_usdt_micros <> 0)
  EXECUTE FUNCTION summary_totals_customer_balances();
--> statement-breakpoint
-- What was paid out (withdrawals approved) and credited (deposits approved) per day in India time, counted
-- when a request becomes approved, in the same transaction. A day's row is one short lock per decision,
-- taken with the decision's status change, before any ledger account.
CREATE TABLE "daily_totals" (
  "day" date NOT NULL,
  "name" text NOT NULL,
  "item_count" bigint NOT NULL DEFAULT 0,
  "amount_usdt_micros" bigint NOT NULL DEFAULT 0,
  "amount_inr_paise" bigint NOT NULL DEFAULT 0,
  CONSTRAINT "daily_totals_pk" PRIMARY KEY ("day", "name"),
  CONSTRAINT "daily_totals_name_valid" CHECK ("name" in ('withdrawals_paid', 'deposits_credited')),
  CONSTRAINT "daily_totals_not_negative" CHECK ("item_count" >= 0 and "amount_usdt_micros" >= 0 and "amount_inr_paise" >= 0)
);
--> statement-breakpoint
INSERT INTO "daily_totals" ("day", "name", "item_count", "amount_usdt_micros", "amount_inr_paise")
SELECT ("decided_at" AT TIME ZONE 'Asia/Kolkata')::date, 'withdrawals_paid', count(*), sum("amount_usdt_micros"), sum("amount_inr_paise")
FROM "withdrawal_requests" WHERE "status" = 'approved' GROUP BY 1
UNION ALL
SELECT ("decided_at" AT TIME ZONE 'Asia/Kolkata')::date, 'deposits_credited', count(*), sum("amount_usdt_micros"), 0
FROM "usdt_deposits" WHERE "status" = 'approved' GROUP BY 1;
--> statement-breakpoint
-- For usdt_deposits and withdrawal_requests; TG_ARGV[0] names the totals. Rows that became approved in the
-- statement (inserted approved, or updated from another state) add to the day they were decided.
CREATE FUNCTION daily_totals_add_approved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND TG_TABLE_NAME = 'withdrawal_requests' THEN
    INSERT INTO daily_totals AS t (day, name, item_count, amount_usdt_micros, amount_inr_paise)
    SELECT (n.decided_at AT TIME ZONE 'Asia/Kolkata')::date, TG_ARGV[0], count(*), sum(n.amount_usdt_micros), sum(n.amount_inr_paise)
    FROM new_rows n WHERE n.status = 'approved' GROUP BY 1
    ON CONFLICT (day, name) DO UPDATE SET item_count = t.item_count + excluded.item_count,
      amount_usdt_micros = t.amount_usdt_micros + excluded.amount_usdt_micros, amount_inr_paise = t.amount_inr_paise + excluded.amount_inr_paise;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO daily_totals AS t (day, name, item_count, amount_usdt_micros, amount_inr_paise)
    SELECT (n.decided_at AT TIME ZONE 'Asia/Kolkata')::date, TG_ARGV[0], count(*), sum(n.amount_usdt_micros), 0
    FROM new_rows n WHERE n.status = 'approved' GROUP BY 1
    ON CONFLICT (day, name) DO UPDATE SET item_count = t.item_count + excluded.item_count,
      amount_usdt_micros = t.amount_usdt_micros + excluded.amount_usdt_micros, amount_inr_paise = t.amount_inr_paise + excluded.amount_inr_paise;
  ELSIF TG_TABLE_NAME = 'withdrawal_requests' THEN
    INSERT INTO daily_totals AS t (day, name, item_count, amount_usdt_micros, amount_inr_paise)
    SELECT (n.decided_at AT TIME ZONE 'Asia/Kolkata')::date, TG_ARGV[0], count(*), sum(n.amount_usdt_micros), sum(n.amount_inr_paise)
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status = 'approved' AND o.status <> 'approved' GROUP BY 1
    ON CONFLICT (day, name) DO UPDATE SET item_count = t.item_count + excluded.item_count,
      amount_usdt_micros = t.amount_usdt_micros + excluded.amount_usdt_micros, amount_inr_paise = t.amount_inr_paise + excluded.amount_inr_paise;
  ELSE
    INSERT INTO daily_totals AS t (day, name, item_count, amount_usdt_micros, amount_inr_paise)
    SELECT (n.decided_at AT TIME ZONE 'Asia/Kolkata')::date, TG_ARGV[0], count(*), sum(n.amount_usdt_micros), 0
    FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.status = 'approved' AND o.status <> 'approved' GROUP BY 1
    ON CONFLICT (day, name) DO UPDATE SET item_count = t.item_count + excluded.item_count,
      amount_usdt_micros = t.amount_usdt_micros + excluded.amount_usdt_micros, amount_inr_paise = t.amount_inr_paise + excluded.amount_inr_paise;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER usdt_deposits_daily_insert AFTER INSERT ON usdt_deposits REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION daily_totals_add_approved('deposits_credited');
--> statement-breakpoint
CREATE TRIGGER usdt_deposits_daily_update AFTER UPDATE ON usdt_deposits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION daily_totals_add_approved('deposits_credited');
--> statement-breakpoint
CREATE TRIGGER withdrawal_requests_daily_insert AFTER INSERT ON withdrawal_requests REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION daily_totals_add_approved('withdrawals_paid');
--> statement-breakpoint
CREATE TRIGGER withdrawal_requests_daily_update AFTER UPDATE ON withdrawal_requests REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION daily_totals_add_approved('withdrawals_paid');
--> statement-breakpoint
-- The audit log's search by a person's name or e-mail finds their user ids in user_search (trigram indexes
-- of migration 0006), then their entries as actor or as the user concerned, newest first.
CREATE INDEX "audit_log_actor_user_idx" ON "audit_log" USING btree ("actor_user_id", "created_at");
