import { z } from 'zod';
import {
  adminPayeeListResponseSchema,
  adminPayeeReviewPageSchema,
  payeeAcceptResponseSchema,
  payeeReviewQuerySchema,
  rejectPayeeRequestSchema,
} from '#shared/contracts/bank-accounts';
import { idParamsSchema } from '#shared/contracts/common';
import { PAYOUT_WEBHOOK_MAX_BYTES } from '#shared/contracts/payouts';
import type { AppContext } from '../../context.ts';
import type { RazorpayXConfig } from '../../env.ts';
import { rawBodyOf, registerRawBodyWebhooks } from '../../http/raw-body-webhooks.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { acceptPayee, listCustomerPayees, listPayeesForReview, receiveValidationWebhook, rejectPayee } from './validations.ts';

const webhookAnswerSchema = z.object({ status: z.enum(['applied', 'unchanged', 'unknown_validation', 'ignored']) });

/**
 * POST /api/webhooks/razorpayx/validations: RazorpayX's fund_account.validation.completed and .failed events
 * (decision 054), public and proven by their signature over the raw bytes, read by a parser of this scope only.
 */
export function registerPayeeValidationWebhookRoutes(app: ApiApp, context: AppContext, config: RazorpayXConfig): void {
  const { db } = context.database;
  registerRawBodyWebhooks(app, PAYOUT_WEBHOOK_MAX_BYTES, (scope) => {
    scope.post(
      '/api/webhooks/razorpayx/validations',
      {
        config: { signedWebhook: true },
        bodyLimit: PAYOUT_WEBHOOK_MAX_BYTES,
        schema: {
          tags: ['bank-accounts'],
          summary: 'RazorpayX account validation events (penny drops), signed with HMAC-SHA256 of the raw body (X-Razorpay-Signature)',
          response: responses({ 200: webhookAnswerSchema }),
        },
      },
      async (request) => {
        return { status: (await receiveValidationWebhook(db, config, rawBodyOf(request), request.headers)).outcome };
      },
    );
  });
}

/** The admins' payee screens: one customer's payees with their checks, the review queue, and the acceptance or rejection. */
export function registerPayeeAdminRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;
  app.get(
    '/api/admin/users/:id/payees',
    {
      schema: {
        tags: ['admin'],
        summary: 'A customer’s bank accounts with the bank’s check of each (registered name, name verdict, when, provider id)',
        params: idParamsSchema,
        response: responses({ 200: adminPayeeListResponseSchema }),
      },
    },
    async (request) => ({ items: await listCustomerPayees(db, request.params.id) }),
  );
  app.get(
    '/api/admin/payees/review',
    {
      schema: {
        tags: ['admin'],
        summary: 'Bank accounts the bank did not confirm (name mismatch, invalid, check failed), oldest first, a page at a time',
        querystring: payeeReviewQuerySchema,
        response: responses({ 200: adminPayeeReviewPageSchema }),
      },
    },
    async (request) => listPayeesForReview(db, request.query),
  );
  app.post(
    '/api/admin/payees/:id/accept',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Accept a bank account whose name did not match or whose check failed: at once with a single admin, else 202 and a change a second admin confirms',
        params: idParamsSchema,
        response: responses({ 200: payeeAcceptResponseSchema, 202: payeeAcceptResponseSchema }),
      },
    },
    async (request, reply) => {
      const answer = await acceptPayee(db, { userId: sessionOf(request).userId, ipAddress: request.ip }, request.params.id);
      reply.code(answer.statusCode);
      return answer.body;
    },
  );
  app.post(
    '/api/admin/payees/:id/reject',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Reject a bank account whose name did not match or whose check failed, with a reason: it takes no withdrawal until its owner edits or deletes it; 202 while a second admin must confirm',
        params: idParamsSchema,
        body: rejectPayeeRequestSchema,
        response: responses({ 200: payeeAcceptResponseSchema, 202: payeeAcceptResponseSchema }),
      },
    },
    async (request, reply) => {
      const answer = await rejectPayee(db, { userId: sessionOf(request).userId, ipAddress: request.ip }, request.params.id, request.body.reason);
      reply.code(answer.statusCode);
      return answer.body;
    },
  );
}
