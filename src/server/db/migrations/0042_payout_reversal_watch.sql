-- Decision 053: a payout the provider processed is still asked about for a while after it paid its withdrawal, so a
-- reversal whose webhook was lost is found by polling too. The payout worker claims those by when they settled.
CREATE INDEX "provider_payouts_reversal_watch_idx" ON "provider_payouts" USING btree ("settled_at") WHERE "provider_payouts"."state" = 'processed';
