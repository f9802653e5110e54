import { chainIncidentListResponseSchema } from '#shared/contracts/chain-incidents';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { listChainIncidents } from './incidents.ts';

/** The admins' queue of chain incidents; registered inside the admin area. */
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
}
