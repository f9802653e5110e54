import { ACCOUNT_CLOSING_MESSAGES, reopenAccountRequestSchema, reopenAccountResponseSchema } from '#shared/contracts/account-closing';
import {
  adminDashboardResponseSchema,
  adminUserDetailSchema,
  adminUserParamsSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  AUDIT_LOG_CSV_MAX_ROWS,
  adminUserTransactionsQuerySchema,
  adminUserTransactionsResponseSchema,
  auditLogCsvQuerySchema,
  auditLogQuerySchema,
  auditLogResponseSchema,
  revokeSessionsResponseSchema,
  SESSIONS_REVOKED_MESSAGE,
  updateAdminUserRequestSchema,
  updateAdminUserResponseSchema,
  USER_UPDATED_MESSAGE,
} from '#shared/contracts/admin';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { auditLogCsv, getAuditLog } from './audit-log-service.ts';
import { getDashboard } from './dashboard-service.ts';
import * as usersService from './users-service.ts';
import { PENDING_CHANGE_MESSAGES } from '#shared/contracts/pending-changes';

export function registerAdminRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/admin/dashboard',
    {
      schema: {
        tags: ['admin'],
        summary: 'What waits for admins: pending requests, customer balances, users (admin only)',
        response: responses({ 200: adminDashboardResponseSchema }),
      },
    },
    async () => getDashboard(context.database.db),
  );

  registerUserReadRoutes(app, context);
  registerUserChangeRoutes(app, context);
  registerAuditLogRoutes(app, context);
}

/** Finding users, and one user's details and transactions. */
function registerUserReadRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Search users by name, e-mail or phone (any case), newest first, one page at a time',
        querystring: adminUsersQuerySchema,
        response: responses({ 200: adminUsersResponseSchema }),
      },
    },
    async (request) => usersService.listUsers(db, request.query),
  );

  app.get(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'One user with balance and referral details',
        params: adminUserParamsSchema,
        response: responses({ 200: adminUserDetailSchema }),
      },
    },
    async (request) => usersService.getUserDetail(context, db, request.params.id),
  );

  app.get(
    '/api/admin/users/:id/transactions',
    {
      schema: {
        tags: ['admin'],
        summary: "A user's transaction history, newest first, one page at a time",
        params: adminUserParamsSchema,
        querystring: adminUserTransactionsQuerySchema,
        response: responses({ 200: adminUserTransactionsResponseSchema }),
      },
    },
    async (request) => usersService.getUserTransactions(db, request.params.id, request.query),
  );
}

/** Changing a user's role or VIP level, and ending their sessions (both audited). */
function registerUserChangeRoutes(app: ApiApp, context: AppContext): void {
  app.patch(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          "Set a user's role and/or VIP level (audited); granting the admin role, or taking it away while two admins exist, answers 202 and waits for a second admin",
        params: adminUserParamsSchema,
        body: updateAdminUserRequestSchema,
        response: responses({ 200: updateAdminUserResponseSchema, 202: updateAdminUserResponseSchema }),
      },
    },
    async (request, reply) => {
      const { user, pendingChange } = await usersService.updateUser(context, request, sessionOf(request), request.params.id, request.body);
      if (pendingChange) {
        const message =
          pendingChange.kind === 'admin_role_removal'
            ? PENDING_CHANGE_MESSAGES.roleRemovalAwaitsSecondAdmin
            : PENDING_CHANGE_MESSAGES.roleGrantAwaitsSecondAdmin;
        return reply.code(202).send({ message, user, pendingChange });
      }
      return { message: USER_UPDATED_MESSAGE, user };
    },
  );

  app.post(
    '/api/admin/users/:id/sessions/revoke',
    {
      schema: {
        tags: ['admin'],
        summary: 'End every session of a user (audited)',
        params: adminUserParamsSchema,
        response: responses({ 200: revokeSessionsResponseSchema }),
      },
    },
    async (request) => {
      const sessionsEnded = await usersService.revokeSessions(context, request, sessionOf(request), request.params.id);
      return { message: SESSIONS_REVOKED_MESSAGE, sessionsEnded };
    },
  );

  app.post(
    '/api/admin/users/:id/reopen',
    {
      schema: {
        tags: ['admin'],
        summary: "Reopen a customer's closed account, with a reason (audited; the owner is e-mailed)",
        params: adminUserParamsSchema,
        body: reopenAccountRequestSchema,
        response: responses({ 200: reopenAccountResponseSchema }),
      },
    },
    async (request) => {
      await usersService.reopenUser(context, request, sessionOf(request), request.params.id, request.body.reason);
      return { message: ACCOUNT_CLOSING_MESSAGES.reopened };
    },
  );
}

/** The audit log, as pages and as CSV. */
function registerAuditLogRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/admin/audit-log',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Every admin action with who, what, when, before and after; newest first; search by a name or e-mail of the admin or the user concerned, filter by action, user and days in India time',
        querystring: auditLogQuerySchema,
        response: responses({ 200: auditLogResponseSchema }),
      },
    },
    async (request) => getAuditLog(db, request.query),
  );

  app.get(
    '/api/admin/audit-log.csv',
    {
      schema: {
        tags: ['admin'],
        summary: `The audit log entries the same filters select, newest first, as CSV (at most ${AUDIT_LOG_CSV_MAX_ROWS}; X-Truncated says when more matched)`,
        querystring: auditLogCsvQuerySchema,
      },
    },
    async (request, reply) => {
      const exported = await auditLogCsv(db, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('x-row-count', String(exported.rows))
        .header('x-truncated', String(exported.truncated))
        .send(exported.csv);
    },
  );
}
