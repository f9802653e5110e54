import { z } from 'zod';
import { cursorQuerySchema, isoDateTimeSchema, uuidSchema } from './common.ts';

/** What a customer is told about: their deposits, withdrawals and transfers being decided. */
export const NOTIFICATION_KINDS = [
  'deposit_credited',
  'deposit_rejected',
  'withdrawal_paid',
  'withdrawal_rejected',
  'withdrawal_cancelled',
  /** The bank's check of a new or changed bank account blocked it (decision 054); e-mailed as a withdrawal notice. */
  'withdrawal_payee_blocked',
  'transfer_approved',
  'transfer_rejected',
  'transfer_received',
  /** Told to every admin: a credited deposit's transfer vanished from the chain (decision 045). */
  'deposit_incident',
  'kyc_required',
  'kyc_updated',
  /** Told to every admin once: a provider payout with an error, or not settled in time (decision 049). */
  'payout_stuck',
  /** Told to every admin when a closed account's balance rises (decision 060). */
  'closed_account_money',
] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

/** The groups of kinds whose e-mails a customer can turn off (security e-mails always go). */
export const NOTIFICATION_CATEGORIES = ['deposits', 'withdrawals', 'transfers'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

export const notificationSchema = z.object({
  id: uuidSchema,
  kind: notificationKindSchema,
  title: z.string(),
  body: z.string(),
  /** The app page about it, e.g. /wallet/transactions/deposit/{id}. */
  link: z.string().nullable(),
  createdAt: isoDateTimeSchema,
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = cursorQuerySchema;
export const notificationListResponseSchema = z.object({
  items: z.array(notificationSchema),
  nextCursor: z.string().nullable(),
  unreadCount: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationListResponseSchema>;

export const unreadCountResponseSchema = z.object({ unreadCount: z.number().int() });

export const notificationPreferencesSchema = z
  .object({
    emailDeposits: z.boolean({ error: 'Choose on or off' }),
    emailWithdrawals: z.boolean({ error: 'Choose on or off' }),
    emailTransfers: z.boolean({ error: 'Choose on or off' }),
  })
  .strict();
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export const notificationPreferencesResponseSchema = z.object({ preferences: notificationPreferencesSchema });
