import type { FastifyRequest } from 'fastify';
import { transactionListQuerySchema, transactionListResponseSchema } from '../../../shared/contracts/transactions.ts';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { requirePinVerifiedSession } from '../sessions/service.ts';
import { listTransactions } from './service.ts';

const pinVerified = { preValidation: async (request: FastifyRequest) => void requirePinVerifiedSession(request) };

export function registerTransactionRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/transactions',
    {
      ...pinVerified,
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
