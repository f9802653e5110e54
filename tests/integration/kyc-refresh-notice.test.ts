import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_REFRESH_MESSAGES } from '#shared/contracts/kyc';
import { sendKycRefreshNotices } from '../../src/server/features/kyc/refresh-notice.ts';
import { findKyc } from '../../src/server/features/kyc/repository.ts';
import { refreshDueAtOf } from '../../src/server/features/kyc/service.ts';
import { getSettings } from '../../src/server/features/settings/service.ts';
import { startNotificationEmailDelivery, type NotificationEmailDelivery } from '../../src/server/platform/notifications/service.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { signUpVerifiedUser, TEST_ORIGIN, type SignedUpUser } from '../fixtures/test-app.ts';

/*
 * The notice 14 days before the KYC refresh is due (decision 047): in the app and by e-mail, in the customer's
 * language, once per refresh date, whatever the number of processes sending; a customer whose date passed before they
 * were told is told once that the refresh is overdue. The clock is moved as the desk's
 * refresh tests move it: the customer's PAN check and tax residence declaration are dated back.
 */

const { harness, mail } = useIntegrationFile({ mailServer: true });
let emails: NotificationEmailDelivery;

beforeAll(() => {
  // As main.ts wires it: the worker pokes an e-mail delivery when it told someone.
  emails = startNotificationEmailDelivery({
    db: harness.database.handle.db,
    mailer: harness.context.mailer,
    appOrigin: TEST_ORIGIN,
    log: pino({ level: 'silent' }),
  });
});
afterAll(async () => {
  await emails.stop();
});

const TITLE = 'Time to refresh your KYC';

/** Dates the customer's PAN check and tax residence declaration this many days back (a low-risk KYC lasts 12 months). */
async function ageKyc(user: SignedUpUser, days: number): Promise<void> {
  await harness.database.handle.db.execute(sql`update kyc_records set pan_checked_at = now() - make_interval(days => ${days}),
    tax_residence_declared_at = now() - make_interval(days => ${days}) where user_id = ${user.id}`);
}

async function noticesOf(user: SignedUpUser): Promise<{ title: string; body: string; emailSubject: string | null; link: string | null }[]> {
  const result = await harness.database.handle.db.execute<{ title: string; body: string; emailSubject: string | null; link: string | null }>(
    sql`select title, body, email_subject as "emailSubject", link from notifications where user_id = ${user.id} and kind = 'kyc_required' order by created_at`,
  );
  return result.rows;
}

async function waitForMail(to: string, words: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (mail.messages.some((message) => message.to.includes(to) && message.decoded.includes(words))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`No mail with "${words}" reached ${to}`);
}

describe('the KYC refresh notice', () => {
  it('tells a customer once, 14 days before the date, in the app and by e-mail, even with two workers at once; nobody earlier', async () => {
    const due = await signUpVerifiedUser(harness.app);
    const early = await signUpVerifiedUser(harness.app);
    await ageKyc(due, 356); // due in 9 or 10 days
    await ageKyc(early, 340); // due in 25 or 26 days: not yet
    const db = harness.database.handle.db;
    await Promise.all([sendKycRefreshNotices(db, emails), sendKycRefreshNotices(db, emails)]);
    await sendKycRefreshNotices(db, emails);
    const notices = await noticesOf(due);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ title: TITLE, emailSubject: TITLE, link: '/kyc' });
    expect(notices[0]?.body).toMatch(/^Refresh your KYC by \d{1,2} [A-Z][a-z]+ \d{4}: submit your PAN again/);
    await waitForMail(due.email, `Subject: ${TITLE}`);
    expect(await noticesOf(early)).toEqual([]);

    // Fifteen days later the early one's date is near, and only the early one is told.
    await ageKyc(early, 355);
    expect(await sendKycRefreshNotices(db, emails)).toBe(1);
    expect(await noticesOf(early)).toHaveLength(1);
    expect(await noticesOf(due)).toHaveLength(1);
  });

  it('tells a customer already past the date, whom the worker never told, once that the refresh is overdue', async () => {
    const overdue = await signUpVerifiedUser(harness.app);
    await ageKyc(overdue, 400); // due a month ago: the money gate refuses withdrawals and the page says why
    const db = harness.database.handle.db;
    await Promise.all([sendKycRefreshNotices(db, emails), sendKycRefreshNotices(db, emails)]);
    expect(await sendKycRefreshNotices(db, emails)).toBe(0);
    const notices = await noticesOf(overdue);
    expect(notices).toEqual([{ title: TITLE, body: KYC_REFRESH_MESSAGES.overdue, emailSubject: TITLE, link: '/kyc' }]);
    await waitForMail(overdue.email, 'Your KYC is overdue for its periodic refresh');
  });

  it('does not tell a customer told 14 days before again once the date has passed', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const db = harness.database.handle.db;
    await ageKyc(customer, 356);
    expect(await sendKycRefreshNotices(db, emails)).toBe(1);
    // Fifteen days on: the dates move back together, the one the customer was told of included, and it has passed.
    await ageKyc(customer, 371);
    const row = await findKyc(db, customer.id);
    const dueAt = row === undefined ? null : refreshDueAtOf(row, await getSettings(db));
    if (dueAt === null || dueAt.getTime() > Date.now()) throw new Error('the refresh date should have passed');
    await db.execute(sql`update kyc_records set refresh_notice_due_at = ${dueAt.toISOString()}::timestamptz where user_id = ${customer.id}`);
    expect(await sendKycRefreshNotices(db, emails)).toBe(0);
    expect(await noticesOf(customer)).toHaveLength(1);
  });

  it('tells again for the next refresh date, after the KYC was refreshed', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const db = harness.database.handle.db;
    await ageKyc(customer, 356);
    await sendKycRefreshNotices(db, emails);
    // Refreshed a year ago, tomorrow's customer is near the next date: a new date, a new notice.
    await ageKyc(customer, 355);
    await sendKycRefreshNotices(db, emails);
    expect(await noticesOf(customer)).toHaveLength(2);
  });

  it('writes to a customer who reads Hindi in Hindi', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    await harness.database.handle.db.execute(sql`update profiles set language = 'hi' where user_id = ${customer.id}`);
    await ageKyc(customer, 356);
    await sendKycRefreshNotices(harness.database.handle.db, emails);
    const [notice] = await noticesOf(customer);
    expect(notice?.title).toBe('अपना KYC नवीनीकृत करने का समय');
    expect(notice?.body).toMatch(/तक अपना KYC नवीनीकृत करें/);
  });

  it('tells a customer who reads Hindi that the refresh is overdue in the KYC page’s Hindi words', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    await harness.database.handle.db.execute(sql`update profiles set language = 'hi' where user_id = ${customer.id}`);
    await ageKyc(customer, 400);
    await sendKycRefreshNotices(harness.database.handle.db, emails);
    const hindi = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../src/web/lib/i18n/catalogs/hi.json'), 'utf8')) as Record<string, string>;
    expect(await noticesOf(customer)).toEqual([
      { title: 'अपना KYC नवीनीकृत करने का समय', body: hindi['message.kycRefreshOverdue'], emailSubject: 'अपना KYC नवीनीकृत करने का समय', link: '/kyc' },
    ]);
  });

  it('tells nobody below level 1, whose KYC has no refresh date', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    await ageKyc(customer, 356);
    await harness.database.handle.db.execute(sql`update profiles set phone_verified_at = null where user_id = ${customer.id}`);
    await sendKycRefreshNotices(harness.database.handle.db, emails);
    expect(await noticesOf(customer)).toEqual([]);
  });
});
