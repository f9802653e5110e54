import { securityPausesResponseSchema } from '#shared/contracts/security';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { listPauses } from './cooling-off.ts';

export function registerSecurityRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/security/pauses',
    {
      schema: {
        tags: ['security'],
        summary: 'Withdrawals and transfers paused after a PIN or password reset or a bank-account change, and until when',
        response: responses({ 200: securityPausesResponseSchema }),
      },
    },
    async (request) => listPauses(context.database.db, context, sessionOf(request).userId),
  );
}
