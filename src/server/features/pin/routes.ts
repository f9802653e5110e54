import { resetLinkCheckRequestSchema, resetLinkCheckResponseSchema } from '#shared/contracts/auth';
import { okResponseSchema } from '#shared/contracts/common';
import {
  changePinRequestSchema,
  pinResetLinkRequestSchema,
  pinResetLinkResponseSchema,
  resetPinRequestSchema,
  resetPinResponseSchema,
  setupPinRequestSchema,
  verifyPinRequestSchema,
  verifyPinResponseSchema,
} from '#shared/contracts/pin';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as pinService from './service.ts';

export function registerPinRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/pin/verify',
    {
      schema: {
        tags: ['pin'],
        summary: 'Verify the transaction PIN for this session',
        body: verifyPinRequestSchema,
        response: responses({ 200: verifyPinResponseSchema }),
      },
    },
    async (request) => {
      await pinService.verifyPinForSession(context, request, sessionOf(request), request.body.pin);
      return { verified: true as const };
    },
  );

  app.post(
    '/api/pin/setup',
    { schema: { tags: ['pin'], summary: 'Set the first transaction PIN', body: setupPinRequestSchema, response: responses({ 200: okResponseSchema }) } },
    async (request) => {
      await pinService.setUpPin(context, sessionOf(request), request.body.pin);
      return { ok: true as const };
    },
  );

  app.post(
    '/api/pin/reset-link',
    {
      schema: {
        tags: ['pin'],
        summary: 'E-mail a single-use link to replace a forgotten PIN (needs the account password; changes nothing yet)',
        body: pinResetLinkRequestSchema,
        response: responses({ 202: pinResetLinkResponseSchema }),
      },
    },
    async (request, reply) => {
      const message = await pinService.sendPinResetLink(context, request, sessionOf(request), request.body.password);
      return reply.code(202).send({ message });
    },
  );
}

/**
 * Completing a PIN reset needs the e-mailed token, not a session: the link may
 * be opened in another browser. A session of the same user that opens it stays
 * signed in and becomes PIN-verified; registered outside the areas.
 */
export function registerPinResetCompletionRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/pin/reset/check',
    {
      schema: {
        tags: ['pin'],
        summary: 'Whether a PIN reset link still works (asked when its page opens; uses nothing up)',
        body: resetLinkCheckRequestSchema,
        response: responses({ 200: resetLinkCheckResponseSchema }),
      },
    },
    async (request) => ({ valid: await pinService.checkPinResetLink(context, request, request.body.token) }),
  );

  app.post(
    '/api/pin/reset',
    {
      schema: {
        tags: ['pin'],
        summary: 'Set a new PIN with the token of an e-mailed reset link; ends every other session',
        body: resetPinRequestSchema,
        response: responses({ 200: resetPinResponseSchema }),
      },
    },
    async (request) => {
      const { signedIn } = await pinService.completePinReset(context, request.log, request.session, request.body.token, request.body.pin);
      return { ok: true as const, signedIn };
    },
  );
}

/** Changing the PIN needs a session whose PIN was verified; registered inside the customer area. */
export function registerPinChangeRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/pin/change',
    {
      schema: {
        tags: ['pin'],
        summary: 'Change the PIN, knowing the current one',
        body: changePinRequestSchema,
        response: responses({ 200: okResponseSchema }),
      },
    },
    async (request) => {
      await pinService.changePin(context, request, sessionOf(request), request.body.currentPin, request.body.newPin);
      return { ok: true as const };
    },
  );
}
