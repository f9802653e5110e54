import { chainIncidentListResponseSchema, chainIncidentSettleRequestSchema, chainIncidentSettleResponseSchema } from '#shared/contracts/chain-incidents';
import { idParamsSchema } from '#shared/contracts/common';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { listChainIncidents, settleIncident } from './incidents.ts';

/** The admins' queue of chain incidents and their settlement; registered inside the admin area. */
export function registerChainAdminRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;
  app.get(
    '/api/admin/chain-incidents',
    {
      schema: {
        tags: ['admin'],
        summary: 'Credited deposits whose transfer a reorganisation removed from the chain, open ones first',
        response: responses({ 200: chainIncidentListResponseSchema }),
      },
    },
    async () => listChainIncidents(db),
  );

  app.post(
    '/api/admin/chain-incidents/:id/settle',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Settle an open incident with a written reason: take the vanished amount back from the customer (debited) or write it off; the hold lifts. While two admins exist it waits for a second admin (202)',
        params: idParamsSchema,
        body: chainIncidentSettleRequestSchema,
        response: responses({ 200: chainIncidentSettleResponseSchema, 202: chainIncidentSettleResponseSchema }),
      },
    },
    async (request, reply) => {
      const actor = { userId: sessionOf(request).userId, ipAddress: request.ip };
      const answer = await settleIncident(db, actor, request.params.id, request.body);
      return reply.code(answer.statusCode).send(answer.body);
    },
  );
}
