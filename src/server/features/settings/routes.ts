import {
  adminSettingsResponseSchema,
  publicSettingsResponseSchema,
  ratesResponseSchema,
  SETTINGS_UPDATED_MESSAGE,
  updateSettingsPendingResponseSchema,
  updateSettingsRequestSchema,
  updateSettingsResponseSchema,
} from '#shared/contracts/settings';
import { operatorIdentityResponseSchema } from '#shared/contracts/operator-identity';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as settingsService from './service.ts';

export function registerSettingsRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/rates',
    { schema: { tags: ['settings'], summary: 'Current USDT to INR rates (public)', response: responses({ 200: ratesResponseSchema }) } },
    async () => settingsService.getRates(db),
  );

  app.get(
    '/api/settings/public',
    {
      schema: {
        tags: ['settings'],
        summary:
          'Rates, deposit addresses, QR images, support contact, minimum deposit, app download and the hours withdrawals to a new bank account pause (public)',
        response: responses({ 200: publicSettingsResponseSchema }),
      },
    },
    // The pause on withdrawals to a new bank account, so that the landing page's How It Works can say it before sign-up.
    async () => ({ ...(await settingsService.getPublicSettings(db)), newAccountPauseHours: context.config.securityCoolingOffHours }),
  );

  app.get(
    '/api/legal/operator',
    {
      schema: {
        tags: ['settings'],
        summary: 'The operator’s identity and grievance officer (empty strings where not set) and the consent notice’s version (public)',
        response: responses({ 200: operatorIdentityResponseSchema }),
      },
    },
    async () => settingsService.getOperatorIdentity(db),
  );
}

/** Reading and saving all settings (admins); registered inside the admin area. */
export function registerSettingsAdminRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/admin/settings',
    {
      schema: {
        tags: ['admin'],
        summary: 'All settings (admin only; VIP customers read the public settings)',
        response: responses({ 200: adminSettingsResponseSchema }),
      },
    },
    async (request) => settingsService.getAdminSettings(db, sessionOf(request)),
  );

  app.put(
    '/api/admin/settings',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Save all settings at once (admin only); nothing is saved when any field is invalid, (409 CONFLICT) when the settings changed since expectedUpdatedAt, or (409 RATE_CHANGE_NEEDS_CONFIRMATION) when a rate moves more than 5% without confirmedLargeRateChange; 202 when a deposit address change, a change of the rates or a raise of the large-withdrawal amount waits for a second admin (the rest is saved)',
        body: updateSettingsRequestSchema,
        response: responses({ 200: updateSettingsResponseSchema, 202: updateSettingsPendingResponseSchema }),
      },
    },
    async (request, reply) => {
      const { settings, pendingChanges } = await settingsService.updateSettings(context, request, sessionOf(request), request.body);
      const [pendingChange] = pendingChanges;
      if (pendingChange)
        return reply.code(202).send({ message: settingsService.awaitingSecondAdminMessage(pendingChanges), settings, pendingChange, pendingChanges });
      return reply.code(200).send({ message: SETTINGS_UPDATED_MESSAGE, settings });
    },
  );
}
