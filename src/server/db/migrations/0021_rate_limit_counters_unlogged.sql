-- The rate limits' counters and turns are written by every sign-in, PIN check and limited request,
-- each in a transaction of its own. As unlogged tables they write no WAL, so those commits no longer
-- wait for a disk flush. PostgreSQL empties them after a crash, which restarts the current windows
-- (decision 027); every record of money, sessions and wrong PINs stays logged.
ALTER TABLE "rate_limit_buckets" SET UNLOGGED;
--> statement-breakpoint
ALTER TABLE "rate_limit_slots" SET UNLOGGED;
