import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { cursorQuerySchema, decimalStringSchema, isoDateTimeSchema, pageSchema, uuidSchema } from './common.ts';
import { transactionItemSchema, transactionListQuerySchema } from './transactions.ts';
import { roleSchema, vipLevelSchema } from './enums.ts';
import { pendingChangeSchema } from './pending-changes.ts';

export const userNotFoundMessage = (id: string) => `User with ID ${id} was not found`;
export const USER_UPDATED_MESSAGE = 'User updated successfully';
export const SESSIONS_REVOKED_MESSAGE = 'All sessions of this user were ended';
export const OWN_ADMIN_ROLE_MESSAGE = 'You cannot remove your own admin role';
export const OWN_VIP_LEVEL_MESSAGE = 'You cannot change your own VIP level: another admin must.';
/** Issue 9: one admin cannot make a second admin through the web app, or the four-eyes rule would mean nothing. */
export const ROLE_GRANT_SINGLE_ADMIN_MESSAGE = 'With a single admin, the admin role is granted on the server only: npm run admin -- promote <email>.';
export const USER_NOT_FOUND_TITLE = 'User Not Found';
export const NO_USER_TRANSACTIONS_MESSAGE = 'No transactions found for this user';

/* ---------- dashboard ---------- */

/** The house accounts of the ledger, in the order the dashboard lists them. */
export const HOUSE_ACCOUNT_KINDS = ['deposits_received', 'referral_rewards', 'withdrawals_pending', 'transfers_pending', 'withdrawals_paid'] as const;
export const houseAccountKindSchema = z.enum(HOUSE_ACCOUNT_KINDS);
export type HouseAccountKind = z.infer<typeof houseAccountKindSchema>;

/** Most open payout batches the dashboard lists (oldest first); the payouts page lists them all. */
export const DASHBOARD_OPEN_BATCHES_MAX = 20;

/** A queue's waiting requests: how many, how much, and since when (null when none wait). */
const pendingUsdtSchema = z.object({ count: z.number().int(), totalUsdt: decimalStringSchema, oldestAt: isoDateTimeSchema.nullable() });
const pendingWithdrawalsSchema = pendingUsdtSchema.extend({ totalInr: decimalStringSchema });

export const adminDashboardResponseSchema = z.object({
  /** The server's clock when the figures were read, so ages do not depend on the browser's clock. */
  generatedAt: isoDateTimeSchema,
  pendingDeposits: pendingUsdtSchema,
  /** Waiting for a payout batch or a single decision; withdrawals already in a batch are in processingWithdrawals. */
  pendingWithdrawals: pendingWithdrawalsSchema,
  /** In a payout batch, waiting for the bank's results. */
  processingWithdrawals: pendingWithdrawalsSchema,
  pendingTransfers: pendingUsdtSchema,
  /** Today in India (Asia/Kolkata): withdrawals paid out and deposits credited. */
  today: z.object({
    date: z.string(),
    paidWithdrawals: z.object({ count: z.number().int(), totalInr: decimalStringSchema, totalUsdt: decimalStringSchema }),
    creditedDeposits: z.object({ count: z.number().int(), totalUsdt: decimalStringSchema }),
  }),
  /** Sum of every customer wallet in the ledger (kept as a running total of its own). */
  customerBalancesUsdt: decimalStringSchema,
  /**
   * The books: every ledger movement takes from one account what it gives another, so the customer
   * wallets plus the house accounts add up to zero. `differenceUsdt` is that sum; `balanced` is true at zero.
   */
  books: z.object({
    customerBalancesUsdt: decimalStringSchema,
    houseAccounts: z.array(z.object({ kind: houseAccountKindSchema, balanceUsdt: decimalStringSchema })),
    differenceUsdt: decimalStringSchema,
    balanced: z.boolean(),
  }),
  /** Payout batches with withdrawals still processing, oldest first. */
  openPayoutBatches: z
    .array(
      z.object({
        id: z.uuid(),
        createdAt: isoDateTimeSchema,
        count: z.number().int(),
        totalInr: decimalStringSchema,
        processingCount: z.number().int(),
        processingInr: decimalStringSchema,
      }),
    )
    .max(DASHBOARD_OPEN_BATCHES_MAX),
  userCount: z.number().int(),
});
export type AdminDashboard = z.infer<typeof adminDashboardResponseSchema>;

/* ---------- users ---------- */

export const adminUsersQuerySchema = cursorQuerySchema.extend({
  q: z
    .string()
    .trim()
    .max(LIMITS.searchQueryLength, `Search text must be at most ${LIMITS.searchQueryLength} characters`)
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
});

export const adminUserSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: roleSchema,
  vipLevel: vipLevelSchema,
  balanceUsdt: decimalStringSchema,
  createdAt: isoDateTimeSchema,
});
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>;

export const adminUsersResponseSchema = pageSchema(adminUserSummarySchema);

