-- Issue 31 section 1, decision 062: a second payout provider (Cashfree Payouts V2). A withdrawal handed to a provider
-- keeps the name of that provider as its route, so a process configured for one provider never sends, polls or
-- settles a payout another provider has (a switch of PAYOUT_PROVIDER cannot pay a withdrawal twice).
ALTER TABLE "withdrawal_requests" DROP CONSTRAINT "withdrawal_requests_payout_route_valid";
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_payout_route_valid" CHECK ("payout_route" is null or "payout_route" in ('bank_file', 'razorpayx', 'cashfree'));
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" DROP CONSTRAINT "withdrawal_requests_provider_not_in_batch";
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_provider_not_in_batch" CHECK ("payout_route" is null or "payout_route" = 'bank_file' or "payout_batch_id" is null);
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" DROP CONSTRAINT "withdrawal_requests_batch_consistent";
--> statement-breakpoint
ALTER TABLE "withdrawal_requests" ADD CONSTRAINT "withdrawal_requests_batch_consistent" CHECK (("status" <> 'processing' or "payout_batch_id" is not null or "payout_route" in ('razorpayx', 'cashfree')) and ("status" <> 'pending' or "payout_batch_id" is null));
--> statement-breakpoint
DROP INDEX "withdrawal_requests_provider_processing_idx";
--> statement-breakpoint
CREATE INDEX "withdrawal_requests_provider_processing_idx" ON "withdrawal_requests" USING btree ("payout_route", "created_at") WHERE "status" = 'processing' and "payout_route" in ('razorpayx', 'cashfree');
--> statement-breakpoint
-- A withdrawal with a provider stays with it; one in a bank file never goes to a provider.
CREATE OR REPLACE FUNCTION "withdrawal_payout_route_kept"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."payout_route" IN ('razorpayx', 'cashfree') AND NEW."payout_route" IS DISTINCT FROM OLD."payout_route" THEN
    RAISE EXCEPTION 'withdrawal % was sent to the payout provider and stays with it', OLD."id" USING ERRCODE = 'check_violation', CONSTRAINT = 'withdrawal_requests_payout_route_kept';
  END IF;
  IF OLD."payout_route" = 'bank_file' AND NEW."payout_route" IN ('razorpayx', 'cashfree') THEN
    RAISE EXCEPTION 'withdrawal % went into a bank file and never goes to the payout provider', OLD."id" USING ERRCODE = 'check_violation', CONSTRAINT = 'withdrawal_requests_payout_route_kept';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
ALTER TABLE "provider_payouts" DROP CONSTRAINT "provider_payouts_route_valid";
--> statement-breakpoint
ALTER TABLE "provider_payouts" ADD CONSTRAINT "provider_payouts_route_valid" CHECK ("payout_route" in ('razorpayx', 'cashfree'));
