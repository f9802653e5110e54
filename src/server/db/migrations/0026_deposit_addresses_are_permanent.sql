-- A deposit address, once handed out, belongs to its customer for good (docs/decisions/035): money sent to it
-- months later must still be credited to that customer, and its index must never be derived for anyone else.
-- So its rows are never changed or removed, whoever asks.
CREATE FUNCTION deposit_addresses_are_permanent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'deposit_addresses rows are permanent (% refused)', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER deposit_addresses_no_update_or_delete
  BEFORE UPDATE OR DELETE ON deposit_addresses
  FOR EACH ROW EXECUTE FUNCTION deposit_addresses_are_permanent();
--> statement-breakpoint
CREATE TRIGGER deposit_addresses_no_truncate
  BEFORE TRUNCATE ON deposit_addresses
  FOR EACH STATEMENT EXECUTE FUNCTION deposit_addresses_are_permanent();
