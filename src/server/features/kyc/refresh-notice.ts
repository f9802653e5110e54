import type { FastifyBaseLogger } from 'fastify';
import { KYC_REFRESH_OPENS_DAYS_BEFORE, kycRefreshOpen } from '#shared/contracts/kyc';
import type { Database } from '../../db/client.ts';
import { createNotifications } from '../../platform/notifications/service.ts';
import { createPeriodicWorker, type PeriodicWorker } from '../../platform/workers/periodic.ts';
import { getSettings } from '../settings/service.ts';
import { kycRefreshDue, kycRefreshOverdue } from '../notifications/templates.ts';
import * as kycRepository from './repository.ts';
import { refreshDueAtOf } from './service.ts';

/*
 * The notice 14 days before a customer's KYC refresh is due (decision 047): in the app and by e-mail, in
 * the customer's language, once per refresh date. `kyc_records.refresh_notice_due_at` records the date the
 * notice was sent for, set in the transaction that writes the notification, by an UPDATE that only one
 * process can win; a refresh moves the date and the next one gets its own notice. A customer whose date had
 * already passed when the worker first saw them (a date moved back by a new risk category or fewer months in the
 * settings, a worker that was not running) is told once that the refresh is overdue, in the words of the KYC page.
 */

/** Customers told per tick at most; the next tick takes the rest. */
const NOTICES_PER_TICK = 200;
/** The date moves by days, so an hourly look is enough. */
const INTERVAL_SECONDS = 3600;

/** Sends the notices due now; answers how many were sent. Safe in every process at once. */
export async function sendKycRefreshNotices(db: Database, notificationEmails?: { poke(): void }): Promise<number> {
  // The present, as the candidates' query (by the database's clock) takes it: the check under the lock cannot be given another time.
  const now = new Date();
  const settings = await getSettings(db);
  const candidates = await kycRepository.findRefreshNoticeCandidates(db, {
    monthsHighRisk: settings.kycRefreshMonthsHighRisk,
    monthsOther: settings.kycRefreshMonthsOther,
    days: KYC_REFRESH_OPENS_DAYS_BEFORE,
    limit: NOTICES_PER_TICK,
  });
  let sent = 0;
  for (const userId of candidates) {
    const told = await db.transaction(async (transaction) => {
      // The facts again, under the profile's lock: the level and the date decide, as the KYC page shows them.
      const row = await kycRepository.findKyc(transaction, userId, { forUpdate: true });
      const dueAt = row === undefined ? null : refreshDueAtOf(row, settings);
      if (dueAt === null || !kycRefreshOpen(dueAt, now)) return false;
      if (!(await kycRepository.markRefreshNoticeSent(transaction, userId, dueAt))) return false;
      const overdue = dueAt.getTime() <= now.getTime();
      await createNotifications(transaction, [overdue ? kycRefreshOverdue(userId) : kycRefreshDue(userId, dueAt)]);
      return true;
    });
    if (told) sent += 1;
  }
  // The e-mails go out at once rather than at the delivery's next sweep.
  if (sent > 0) notificationEmails?.poke();
  return sent;
}

export function createKycRefreshNoticeWorker(options: { db: Database; log: FastifyBaseLogger; notificationEmails: { poke(): void } }): PeriodicWorker {
  const { db, log, notificationEmails } = options;
  return createPeriodicWorker({
    intervalSeconds: INTERVAL_SECONDS,
    log,
    failureMessage: 'KYC refresh notice tick failed',
    tick: async () => {
      await sendKycRefreshNotices(db, notificationEmails);
    },
  });
}
