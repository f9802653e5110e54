-- Ledger transfers are facts: they are never changed or removed. Mistakes are corrected by a new transfer.
CREATE FUNCTION ledger_transfers_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_transfers rows are immutable (% refused)', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_transfers_no_update_or_delete
  BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_transfers_are_immutable();
--> statement-breakpoint
CREATE TRIGGER ledger_transfers_no_truncate
  BEFORE TRUNCATE ON ledger_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_transfers_are_immutable();
--> statement-breakpoint
-- The house accounts exist from the start, so that no money operation has to create them under load.
INSERT INTO ledger_accounts (kind) VALUES
  ('deposits_received'),
  ('withdrawals_pending'),
  ('withdrawals_paid'),
  ('transfers_pending'),
  ('referral_rewards');
--> statement-breakpoint
INSERT INTO admin_settings (id) VALUES (1);
