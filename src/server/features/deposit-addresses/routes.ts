import { depositAddressQuerySchema, depositAddressResponseSchema } from '#shared/contracts/deposit-addresses';
import { depositKeyListResponseSchema, setDepositKeyRequestSchema, setDepositKeyResponseSchema } from '#shared/contracts/deposit-keys';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { listDepositKeys, setDepositKey } from './keys.ts';
import * as depositAddressService from './service.ts';

/** The customer's own watch-only deposit address; there is no way to ask for anyone else's. */
export function registerDepositAddressRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/deposits/address',
    {
      schema: {
        tags: ['deposits'],
        summary:
          'The signed-in customer’s own deposit address on a network, assigned on first need; 404 when the network has no extended public key configured',
        querystring: depositAddressQuerySchema,
        response: responses({ 200: depositAddressResponseSchema }),
      },
    },
    async (request) => depositAddressService.ownDepositAddress(db, context.config.depositExtendedPublicKeys, sessionOf(request).userId, request.query.network),
  );
}

/** The deposit keys in the admin settings (decision 045); registered inside the admin area. */
export function registerDepositKeyAdminRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;
  const environment = context.config.depositExtendedPublicKeys;

  app.get(
    '/api/admin/deposit-keys',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Per network: whether customers get own deposit addresses, from which key (environment or settings, shown only in part) and how many were issued',
        response: responses({ 200: depositKeyListResponseSchema }),
      },
    },
    async () => listDepositKeys(db, environment),
  );

  app.post(
    '/api/admin/deposit-keys',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Set a network’s account-level extended public key (xpub) where the environment sets none; anything private is refused. While two admins exist it waits for a second admin (202)',
        body: setDepositKeyRequestSchema,
        response: responses({ 200: setDepositKeyResponseSchema, 202: setDepositKeyResponseSchema }),
      },
    },
    async (request, reply) => {
      const answer = await setDepositKey(db, environment, { userId: sessionOf(request).userId, ipAddress: request.ip }, request.body);
      return reply.code(answer.statusCode).send(answer.body);
    },
  );
}
