import { idParamsSchema } from '#shared/contracts/common';
import {
  adminWithdrawalDecisionResponseSchema,
  cancelWithdrawalResponseSchema,
  adminWithdrawalListQuerySchema,
  adminWithdrawalListResponseSchema,
  approveWithdrawalRequestSchema,
  rejectWithdrawalRequestSchema,
  withdrawalDetailResponseSchema,
  withdrawalListQuerySchema,
  withdrawalListResponseSchema,
  withdrawalRequestSchema,
  withdrawalResponseSchema,
} from '#shared/contracts/withdrawals';
import { firstApprovalResponseSchema } from '#shared/contracts/pending-changes';
import { TDS_REPORT_MAX_ROWS, tdsReportQuerySchema, withdrawalLimitsResponseSchema } from '#shared/contracts/withdrawal-rules';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { readIdempotencyKey } from '../../platform/idempotency/service.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { registerDecisionRoutes } from '../../platform/decisions/routes.ts';
import { withdrawalDecisionsFor } from './decision-kind.ts';
import { cancelOwnWithdrawal } from './cancel.ts';
import { getWithdrawalLimits } from './limits.ts';
import { requestWithdrawal } from './request.ts';
import { tdsReportCsv } from './tds-report.ts';
import { getOwnWithdrawal, listOwnWithdrawals, listWithdrawalsForAdmin } from './views.ts';

// Who may call is decided before the body is validated, so strangers learn nothing about the schema.

export function registerWithdrawalRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.post(
    '/api/withdrawals',
    {
      schema: {
        tags: ['withdrawals'],
        summary: 'Request an INR withdrawal to a saved bank account; the PIN is checked here; accepts an Idempotency-Key header',
        body: withdrawalRequestSchema,
        response: responses({ 201: withdrawalResponseSchema }),
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const answer = await requestWithdrawal(context, request, session, request.body, readIdempotencyKey(request));
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(answer.statusCode).send(answer.body);
    },
  );

  app.get(
    '/api/withdrawals',
    {
      schema: {
        tags: ['withdrawals'],
        summary: 'The customer’s withdrawals, newest first, optionally by status',
        querystring: withdrawalListQuerySchema,
        response: responses({ 200: withdrawalListResponseSchema }),
      },
    },
    async (request) => listOwnWithdrawals(db, sessionOf(request).userId, request.query),
  );

  app.get(
    '/api/withdrawals/limits',
    {
      schema: {
        tags: ['withdrawals'],
        summary:
          'The withdrawal minimum and maximum, the daily and monthly limits of the customer’s tier with what is left (India time), and whether TDS needs a PAN',
        response: responses({ 200: withdrawalLimitsResponseSchema }),
      },
    },
    async (request) => getWithdrawalLimits(db, sessionOf(request).userId),
  );

  app.get(
    '/api/withdrawals/:id',
    {
      schema: {
        tags: ['withdrawals'],
        summary: 'One of the customer’s withdrawals',
        params: idParamsSchema,
        response: responses({ 200: withdrawalDetailResponseSchema }),
      },
    },
    async (request) => ({ withdrawal: await getOwnWithdrawal(db, sessionOf(request).userId, request.params.id) }),
  );

  app.post(
    '/api/withdrawals/:id/cancel',
    {
      schema: {
        tags: ['withdrawals'],
        summary:
          'Cancel one of the customer’s own withdrawals while it is pending (not in a payout batch, sent to a provider or approved); the USDT goes back to the wallet',
        params: idParamsSchema,
        response: responses({ 200: cancelWithdrawalResponseSchema }),
      },
    },
    async (request) => cancelOwnWithdrawal(db, { userId: sessionOf(request).userId, ipAddress: request.ip }, request.params.id),
  );
}

/** The admin's queue and decisions; registered inside the admin area. The bank file comes from a payout batch (features/payout-batches). */
export function registerWithdrawalAdminRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/admin/withdrawals',
    {
      schema: {
        tags: ['admin'],
        summary: 'Withdrawals with full bank details, newest first, optionally by status',
        querystring: adminWithdrawalListQuerySchema,
        response: responses({ 200: adminWithdrawalListResponseSchema }),
      },
    },
    async (request) => {
      return listWithdrawalsForAdmin(db, request.query);
    },
  );

  app.get(
    '/api/admin/reports/tds.csv',
    {
      schema: {
        tags: ['admin'],
        summary: `TDS report (section 194S): withdrawals with TDS that were not rejected, from and to inclusive (YYYY-MM-DD, India time), as CSV (at most ${TDS_REPORT_MAX_ROWS} rows; X-Truncated says when more matched)`,
        querystring: tdsReportQuerySchema,
      },
    },
    async (request, reply) => {
      const exported = await tdsReportCsv(db, { adminUserId: sessionOf(request).userId, ipAddress: request.ip }, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="tds-${request.query.from}-to-${request.query.to}.csv"`)
        .header('x-row-count', String(exported.rows))
        .header('x-truncated', String(exported.truncated))
        .send(exported.csv);
    },
  );

  registerDecisionRoutes(app, db, withdrawalDecisionsFor(context.config.payoutProvider?.provider), {
    basePath: '/api/admin/withdrawals',
    response: adminWithdrawalDecisionResponseSchema,
    deferredResponse: firstApprovalResponseSchema,
    approve: {
      summary:
        'Mark a pending withdrawal as paid out by hand: the payout reference (UTR) is required, of its rail’s form (IMPS and UPI 12 digits, NEFT 16 letters or digits) and on no other withdrawal (decision 049); with a payout provider configured, an approve without a payout reference sends it through the provider instead (decision 043); above the large-withdrawal amount with two or more admins, the first approve answers 202 (a pending change) and another admin approves or confirms it',
      body: approveWithdrawalRequestSchema,
    },
    reject: { summary: 'Reject a pending withdrawal and refund the USDT held', body: rejectWithdrawalRequestSchema },
  });
}
