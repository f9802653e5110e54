import { depositAddressQuerySchema, depositAddressResponseSchema } from '#shared/contracts/deposit-addresses';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as depositAddressService from './service.ts';

/** The customer's own watch-only deposit address; there is no way to ask for anyone else's. */
export function registerDepositAddressRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/deposits/address',
    {
      schema: {
        tags: ['deposits'],
        summary: 'The signed-in customer’s own deposit address on a network, assigned on first need; 404 when the network has no extended public key configured',
        querystring: depositAddressQuerySchema,
        response: responses({ 200: depositAddressResponseSchema }),
      },
    },
    async (request) => depositAddressService.ownDepositAddress(db, context.config.depositExtendedPublicKeys, sessionOf(request).userId, request.query.network),
  );
}
