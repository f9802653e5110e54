import { idParamsSchema } from '#shared/contracts/common';
import {
  adminDepositDecisionResponseSchema,
  adminDepositListQuerySchema,
  adminDepositListResponseSchema,
  approveDepositRequestSchema,
  assignUnclaimedTransferRequestSchema,
  assignUnclaimedTransferResponseSchema,
  unclaimedTransferListResponseSchema,
  depositDetailResponseSchema,
  depositRequestSchema,
  depositResponseSchema,
  rejectDepositRequestSchema,
} from '#shared/contracts/deposits';
import { firstApprovalResponseSchema } from '#shared/contracts/pending-changes';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { readIdempotencyKey } from '../../platform/idempotency/service.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { registerDecisionRoutes } from '../../platform/decisions/routes.ts';
import * as depositService from './service.ts';

// Who may call is decided before the body is validated, so strangers learn nothing about the schema.

export function registerDepositRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.post(
    '/api/deposits',
    {
      schema: {
        tags: ['deposits'],
        summary: 'Submit a USDT deposit (transaction hash) for admin approval; accepts an Idempotency-Key header',
        body: depositRequestSchema,
        response: responses({ 201: depositResponseSchema }),
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const answer = await depositService.submitDeposit(db, session.userId, request.body, readIdempotencyKey(request));
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(answer.statusCode).send(answer.body);
    },
  );

  app.get(
    '/api/deposits/:id',
    {
      schema: {
        tags: ['deposits'],
        summary: 'One of the customer’s deposits',
        params: idParamsSchema,
        response: responses({ 200: depositDetailResponseSchema }),
      },
    },
    async (request) => ({ deposit: await depositService.getOwnDeposit(db, sessionOf(request).userId, request.params.id) }),
  );
}

/** The admin's queue and decisions; registered inside the admin area. */
export function registerDepositAdminRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/admin/deposits',
    {
      schema: {
        tags: ['admin'],
        summary: 'Deposits, newest first, optionally by status',
        querystring: adminDepositListQuerySchema,
        response: responses({ 200: adminDepositListResponseSchema }),
      },
    },
    async (request) => {
      return depositService.listDepositsForAdmin(db, request.query);
    },
  );

  app.get(
    '/api/admin/deposits/unclaimed',
    {
      schema: {
        tags: ['admin'],
        summary: 'Transfers to the shared deposit address from senders no customer proved, that no claim names (newest first, at most 100)',
        response: responses({ 200: unclaimedTransferListResponseSchema }),
      },
    },
    async () => ({ items: await depositService.listUnclaimedTransfers(db) }),
  );

  app.post(
    '/api/admin/deposits/unclaimed/:id/assign',
    {
      schema: {
        tags: ['admin'],
        summary: 'Give an unclaimed transfer to the customer it belongs to: it becomes their deposit, waiting for approval',
        params: idParamsSchema,
        body: assignUnclaimedTransferRequestSchema,
        response: responses({ 201: assignUnclaimedTransferResponseSchema }),
      },
    },
    async (request, reply) => {
      const actor = { userId: sessionOf(request).userId, ipAddress: request.ip };
      return reply.code(201).send(await depositService.assignUnclaimedTransfer(db, actor, request.params.id, request.body));
    },
  );

  registerDecisionRoutes(app, db, depositService.depositDecisions, {
    basePath: '/api/admin/deposits',
    response: adminDepositDecisionResponseSchema,
    deferredResponse: firstApprovalResponseSchema,
    approve: {
      summary:
        'Approve a pending deposit: credit the wallet (the on-chain amount when the chain gave one) and pay referral rewards; a deposit the chain refutes needs a second admin and a written reason (202)',
      body: approveDepositRequestSchema,
    },
    reject: { summary: 'Reject a pending deposit', body: rejectDepositRequestSchema },
  });
}
