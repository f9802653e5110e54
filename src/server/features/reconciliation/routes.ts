import { idParamsSchema } from '#shared/contracts/common';
import { createSweepPlanRequestSchema, reconciliationQuerySchema, reconciliationResponseSchema, sweepPlanSchema } from '#shared/contracts/reconciliation';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { createSweepPlan, getSweepPlan, reconcile, reconciliationClients, sweepPlanCsv } from './service.ts';

/** The operator's reconciliation and sweep plans (decision 045); registered inside the admin area. */
export function registerReconciliationAdminRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;
  const clients = reconciliationClients(context.config.chain);

  app.get(
    '/api/admin/reconciliation',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Per network, a page of customer deposit addresses and the shared address: on-chain USDT beside credited minus swept, every difference flagged',
        querystring: reconciliationQuerySchema,
        response: responses({ 200: reconciliationResponseSchema }),
      },
    },
    async (request) => reconcile(db, clients, request.query),
  );

  app.post(
    '/api/admin/reconciliation/sweep-plans',
    {
      schema: {
        tags: ['admin'],
        summary: 'Make a sweep plan: customer addresses holding at least the threshold on chain, with amounts, derivation paths and what each needs first',
        body: createSweepPlanRequestSchema,
        response: responses({ 201: sweepPlanSchema }),
      },
    },
    async (request, reply) => reply.code(201).send(await createSweepPlan(db, clients, sessionOf(request).userId, request.body)),
  );

  app.get(
    '/api/admin/reconciliation/sweep-plans/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'A sweep plan as JSON for the offline signer, each address with the sweep the chain follower matched to it',
        params: idParamsSchema,
        response: responses({ 200: sweepPlanSchema }),
      },
    },
    async (request) => getSweepPlan(db, request.params.id),
  );

  app.get(
    '/api/admin/reconciliation/sweep-plans/:id/csv',
    { schema: { tags: ['admin'], summary: 'A sweep plan as CSV for the offline signer', params: idParamsSchema } },
    async (request, reply) => {
      const plan = await getSweepPlan(db, request.params.id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="sweep-plan-${plan.network}-${plan.id}.csv"`)
        .send(sweepPlanCsv(plan));
    },
  );
}