export const adminUserDetailSchema = adminUserSummarySchema.extend({
  referralCode: z.string(),
  referredBy: z.object({ id: z.uuid(), name: z.string(), email: z.string(), referralCode: z.string() }).nullable(),
  referralCount: z.number().int(),
  referralEarningsUsdt: decimalStringSchema,
  hasPin: z.boolean(),
  activeSessionCount: z.number().int(),
  updatedAt: isoDateTimeSchema,
  /** When the customer closed the account (decision 060); null while it is open. */
  closedAt: isoDateTimeSchema.nullable(),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminUserParamsSchema = z.object({ id: uuidSchema });

export const updateAdminUserRequestSchema = z
  .object({
    role: roleSchema.optional(),
    vipLevel: vipLevelSchema.optional(),
  })
  .strict()
  .refine((value) => value.role !== undefined || value.vipLevel !== undefined, { message: 'Choose a role or a VIP level to change' });
export type UpdateAdminUserRequest = z.infer<typeof updateAdminUserRequestSchema>;

/** The admin's access form: both choices, of which only the changed ones are sent. */
export const adminUserAccessFormSchema = z.object({ role: roleSchema, vipLevel: vipLevelSchema });
export type AdminUserAccessForm = z.infer<typeof adminUserAccessFormSchema>;

export const updateAdminUserResponseSchema = z.object({
  message: z.string(),
  user: adminUserDetailSchema,
  /** With 202: the grant of the admin role, waiting for a second admin (the rest of the request is applied). */
  pendingChange: pendingChangeSchema.optional(),
});

export const revokeSessionsResponseSchema = z.object({
  message: z.string(),
  sessionsEnded: z.number().int(),
});

/* ---------- one user's transactions ---------- */

/** Same filters and page size as the customer's own history. */
export const adminUserTransactionsQuerySchema = transactionListQuerySchema;

export const adminUserTransactionsResponseSchema = pageSchema(transactionItemSchema).extend({
  user: adminUserSummarySchema.pick({ id: true, name: true, email: true, phone: true, balanceUsdt: true }),
});
export type AdminUserTransactions = z.infer<typeof adminUserTransactionsResponseSchema>;

/* ---------- audit log ---------- */

/** Most rows in one audit log CSV export (newest first); a narrower filter exports the rest. */
export const AUDIT_LOG_CSV_MAX_ROWS = 5000;

export const AUDIT_LOG_MESSAGES = {
  invalidDate: 'Enter a date as YYYY-MM-DD',
  dateRange: 'The start date must not be after the end date',
} as const;

/** A calendar day in India (YYYY-MM-DD) that exists: 2025-02-30 is refused. */
const indiaDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, AUDIT_LOG_MESSAGES.invalidDate)
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
  }, AUDIT_LOG_MESSAGES.invalidDate);

const optionalText = <T extends z.ZodType<string | undefined, string | undefined>>(schema: T) =>
  schema.optional().transform((value) => (value === '' ? undefined : value));

/** The filters of the audit log and of its CSV export. */
const auditLogFilterShape = {
  /** A name or e-mail (any part, any case) of the admin who acted or of the user concerned. */
  q: optionalText(z.string().trim().max(LIMITS.searchQueryLength, `Search text must be at most ${LIMITS.searchQueryLength} characters`)),
  action: optionalText(
    z
      .string()
      .trim()
      .max(64, 'Action must be at most 64 characters')
      .regex(/^[a-z0-9_.-]*$/, 'Action may contain only lower-case letters, digits, dots, dashes and underscores'),
  ),
  targetUserId: z.uuid({ message: 'Invalid user id' }).optional(),
  /** First day shown, in India time (inclusive). */
  from: indiaDateSchema.optional(),
  /** Last day shown, in India time (inclusive). */
  to: indiaDateSchema.optional(),
};
const datesInOrder = (filters: { from?: string | undefined; to?: string | undefined }) =>
  filters.from === undefined || filters.to === undefined || filters.from <= filters.to;

export const auditLogQuerySchema = cursorQuerySchema.extend(auditLogFilterShape).refine(datesInOrder, { message: AUDIT_LOG_MESSAGES.dateRange, path: ['to'] });
export const auditLogCsvQuerySchema = z.object(auditLogFilterShape).refine(datesInOrder, { message: AUDIT_LOG_MESSAGES.dateRange, path: ['to'] });
export type AuditLogFilters = z.output<typeof auditLogCsvQuerySchema>;

const auditPersonSchema = z.object({ id: z.uuid(), name: z.string(), email: z.string() }).nullable();

export const auditLogEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  actor: auditPersonSchema,
  targetType: z.string(),
  targetId: z.string().nullable(),
  targetUser: auditPersonSchema,
  before: z.unknown(),
  after: z.unknown(),
  ipAddress: z.string().nullable(),
  createdAt: isoDateTimeSchema,
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

export const auditLogResponseSchema = pageSchema(auditLogEntrySchema);
