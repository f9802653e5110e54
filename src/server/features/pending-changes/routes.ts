import { idParamsSchema } from '#shared/contracts/common';
import {
  PENDING_CHANGE_MESSAGES,
  pendingChangeDecisionResponseSchema,
  pendingChangeListResponseSchema,
} from '#shared/contracts/pending-changes';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { adminRoleGrantHandler, adminRoleRemovalHandler } from '../admin/users-service.ts';
import { addressChangeHandler, exchangeRatesChangeHandler, largeWithdrawalLimitChangeHandler } from '../settings/service.ts';
import { appFileChangeHandler } from '../files/service.ts';
import { firstApprovalHandler } from '../withdrawals/service.ts';
import { batchCancelHandler } from '../payout-batches/service.ts';
import * as pendingChangeService from './service.ts';

/** Two-person control (decision 017); registered inside the admin area (admin role, PIN-verified session for the writes). */
export function registerPendingChangeAdminRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;
  const handlers = {
    deposit_address: addressChangeHandler,
    large_withdrawal_approval: firstApprovalHandler,
    admin_role_grant: adminRoleGrantHandler,
    admin_role_removal: adminRoleRemovalHandler,
    exchange_rates: exchangeRatesChangeHandler,
    large_withdrawal_limit: largeWithdrawalLimitChangeHandler,
    app_file: appFileChangeHandler,
    payout_batch_cancel: batchCancelHandler,
  };

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
      const pendingChange = await pendingChangeService.confirmChange(db, actor, request.params.id, handlers);
      return { message: PENDING_CHANGE_MESSAGES.confirmed, pendingChange };
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
      const pendingChange = await pendingChangeService.discardChange(db, actor, request.params.id);
      return { message: PENDING_CHANGE_MESSAGES.discarded, pendingChange };
    },
  );
}
