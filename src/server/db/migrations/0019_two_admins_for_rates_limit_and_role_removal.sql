-- Two-person control (decisions 017 and 023): while two or more admins exist, a change of the exchange
-- rates, a raise of the large-withdrawal amount, the removal of an admin's role and a new app file also wait for a second admin.
ALTER TABLE "pending_changes" DROP CONSTRAINT "pending_changes_kind_valid";
--> statement-breakpoint
ALTER TABLE "pending_changes" ADD CONSTRAINT "pending_changes_kind_valid"
  CHECK ("pending_changes"."kind" in ('deposit_address', 'large_withdrawal_approval', 'admin_role_grant', 'admin_role_removal', 'exchange_rates', 'large_withdrawal_limit', 'app_file'));
