import { auditLogQuerySchema, auditLogResponseSchema } from '../../../shared/contracts/admin.ts';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { getAuditLog } from './service.ts';

export function registerAuditRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/admin/audit-log',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every admin action with who, what, when, before and after; newest first, filter by action and target user (admin only)',
        querystring: auditLogQuerySchema,
        response: responses({ 200: auditLogResponseSchema }),
      },
    },
    async (request) => getAuditLog(context.database.db, request.query),
  );
}
