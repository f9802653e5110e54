import { z } from 'zod';
import { idParamsSchema } from '#shared/contracts/common';
import {
  PAYOUT_WEBHOOK_MAX_BYTES,
  adminProviderPayoutResponseSchema,
  payoutOverviewResponseSchema,
  providerPayoutResponseSchema,
  reconciliationQuerySchema,
  rejectHeldPayoutRequestSchema,
  reconciliationResponseSchema,
} from '#shared/contracts/payouts';
import { adminWithdrawalDecisionResponseSchema } from '#shared/contracts/withdrawals';
import type { AppContext } from '../../context.ts';
import { rawBodyOf, registerRawBodyWebhooks } from '../../http/raw-body-webhooks.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import type { PayoutProvider } from './provider.ts';
import { getAdminProviderPayout, getProviderPayout, payoutOverview, receiveWebhook, reconcileDay, rejectHeldPayout } from './service.ts';

const webhookAnswerSchema = z.object({ status: z.enum(['applied', 'unchanged', 'unknown_payout', 'duplicate', 'ignored']) });

const WEBHOOK_SUMMARIES: Record<PayoutProvider['name'], string> = {
  razorpayx: 'RazorpayX payout events, signed with HMAC-SHA256 of the raw body (X-Razorpay-Signature); deduplicated by X-Razorpay-Event-Id',
  cashfree:
    'Cashfree Payouts V2 transfer events, signed with HMAC-SHA256 (base64) of x-webhook-timestamp and the raw body (x-webhook-signature); deduplicated by event, transfer and status',
};

/**
 * POST /api/webhooks/razorpayx or /api/webhooks/cashfree, the configured provider's: public, and proven by its
 * signature instead (decisions 043, 062). The body is read raw, as bytes, by a parser of this scope only, because the
 * signature is over the exact bytes sent.
 */
export function registerPayoutWebhookRoutes(app: ApiApp, context: AppContext, provider: PayoutProvider): void {
  const { db } = context.database;
  registerRawBodyWebhooks(app, PAYOUT_WEBHOOK_MAX_BYTES, (scope) => {
    scope.post(
      `/api/webhooks/${provider.name}`,
      {
        config: { signedWebhook: true },
        bodyLimit: PAYOUT_WEBHOOK_MAX_BYTES,
        schema: {
          tags: ['payouts'],
          summary: WEBHOOK_SUMMARIES[provider.name],
          response: responses({ 200: webhookAnswerSchema }),
        },
      },
      async (request) => {
        const { outcome } = await receiveWebhook(db, provider, rawBodyOf(request), request.headers);
        return { status: outcome };
      },
    );
  });
}

/** The customer's view of their withdrawal's payout; registered inside the customer area. */
export function registerPayoutRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;
  app.get(
    '/api/withdrawals/:id/payout',
    {
      schema: {
        tags: ['withdrawals'],
        summary: 'The payout provider’s states of one of the customer’s withdrawals, with the UTR once the bank gives it',
        params: idParamsSchema,
        response: responses({ 200: providerPayoutResponseSchema }),
      },
    },
    async (request) => ({ payout: await getProviderPayout(db, request.params.id, sessionOf(request).userId) }),
  );
}

/** The admins' reads: a withdrawal's payout and the day's reconciliation; registered inside the admin area. */
export function registerPayoutAdminRoutes(app: ApiApp, context: AppContext, provider: PayoutProvider | undefined): void {
  const { db } = context.database;
  app.get(
    '/api/admin/withdrawals/:id/payout',
    {
      schema: {
        tags: ['admin'],
        summary:
          'A withdrawal’s payout through the provider: state, mode, UTR, every state the provider reported, the attempts, the last error and when, and whether it is held before its first send',
        params: idParamsSchema,
        response: responses({ 200: adminProviderPayoutResponseSchema }),
      },
    },
    async (request) => ({ payout: await getAdminProviderPayout(db, request.params.id) }),
  );
  app.post(
    '/api/admin/withdrawals/:id/payout/reject',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Reject a withdrawal whose provider payout is held by a freeze or an open chain incident and was never sent: the held USDT goes back to the wallet and the payout is never sent (decision 053)',
        params: idParamsSchema,
        body: rejectHeldPayoutRequestSchema,
        response: responses({ 200: adminWithdrawalDecisionResponseSchema }),
      },
    },
    async (request) => rejectHeldPayout(db, { userId: sessionOf(request).userId, ipAddress: request.ip }, request.params.id, request.body.reason),
  );
  app.get(
    '/api/admin/payouts/overview',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Whether a payout provider is configured: with one, an approve without a UTR sends the withdrawal through it; without, every approve needs the UTR',
        response: responses({ 200: payoutOverviewResponseSchema }),
      },
    },
    async () => payoutOverview(db, context.config.payoutProvider),
  );
  if (!provider) return;
  app.get(
    '/api/admin/payouts/reconciliation',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The day’s (India time) provider transactions against our payouts (with Cashfree, each payout of the day asked by its status): every payout whose amount, state or UTR differs, or that one side lacks. By status, one runs at a time per server (409) and within a time budget (truncated)',
        querystring: reconciliationQuerySchema,
        response: responses({ 200: reconciliationResponseSchema }),
      },
    },
    async (request) => reconcileDay(db, provider, request.query.day, { budgetMilliseconds: reconciliationBudgetMilliseconds(context) }),
  );
}

/** The time one reconciliation by status may take; a test shortens it (decision 062). */
function reconciliationBudgetMilliseconds(context: AppContext): number | undefined {
  const config = context.config.payoutProvider;
  return config?.provider === 'cashfree' && config.reconciliationBudgetSeconds !== undefined ? config.reconciliationBudgetSeconds * 1000 : undefined;
}
