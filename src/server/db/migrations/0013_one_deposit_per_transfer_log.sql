-- One on-chain transaction may carry several USDT transfers to the operator; each (network, hash, log index) may
-- become a deposit of its own, so the hash alone is no longer unique. A customer still submits a hash once: that
-- key now covers submitted deposits only, and the credit key usdt_deposits_chain_log_unique covers every log.
DROP INDEX "usdt_deposits_network_hash_unique";
--> statement-breakpoint
CREATE UNIQUE INDEX "usdt_deposits_customer_hash_unique" ON "usdt_deposits" ("network", "transaction_hash") WHERE "source" = 'customer';
--> statement-breakpoint
CREATE INDEX "usdt_deposits_network_hash_idx" ON "usdt_deposits" ("network", "transaction_hash");
