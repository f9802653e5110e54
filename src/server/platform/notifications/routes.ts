import {
  notificationListQuerySchema,
  notificationListResponseSchema,
  notificationPreferencesResponseSchema,
  notificationPreferencesSchema,
  unreadCountResponseSchema,
} from '#shared/contracts/notifications';
import { okResponseSchema } from '#shared/contracts/common';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../sessions/areas.ts';
import * as notificationService from './service.ts';

/** The admin decision routes (approve or reject a deposit, withdrawal or transfer): their success means notifications were committed. */
const DECISION_ROUTE = /^\/api\/admin\/(deposits|withdrawals|transfers)\/[^/]+\/(approve|reject)$/;

/**
 * Sends notification e-mails after commit. Registered on the root app before the
 * areas, so that its hook sees the admin decision routes of the admin area.
 */
export function registerNotificationEmailDelivery(app: ApiApp, context: AppContext): void {
  const { db } = context.database;
  const delivery = notificationService.startNotificationEmailDelivery({ db, mailer: context.mailer, appOrigin: context.config.appOrigin, log: app.log });
  // After a decision has committed and answered, its e-mails go out at once; the delivery's timer catches anything else.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'POST' && reply.statusCode === 200 && DECISION_ROUTE.test(request.url.split('?')[0] ?? '')) delivery.poke();
  });
  app.addHook('onClose', async () => delivery.stop());
}

/** The customer's notification routes, inside the customer area (a PIN-verified session). */
export function registerNotificationRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary: 'My notifications, newest first, with the number still unread',
        querystring: notificationListQuerySchema,
        response: responses({ 200: notificationListResponseSchema }),
      },
    },
    async (request) => notificationService.listNotifications(db, sessionOf(request).userId, request.query),
  );

  app.get(
    '/api/notifications/unread-count',
    { schema: { tags: ['notifications'], summary: 'How many of my notifications are unread', response: responses({ 200: unreadCountResponseSchema }) } },
    async (request) => ({ unreadCount: await notificationService.countUnread(db, sessionOf(request).userId) }),
  );

  app.post(
    '/api/notifications/read',
    { schema: { tags: ['notifications'], summary: 'Mark all my notifications read', response: responses({ 200: okResponseSchema }) } },
    async (request) => {
      await notificationService.markAllRead(db, sessionOf(request).userId);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/notification-preferences',
    {
      schema: { tags: ['notifications'], summary: 'Which notification e-mails I get', response: responses({ 200: notificationPreferencesResponseSchema }) },
    },
    async (request) => ({ preferences: await notificationService.getPreferences(db, sessionOf(request).userId) }),
  );

  app.put(
    '/api/notification-preferences',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Turn notification e-mails on or off per kind (security e-mails always go)',
        body: notificationPreferencesSchema,
        response: responses({ 200: notificationPreferencesResponseSchema }),
      },
    },
    async (request) => ({ preferences: await notificationService.savePreferences(db, sessionOf(request).userId, request.body) }),
  );
}
