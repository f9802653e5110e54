import { idParamsSchema } from '../../../shared/contracts/common.ts';
import {
  adminWithdrawalDecisionResponseSchema,
  adminWithdrawalListQuerySchema,
  adminWithdrawalListResponseSchema,
  approveWithdrawalRequestSchema,
  rejectWithdrawalRequestSchema,
  withdrawalDetailResponseSchema,
  withdrawalListQuerySchema,
  withdrawalListResponseSchema,
  withdrawalRequestSchema,
  withdrawalResponseSchema,
} from '../../../shared/contracts/withdrawals.ts';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { readIdempotencyKey } from '../../platform/idempotency/service.ts';
import { requireAdmin, requirePinVerifiedSession } from '../../platform/sessions/service.ts';
import { registerDecisionRoutes } from '../../platform/decisions/routes.ts';
import * as withdrawalService from './service.ts';
import { adminRoute, pinVerifiedRoute } from '../../platform/sessions/route-guards.ts';

// Who may call is decided before the body is validated, so strangers learn nothing about the schema.

export function registerWithdrawalRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.post(
    '/api/withdrawals',
    {
      ...pinVerifiedRoute,
      schema: {
        tags: ['withdrawals'],
        summary: 'Request an INR withdrawal to a saved bank account; the PIN is checked here; accepts an Idempotency-Key header',
        body: withdrawalRequestSchema,
        response: responses({ 201: withdrawalResponseSchema }),
      },
    },
    async (request, reply) => {
      const session = requirePinVerifiedSession(request);
      const answer = await withdrawalService.requestWithdrawal(context, request, session, request.body, readIdempotencyKey(request));
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(answer.statusCode).send(answer.body);
    },
  );

  app.get(
    '/api/withdrawals',
    {
      ...pinVerifiedRoute,
      schema: {
        tags: ['withdrawals'],
        summary: 'The customer’s withdrawals, newest first, optionally by status',
        querystring: withdrawalListQuerySchema,
        response: responses({ 200: withdrawalListResponseSchema }),
      },
    },
    async (request) => withdrawalService.listOwnWithdrawals(db, requirePinVerifiedSession(request).userId, request.query),
  );

  app.get(
    '/api/withdrawals/:id',
    {
      ...pinVerifiedRoute,
      schema: { tags: ['withdrawals'], summary: 'One of the customer’s withdrawals', params: idParamsSchema, response: responses({ 200: withdrawalDetailResponseSchema }) },
    },
    async (request) => ({ withdrawal: await withdrawalService.getOwnWithdrawal(db, requirePinVerifiedSession(request).userId, request.params.id) }),
  );

  app.get(
    '/api/admin/withdrawals',
    {
      ...adminRoute,
      schema: {
        tags: ['admin'],
        summary: 'Withdrawals with full bank details, newest first, optionally by status',
        querystring: adminWithdrawalListQuerySchema,
        response: responses({ 200: adminWithdrawalListResponseSchema }),
      },
    },
    async (request) => {
      requireAdmin(request);
      return withdrawalService.listWithdrawalsForAdmin(db, request.query);
    },
  );

  app.get(
    '/api/admin/withdrawals.csv',
    { ...adminRoute, schema: { tags: ['admin'], summary: 'Pending withdrawals as a CSV file for the bank’s bulk payout (oldest first)' } },
    async (request, reply) => {
      const session = requireAdmin(request);
      const exported = await withdrawalService.pendingWithdrawalsCsv(db, { adminUserId: session.userId, ipAddress: request.ip });
      const day = new Date().toISOString().slice(0, 10);
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="pending-withdrawals-${day}.csv"`)
        .header('x-row-count', String(exported.rows));
      if (exported.truncated) reply.header('x-truncated', 'true');
      return reply.send(exported.csv);
    },
  );

  registerDecisionRoutes(app, db, withdrawalService.withdrawalDecisions, {
    basePath: '/api/admin/withdrawals',
    response: adminWithdrawalDecisionResponseSchema,
    approve: { summary: 'Mark a pending withdrawal as paid out (optional payout reference / UTR)', body: approveWithdrawalRequestSchema },
    reject: { summary: 'Reject a pending withdrawal and refund the USDT held', body: rejectWithdrawalRequestSchema },
  });
}
