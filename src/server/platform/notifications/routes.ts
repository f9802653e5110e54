import {
  notificationListQuerySchema,
  notificationListResponseSchema,
  notificationPreferencesResponseSchema,
  notificationPreferencesSchema,
  unreadCountResponseSchema,
} from '../../../shared/contracts/notifications.ts';
import { okResponseSchema } from '../../../shared/contracts/common.ts';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { pinVerifiedRoute } from '../sessions/route-guards.ts';
import { requirePinVerifiedSession } from '../sessions/service.ts';
import * as notificationService from './service.ts';

/** The admin decision routes (approve or reject a deposit, withdrawal or transfer): their success means notifications were committed. */
const DECISION_ROUTE = /^\/api\/admin\/(deposits|withdrawals|transfers)\/[^/]+\/(approve|reject)$/;

export function registerNotificationRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  const delivery = notificationService.startNotificationEmailDelivery({ db, mailer: context.mailer, appOrigin: context.config.appOrigin, log: app.log });
  // After a decision has committed and answered, its e-mails go out at once; the delivery's timer catches anything else.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'POST' && reply.statusCode === 200 && DECISION_ROUTE.test(request.url.split('?')[0] ?? '')) delivery.poke();
  });
  app.addHook('onClose', async () => delivery.stop());

  app.get(
    '/api/notifications',
    {
      ...pinVerifiedRoute,
      schema: {
        tags: ['notifications'],
        summary: 'My notifications, newest first, with the number still unread',
        querystring: notificationListQuerySchema,
        response: responses({ 200: notificationListResponseSchema }),
      },
    },
    async (request) => notificationService.listNotifications(db, requirePinVerifiedSession(request).userId, request.query),
  );

  app.get(
    '/api/notifications/unread-count',
    { ...pinVerifiedRoute, schema: { tags: ['notifications'], summary: 'How many of my notifications are unread', response: responses({ 200: unreadCountResponseSchema }) } },
    async (request) => ({ unreadCount: await notificationService.countUnread(db, requirePinVerifiedSession(request).userId) }),
  );

  app.post(
    '/api/notifications/read',
    { ...pinVerifiedRoute, schema: { tags: ['notifications'], summary: 'Mark all my notifications read', response: responses({ 200: okResponseSchema }) } },
    async (request) => {
      await notificationService.markAllRead(db, requirePinVerifiedSession(request).userId);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/notification-preferences',
    {
      ...pinVerifiedRoute,
      schema: { tags: ['notifications'], summary: 'Which notification e-mails I get', response: responses({ 200: notificationPreferencesResponseSchema }) },
    },
    async (request) => ({ preferences: await notificationService.getPreferences(db, requirePinVerifiedSession(request).userId) }),
  );

  app.put(
    '/api/notification-preferences',
    {
      ...pinVerifiedRoute,
      schema: {
        tags: ['notifications'],
        summary: 'Turn notification e-mails on or off per kind (security e-mails always go)',
        body: notificationPreferencesSchema,
        response: responses({ 200: notificationPreferencesResponseSchema }),
      },
    },
    async (request) => ({ preferences: await notificationService.savePreferences(db, requirePinVerifiedSession(request).userId, request.body) }),
  );
}
