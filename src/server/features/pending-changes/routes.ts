import { idParamsSchema } from '#shared/contracts/common';
import { pendingChangeDecisionResponseSchema, pendingChangeListResponseSchema } from '#shared/contracts/pending-changes';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as pendingChangeService from './service.ts';

/**
 * Two-person control (decisions 017 and 033); registered inside the admin area (admin role,
 * PIN-verified session for the writes). `handlers` apply each kind: the app's wiring passes them in
 * (`features/pending-change-handlers.ts`), so this feature imports none of the features it serves.
 */
export function registerPendingChangeAdminRoutes(app: ApiApp, context: AppContext, handlers: pendingChangeService.ChangeHandlers): void {
  const { db } = context.database;

  app.get(
    '/api/admin/pending-changes',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Open changes waiting for a second admin: deposit addresses, exchange rates, raises of the large-withdrawal amount, first approvals of large withdrawals, and grants and removals of the admin role, oldest first',
        response: responses({ 200: pendingChangeListResponseSchema }),
      },
    },
    async () => ({ items: await pendingChangeService.listOpenChanges(db) }),
  );

  app.post(
    '/api/admin/pending-changes/:id/confirm',
    {
      schema: {
        tags: ['admin'],
        summary: 'Confirm and apply an open change (another admin than the one who asked); 409 when it is decided or stale',
        params: idParamsSchema,
        response: responses({ 200: pendingChangeDecisionResponseSchema }),
      },
    },
    async (request) => {
      const actor = { userId: sessionOf(request).userId, ipAddress: request.ip };
      return pendingChangeService.decideChange(db, handlers, actor, request.params.id, 'approved');
    },
  );

  app.post(
    '/api/admin/pending-changes/:id/discard',
    {
      schema: {
        tags: ['admin'],
        summary: 'Discard an open change (any admin, the one who asked included); 409 when it is already decided',
        params: idParamsSchema,
        response: responses({ 200: pendingChangeDecisionResponseSchema }),
      },
    },
    async (request) => {
      const actor = { userId: sessionOf(request).userId, ipAddress: request.ip };
      return pendingChangeService.decideChange(db, handlers, actor, request.params.id, 'rejected');
    },
  );
}
