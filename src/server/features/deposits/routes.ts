import { idParamsSchema } from '../../../shared/contracts/common.ts';
import {
  DEPOSIT_MESSAGES,
  adminDepositDecisionResponseSchema,
  adminDepositListQuerySchema,
  adminDepositListResponseSchema,
  depositDetailResponseSchema,
  depositRequestSchema,
  depositResponseSchema,
  rejectDepositRequestSchema,
} from '../../../shared/contracts/deposits.ts';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { readIdempotencyKey } from '../../platform/idempotency/service.ts';
import { requireAdmin, requirePinVerifiedSession } from '../../platform/sessions/service.ts';
import * as depositService from './service.ts';
import { adminRoute, pinVerifiedRoute } from '../../platform/sessions/route-guards.ts';

// Who may call is decided before the body is validated, so strangers learn nothing about the schema.

export function registerDepositRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.post(
    '/api/deposits',
    {
      ...pinVerifiedRoute,
      schema: {
        tags: ['deposits'],
        summary: 'Submit a USDT deposit (transaction hash) for admin approval; accepts an Idempotency-Key header',
        body: depositRequestSchema,
        response: responses({ 201: depositResponseSchema }),
      },
    },
    async (request, reply) => {
      const session = requirePinVerifiedSession(request);
      const answer = await depositService.submitDeposit(db, session.userId, request.body, readIdempotencyKey(request));
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(answer.statusCode).send(answer.body);
    },
  );

  app.get(
    '/api/deposits/:id',
    { ...pinVerifiedRoute, schema: { tags: ['deposits'], summary: 'One of the customer’s deposits', params: idParamsSchema, response: responses({ 200: depositDetailResponseSchema }) } },
    async (request) => ({ deposit: await depositService.getOwnDeposit(db, requirePinVerifiedSession(request).userId, request.params.id) }),
  );

  app.get(
    '/api/admin/deposits',
    {
      ...adminRoute,
      schema: { tags: ['admin'], summary: 'Deposits, newest first, optionally by status', querystring: adminDepositListQuerySchema, response: responses({ 200: adminDepositListResponseSchema }) },
    },
    async (request) => {
      requireAdmin(request);
      return depositService.listDepositsForAdmin(db, request.query);
    },
  );

  app.post(
    '/api/admin/deposits/:id/approve',
    {
      ...adminRoute,
      schema: {
        tags: ['admin'],
        summary: 'Approve a pending deposit: credit the wallet and pay referral rewards',
        params: idParamsSchema,
        response: responses({ 200: adminDepositDecisionResponseSchema }),
      },
    },
    async (request) => {
      const session = requireAdmin(request);
      const deposit = await depositService.approveDeposit(db, request.params.id, { adminUserId: session.userId, ipAddress: request.ip });
      return { deposit, message: DEPOSIT_MESSAGES.approved };
    },
  );

  app.post(
    '/api/admin/deposits/:id/reject',
    {
      ...adminRoute,
      schema: {
        tags: ['admin'],
        summary: 'Reject a pending deposit',
        params: idParamsSchema,
        body: rejectDepositRequestSchema,
        response: responses({ 200: adminDepositDecisionResponseSchema }),
      },
    },
    async (request) => {
      const session = requireAdmin(request);
      const deposit = await depositService.rejectDeposit(db, request.params.id, {
        adminUserId: session.userId,
        ipAddress: request.ip,
        reason: request.body?.reason,
      });
      return { deposit, message: DEPOSIT_MESSAGES.rejected };
    },
  );
}
