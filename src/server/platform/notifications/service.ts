import type { FastifyBaseLogger } from 'fastify';
import type { NotificationList, NotificationPreferences } from '#shared/contracts/notifications';
import { PRODUCT_NAME } from '#shared/limits';
import type { Language } from '#shared/contracts/enums';
import type { Database, Executor } from '../../db/client.ts';
import { publishEvent } from '../events/publish.ts';
import { escapeHtml, type Mailer } from '../mail/mailer.ts';
import { decodeCursor, toPage } from '../pagination/cursor.ts';
import * as notificationRepository from './repository.ts';
import type { NewNotification, NotificationTexts } from './repository.ts';

export type { NewNotification, NotificationTexts } from './repository.ts';

/** A customer's notification: written in Hindi as well, so that a Hindi reader gets it in Hindi. */
export type LocalizedNotification = NewNotification & { hindi: NotificationTexts };

/** The wallet.updated reasons that tell an open app a notification arrived (it shows a toast) or was read. */
export const NOTIFICATION_EVENT_REASONS = { created: 'notification.created', read: 'notification.read' } as const;

/**
 * Records notifications inside the caller's transaction (the decision that
 * caused them), so a rolled-back decision tells no one. The open app hears of
 * them at commit; the e-mails are sent after commit by the delivery loop.
 */
/** Every admin's user id, for a notice to all admins. */
export function adminUserIds(db: Executor): Promise<string[]> {
  return notificationRepository.adminUserIds(db);
}

export async function createNotifications(db: Executor, items: NewNotification[]): Promise<void> {
  const users = new Set(items.map((item) => item.userId));
  // Stored in the reader's language (profile, issue 33): the list and the e-mail then say the same.
  await notificationRepository.insertInReadersLanguage(
    db,
    items,
    [...users].map((userId) => ({ type: 'wallet.updated' as const, userId, reason: NOTIFICATION_EVENT_REASONS.created })),
  );
}

export async function listNotifications(db: Database, userId: string, query: { cursor?: string | undefined; limit: number }): Promise<NotificationList> {
  const rows = await notificationRepository.listForUser(db, userId, decodeCursor(query.cursor), query.limit);
  const page = toPage(rows, query.limit);
  return {
    items: page.rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      title: row.title,
      body: row.body,
      link: row.link,
      createdAt: row.createdAtIso,
      read: row.read,
    })),
    nextCursor: page.nextCursor,
    unreadCount: await notificationRepository.countUnread(db, userId),
  };
}

export function countUnread(db: Database, userId: string): Promise<number> {
  return notificationRepository.countUnread(db, userId);
}

export async function markAllRead(db: Database, userId: string): Promise<void> {
  await notificationRepository.markAllRead(db, userId);
  await publishEvent(db, { type: 'wallet.updated', userId, reason: NOTIFICATION_EVENT_REASONS.read });
}

export async function getPreferences(db: Executor, userId: string): Promise<NotificationPreferences> {
  return (await notificationRepository.findPreferences(db, userId)) ?? { emailDeposits: true, emailWithdrawals: true, emailTransfers: true };
}

export async function savePreferences(db: Executor, userId: string, preferences: NotificationPreferences): Promise<NotificationPreferences> {
  await notificationRepository.savePreferences(db, userId, preferences);
  return preferences;
}

/** How often pending e-mails are looked for when no decision pokes the loop (one from another server process, say). */
const SWEEP_INTERVAL_MILLISECONDS = 15_000;
const BATCH_SIZE = 50;

export interface NotificationEmailDelivery {
  /** Sends what is pending now (after a decision committed); calls while a run is under way are folded into one more run. */
  poke(): void;
  /** Waits for the run under way, then stops the timer. */
  stop(): Promise<void>;
}

/**
 * Sends the e-mails of committed notifications: after each decision (poked by
 * the decision routes) and on a timer for anything else. Each notification is
 * claimed once across all server processes, then sent or skipped by the owner's
 * preference.
 */
export function startNotificationEmailDelivery(options: {
  db: Database;
  mailer: Mailer;
  appOrigin: string;
  log: FastifyBaseLogger;
}): NotificationEmailDelivery {
  const { db, mailer, appOrigin, log } = options;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const runOnce = async () => {
    for (;;) {
      const batch = await notificationRepository.claimPendingEmails(db, BATCH_SIZE);
      for (const email of batch.filter((item) => item.wanted)) {
        try {
          await mailer.send(composeEmail(email, appOrigin));
        } catch (error) {
          log.error({ err: error, notificationId: email.id }, 'A notification e-mail could not be queued');
          await notificationRepository.markEmailFailed(db, email.id);
        }
      }
      if (batch.length < BATCH_SIZE) return;
    }
  };
  const poke = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await runOnce().catch((error: unknown) => log.error({ err: error }, 'Sending notification e-mails failed'));
      } while (again && !stopped);
      running = undefined;
    })();
  };
  const timer = setInterval(poke, SWEEP_INTERVAL_MILLISECONDS);
  timer.unref();
  return {
    poke,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

const EMAIL_FRAME: Record<Language, { footer: (profileUrl: string) => string; details: (url: string) => string }> = {
  en: {
    footer: (profileUrl) =>
      `You get this e-mail because of activity on your ${PRODUCT_NAME} wallet. You can turn these e-mails off under Notification preferences on your profile: ${profileUrl}`,
    details: (url) => `See the details and the status timeline: ${url}`,
  },
  hi: {
    footer: (profileUrl) =>
      `आपको यह ई-मेल आपके ${PRODUCT_NAME} वॉलेट की गतिविधि के कारण मिला है। आप अपनी प्रोफ़ाइल में सूचना प्राथमिकताओं में जाकर ये ई-मेल बंद कर सकते हैं: ${profileUrl}`,
    details: (url) => `विवरण और स्थिति की समय-रेखा देखें: ${url}`,
  },
};

function composeEmail(email: notificationRepository.PendingEmail, appOrigin: string) {
  const frame = EMAIL_FRAME[email.language];
  const footer = frame.footer(`${appOrigin}/profile`);
  const details = email.link ? `\n\n${frame.details(`${appOrigin}${email.link}`)}` : '';
  const text = `${email.text}${details}\n\n${footer}`;
  const html = text
    .split('\n\n')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replaceAll('\n', '<br>')}</p>`)
    .join('\n');
  return { to: email.to, subject: email.subject, text, html };
}
