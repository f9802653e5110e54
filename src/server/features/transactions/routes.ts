import { transactionListQuerySchema, transactionListResponseSchema } from '../../../shared/contracts/transactions.ts';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { requirePinVerifiedSession } from '../../platform/sessions/service.ts';
import { listTransactions } from './service.ts';
import { pinVerifiedRoute } from '../../platform/sessions/route-guards.ts';


export function registerTransactionRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/transactions',
    {
      ...pinVerifiedRoute,
      schema: {
        tags: ['transactions'],
        summary: 'The customer’s history, newest first (deposits, withdrawals, transfers, referral bonuses)',
        querystring: transactionListQuerySchema,
        response: responses({ 200: transactionListResponseSchema }),
      },
    },
    async (request) => listTransactions(context.database.db, { userId: requirePinVerifiedSession(request).userId, ...request.query }),
  );
}
