import { z } from 'zod';

/*
 * The closed sets of values stored in the database and sent on the wire. The
 * Drizzle column types, the contracts and the web app's labels all take them
 * from here, so a new value is added in one place (and in the table's check
 * constraint by a migration).
 */

export const ROLES = ['user', 'admin'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** The languages of the customer's screens and e-mails (issue 33). */
export const LANGUAGES = ['en', 'hi'] as const;
export const languageSchema = z.enum(LANGUAGES);
export type Language = z.infer<typeof languageSchema>;

export const VIP_LEVELS = ['normal', 'vip', 'vip1', 'vip2', 'vip3'] as const;
export const vipLevelSchema = z.enum(VIP_LEVELS);
export type VipLevel = z.infer<typeof vipLevelSchema>;

/** Deposits, withdrawals and transfers wait for an admin's decision. */
export const REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const requestStatusSchema = z.enum(REQUEST_STATUSES);
export type RequestStatus = z.infer<typeof requestStatusSchema>;

/**
 * A withdrawal is `processing` while it sits in a payout batch (between pending and approved);
 * `cancelled` when its customer cancelled it while it was still pending (decision 044).
 */
export const WITHDRAWAL_STATUSES = ['pending', 'processing', 'approved', 'rejected', 'cancelled'] as const;
export const withdrawalStatusSchema = z.enum(WITHDRAWAL_STATUSES);
export type WithdrawalStatus = z.infer<typeof withdrawalStatusSchema>;

/** The rate a withdrawal was priced at. */
export const RATE_TIERS = ['normal', 'vip'] as const;
export const rateTierSchema = z.enum(RATE_TIERS);
export type RateTier = z.infer<typeof rateTierSchema>;

export const DEPOSIT_NETWORKS = ['TRC20', 'ERC20'] as const;
export const depositNetworkSchema = z.enum(DEPOSIT_NETWORKS, { message: 'Network must be TRC20 or ERC20' });
export type DepositNetwork = z.infer<typeof depositNetworkSchema>;

/** Two-person control (decision 017): what waits for a second admin, and how it ended. */
export const PENDING_CHANGE_KINDS = [
  'deposit_address',
  'large_withdrawal_approval',
  'admin_role_grant',
  'admin_role_removal',
  'exchange_rates',
  'large_withdrawal_limit',
  'app_file',
  'deposit_override',
  'payout_batch_cancel',
  'chain_incident_settlement',
  'deposit_xpub',
  'account_unfreeze',
  'kyc_level2_approval',
  'payee_acceptance',
  'payee_rejection',
] as const;
export const pendingChangeKindSchema = z.enum(PENDING_CHANGE_KINDS);
export type PendingChangeKind = z.infer<typeof pendingChangeKindSchema>;
export const PENDING_CHANGE_STATUSES = ['open', 'confirmed', 'discarded'] as const;
export type PendingChangeStatus = (typeof PENDING_CHANGE_STATUSES)[number];

/** Every action the server records in the audit log. */
export const AUDIT_ACTIONS = [
  'deposit.approve',
  'deposit.reject',
  'deposit.assign',
  'withdrawal.approve',
  'withdrawal.reject',
  'withdrawal.reverse',
  'withdrawal.cancel',
  'withdrawals.export',
  'transfer.approve',
  'transfer.reject',
  'settings.update',
  'settings.file_upload',
  'user.update',
  'user.sessions_revoke',
  'wallet.add',
  'wallet.remove',
  'payout_batch.create',
  'payout_batch.download',
  'payout_batch.results',
  'payout_batch.cancel',
  'pending_change.request',
  'pending_change.confirm',
  'pending_change.discard',
  'profile.pan_update',
  'kyc.pan_submit',
  'kyc.pan_check',
  'kyc.pan_review',
  'kyc_pan.approve',
  'kyc_pan.reject',
  'kyc.pan_card_upload',
  'kyc_pan.request_card',
  'kyc.freeze',
  'kyc.unfreeze',
  'kyc.risk_set',
  'kyc.tax_residence',
  'kyc.level2_submit',
  'kyc.document_view',
  'kyc.level2_approve',
  'kyc.level2_reject',
  'kyc.level2_request_again',
  'profile.update',
  'account.close',
  'account.reopen',
  'kyc.images_purge',
  'reports.tds_export',
  'chain_incident.settle',
  'deposit_key.set',
  'payee.check',
  'payee.accept',
  'payee.reject',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}
