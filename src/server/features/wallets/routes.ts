import { idParamsSchema } from '#shared/contracts/common';
import {
  WALLET_MESSAGES,
  addWalletRequestSchema,
  addWalletResponseSchema,
  removeWalletResponseSchema,
  walletChallengeRequestSchema,
  walletChallengeResponseSchema,
  walletListResponseSchema,
} from '#shared/contracts/wallets';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as walletService from './service.ts';

/** "My wallets": addresses a customer proved by signing, from which deposits are credited without an admin. */
export function registerCustomerWalletRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.post(
    '/api/wallets/challenge',
    {
      schema: {
        tags: ['wallets'],
        summary: 'The message to sign in the wallet app to prove an address (valid 10 minutes)',
        body: walletChallengeRequestSchema,
        response: responses({ 200: walletChallengeResponseSchema }),
      },
    },
    async (request) => walletService.createChallenge(db, sessionOf(request).userId, request.body),
  );

  app.post(
    '/api/wallets',
    {
      schema: {
        tags: ['wallets'],
        summary: 'Add a wallet with its signature of the challenge (EIP-191 personal_sign for ERC20, signMessageV2 for TRC20)',
        body: addWalletRequestSchema,
        response: responses({ 201: addWalletResponseSchema }),
      },
    },
    async (request, reply) => {
      const { wallet, notice } = await walletService.addWallet(db, sessionOf(request).userId, request.body, request.ip);
      // The wallet is added either way; a mail server that fails is logged, not the customer's problem.
      await context.mailer.send(notice).catch((error: unknown) => request.log.error({ err: error }, 'Could not send the wallet-added e-mail'));
      return reply.code(201).send({ wallet, message: WALLET_MESSAGES.added });
    },
  );

  app.get(
    '/api/wallets',
    { schema: { tags: ['wallets'], summary: 'The customer’s verified wallets', response: responses({ 200: walletListResponseSchema }) } },
    async (request) => ({ items: await walletService.listWallets(db, sessionOf(request).userId) }),
  );

  app.delete(
    '/api/wallets/:id',
    { schema: { tags: ['wallets'], summary: 'Remove a verified wallet', params: idParamsSchema, response: responses({ 200: removeWalletResponseSchema }) } },
    async (request) => {
      await walletService.removeWallet(db, sessionOf(request).userId, request.params.id, request.ip);
      return { message: WALLET_MESSAGES.removed };
    },
  );
}
