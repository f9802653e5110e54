import { idParamsSchema } from '#shared/contracts/common';
import {
  adminTransferDecisionResponseSchema,
  adminTransferListQuerySchema,
  adminTransferListResponseSchema,
  rejectTransferRequestSchema,
  transferDetailResponseSchema,
  transferRequestSchema,
  transferResponseSchema,
} from '#shared/contracts/transfers';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { readIdempotencyKey } from '../../platform/idempotency/service.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { registerDecisionRoutes } from '../../platform/decisions/routes.ts';
import * as transferService from './service.ts';

// Who may call is decided before the body is validated, so strangers learn nothing about the schema.

export function registerTransferRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.post(
    '/api/transfers',
    {
      schema: {
        tags: ['transfers'],
        summary: 'Send USDT to another customer by e-mail, held until an admin approves; the PIN is checked here; accepts an Idempotency-Key header',
        body: transferRequestSchema,
        response: responses({ 201: transferResponseSchema }),
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const answer = await transferService.requestTransfer(context, request, session, request.body, readIdempotencyKey(request));
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(answer.statusCode).send(answer.body);
    },
  );

  app.get(
    '/api/transfers/:id',
    {
      schema: {
        tags: ['transfers'],
        summary: 'A transfer the customer sent or received',
        params: idParamsSchema,
        response: responses({ 200: transferDetailResponseSchema }),
      },
    },
    async (request) => ({ transfer: await transferService.getOwnTransfer(db, sessionOf(request).userId, request.params.id) }),
  );
}

/** The admin's queue and decisions; registered inside the admin area. */
export function registerTransferAdminRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/admin/transfers',
    {
      schema: {
        tags: ['admin'],
        summary: 'Transfers, newest first, optionally by status',
        querystring: adminTransferListQuerySchema,
        response: responses({ 200: adminTransferListResponseSchema }),
      },
    },
    async (request) => {
      return transferService.listTransfersForAdmin(db, request.query);
    },
  );

  registerDecisionRoutes(app, db, transferService.transferDecisions, {
    basePath: '/api/admin/transfers',
    response: adminTransferDecisionResponseSchema,
    approve: { summary: 'Approve a pending transfer: the recipient is credited' },
    reject: { summary: 'Reject a pending transfer: the sender gets the USDT back', body: rejectTransferRequestSchema },
  });
}
