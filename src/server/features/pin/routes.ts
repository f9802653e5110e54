import { okResponseSchema } from '../../../shared/contracts/common.ts';
import { changePinRequestSchema, resetPinRequestSchema, setupPinRequestSchema, verifyPinRequestSchema, verifyPinResponseSchema } from '../../../shared/contracts/pin.ts';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as pinService from './service.ts';

export function registerPinRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/pin/verify',
    { schema: { tags: ['pin'], summary: 'Verify the transaction PIN for this session', body: verifyPinRequestSchema, response: responses({ 200: verifyPinResponseSchema }) } },
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
    '/api/pin/reset',
    { schema: { tags: ['pin'], summary: 'Replace a forgotten PIN (needs the account password)', body: resetPinRequestSchema, response: responses({ 200: okResponseSchema }) } },
    async (request) => {
      await pinService.resetPin(context, request, sessionOf(request), request.body.password, request.body.pin);
      return { ok: true as const };
    },
  );

}

/** Changing the PIN needs a session whose PIN was verified; registered inside the customer area. */
export function registerPinChangeRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/pin/change',
    { schema: { tags: ['pin'], summary: 'Change the PIN, knowing the current one', body: changePinRequestSchema, response: responses({ 200: okResponseSchema }) } },
    async (request) => {
      await pinService.changePin(context, request, sessionOf(request), request.body.currentPin, request.body.newPin);
      return { ok: true as const };
    },
  );
}
