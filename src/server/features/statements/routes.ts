import { STATEMENT_LIMITS, statementQuerySchema } from '#shared/contracts/statements';
import type { AppContext } from '../../context.ts';
import type { ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { ownStatement } from './service.ts';

export function registerStatementRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/statement',
    {
      schema: {
        tags: ['transactions'],
        summary: `The customer's statement from one India date to another (both included, at most ${STATEMENT_LIMITS.maxDays} days and ${STATEMENT_LIMITS.maxRows} movements) as PDF or CSV: opening and closing balance from the ledger and every movement with its reference, UTR and transaction hash`,
        querystring: statementQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await ownStatement(context, sessionOf(request).userId, request.query);
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
}
