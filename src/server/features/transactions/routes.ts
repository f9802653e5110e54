import { transactionListQuerySchema, transactionListResponseSchema } from '#shared/contracts/transactions';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { HISTORY_PARTS_READ, listOwnTransactions } from './service.ts';

export function registerTransactionRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/transactions',
    {
      config: { sessionJoinedRead: HISTORY_PARTS_READ },
      schema: {
        tags: ['transactions'],
        summary: 'The customer’s history, newest first (deposits, withdrawals, transfers, referral bonuses)',
        querystring: transactionListQuerySchema,
        response: responses({ 200: transactionListResponseSchema }),
      },
    },
    async (request) => listOwnTransactions(context.database.db, sessionOf(request), request.query),
  );
}
