import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { decimalStringSchema, isoDateTimeSchema, pageSizeSchema, roleSchema, uuidSchema, vipLevelSchema } from './common.ts';
import { transactionItemSchema, transactionListQuerySchema } from './transactions.ts';

export const userNotFoundMessage = (id: string) => `User with ID ${id} was not found`;
export const USER_UPDATED_MESSAGE = 'User updated successfully';
export const SESSIONS_REVOKED_MESSAGE = 'All sessions of this user were ended';
export const OWN_ADMIN_ROLE_MESSAGE = 'You cannot remove your own admin role';
export const USER_NOT_FOUND_TITLE = 'User Not Found';
export const NO_USER_TRANSACTIONS_MESSAGE = 'No transactions found for this user';

const adminPageSizeSchema = pageSizeSchema(`Page size must be a whole number from 1 to ${LIMITS.pageSizeMax}`, `Page size must be at most ${LIMITS.pageSizeMax}`);

/* ---------- dashboard ---------- */

const pendingUsdtSchema = z.object({ count: z.number().int(), totalUsdt: decimalStringSchema });

export const adminDashboardResponseSchema = z.object({
  pendingDeposits: pendingUsdtSchema,
  pendingWithdrawals: pendingUsdtSchema.extend({ totalInr: decimalStringSchema }),
  pendingTransfers: pendingUsdtSchema,
  /** Sum of every customer wallet in the ledger. */
  customerBalancesUsdt: decimalStringSchema,
  userCount: z.number().int(),
  /** False for VIP-level readers: the web app hides links to admin-only pages. */
  canManage: z.boolean(),
});
export type AdminDashboard = z.infer<typeof adminDashboardResponseSchema>;

/* ---------- users ---------- */

export const adminUsersQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(LIMITS.searchQueryLength, `Search text must be at most ${LIMITS.searchQueryLength} characters`)
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  /** The id of the last user of the previous page. */
  cursor: z.uuid({ message: 'Invalid page cursor' }).optional(),
  limit: adminPageSizeSchema,
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

export const adminUsersResponseSchema = z.object({
  items: z.array(adminUserSummarySchema),
  nextCursor: z.string().nullable(),
});

export const adminUserDetailSchema = adminUserSummarySchema.extend({
  referralCode: z.string(),
  referredBy: z.object({ id: z.uuid(), name: z.string(), email: z.string(), referralCode: z.string() }).nullable(),
  referralCount: z.number().int(),
  referralEarningsUsdt: decimalStringSchema,
  hasPin: z.boolean(),
  activeSessionCount: z.number().int(),
  updatedAt: isoDateTimeSchema,
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
});

export const revokeSessionsResponseSchema = z.object({
  message: z.string(),
  sessionsEnded: z.number().int(),
});

/* ---------- one user's transactions ---------- */

/** Same filters and page size as the customer's own history. */
export const adminUserTransactionsQuerySchema = transactionListQuerySchema;

export const adminUserTransactionsResponseSchema = z.object({
  user: adminUserSummarySchema.pick({ id: true, name: true, email: true, phone: true, balanceUsdt: true }),
  items: z.array(transactionItemSchema),
  nextCursor: z.string().nullable(),
});
export type AdminUserTransactions = z.infer<typeof adminUserTransactionsResponseSchema>;

/* ---------- audit log ---------- */

export const auditLogQuerySchema = z.object({
  action: z
    .string()
    .trim()
    .max(64, 'Action must be at most 64 characters')
    .regex(/^[a-z0-9_.-]*$/, 'Action may contain only lower-case letters, digits, dots, dashes and underscores')
    .optional()
    .transform((value) => (value === '' ? undefined : value)),
  targetUserId: z.uuid({ message: 'Invalid user id' }).optional(),
  /** The id of the last entry of the previous page. */
  cursor: z.string().regex(/^\d{1,18}$/, 'Invalid page cursor').optional(),
  limit: adminPageSizeSchema,
});

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

export const auditLogResponseSchema = z.object({
  items: z.array(auditLogEntrySchema),
  nextCursor: z.string().nullable(),
});
