import { walletSummarySchema } from '#shared/contracts/wallet';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { getWalletSummary } from './service.ts';

export function registerWalletRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/wallet/summary',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Balance, pending deposit / withdrawal / transfer sums and the stored rates',
        response: responses({ 200: walletSummarySchema }),
      },
    },
    async (request) => getWalletSummary(context.database.db, sessionOf(request).userId),
  );
}
