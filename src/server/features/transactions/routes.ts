import { transactionListQuerySchema, transactionListResponseSchema } from '#shared/contracts/transactions';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { listTransactions } from './service.ts';


export function registerTransactionRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/transactions',
    {
      schema: {
        tags: ['transactions'],
        summary: 'The customer’s history, newest first (deposits, withdrawals, transfers, referral bonuses)',
        querystring: transactionListQuerySchema,
        response: responses({ 200: transactionListResponseSchema }),
      },
    },
    async (request) => listTransactions(context.database.db, { userId: sessionOf(request).userId, ...request.query }),
  );
}
