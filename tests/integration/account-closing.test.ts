import { sql } from 'drizzle-orm';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_CLOSING_MESSAGES } from '#shared/contracts/account-closing';
import { WRONG_CURRENT_PASSWORD_MESSAGE } from '#shared/contracts/auth';
import { RECORD_RETENTION_YEARS_MESSAGE } from '#shared/contracts/kyc-settings';
import { TRANSFER_MESSAGES } from '#shared/contracts/transfers';
import { purgeKycImagesPastRetention } from '../../src/server/features/kyc/documents/retention.ts';
import { currentSettingsForm, signUpAdminWithVerifiedPin, uploadFile } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { waitForMail } from '../fixtures/mail-server.ts';
import { call, sessionCookieOf, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { balanceMicros, decide, expectStatus, fundWallet, requestTransfer, submitDeposit } from '../fixtures/wallet.ts';

const { harness, admin, mail } = useIntegrationFile({ mailServer: true });

const db = () => harness.database.handle.db;

function closeAccount(user: Pick<SignedUpUser, 'cookie'>, currentPassword: unknown) {
  return call(harness.app, { method: 'POST', url: '/api/auth/close-account', cookie: user.cookie, body: { currentPassword } });
}

function logIn(user: SignedUpUser, password = user.password) {
  return call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password } });
}

async function isClosed(userId: string): Promise<boolean> {
  const result = await db().execute<{ closed: boolean }>(sql`select closed_at is not null as closed from users where id = ${userId}`);
  return result.rows[0]?.closed ?? false;
}

async function expectRefused(user: SignedUpUser, message: string) {
  const answer = await closeAccount(user, user.password);
  expect(answer.statusCode, answer.body).toBe(409);
  expect(answer.json().error).toMatchObject({ code: 'ACCOUNT_NOT_CLOSABLE', message });
  expect(await isClosed(user.id)).toBe(false);
  expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(200);
}

/** A small JPEG uploaded as the customer's document photo through the real upload route; answers its id. */
async function uploadDocumentPhoto(user: SignedUpUser): Promise<string> {
  const width = 400;
  const height = 320;
  const data = Buffer.alloc(width * height * 4);
  for (let index = 0; index < width * height; index += 1) {
    data[index * 4] = (index % width) % 256;
    data[index * 4 + 1] = 90;
    data[index * 4 + 2] = Math.floor(index / width) % 256;
    data[index * 4 + 3] = 255;
  }
  const bytes = Buffer.from(jpeg.encode({ data, width, height }, 80).data);
  const answer = await uploadFile(harness.app, '/api/kyc/level2/images/document_front', {
    cookie: user.cookie,
    bytes,
    contentType: 'image/jpeg',
    fileName: 'front.jpg',
  });
  expectStatus(answer, 201);
  return answer.json().image.id as string;
}

async function imageState(imageId: string): Promise<{ purged: boolean; hasContent: boolean }> {
  const result = await db().execute<{ purged: boolean; has_content: boolean }>(
    sql`select purged_at is not null as purged, content is not null as has_content from kyc_images where id = ${imageId}`,
  );
  const row = result.rows[0];
  if (!row) throw new Error(`image ${imageId} is gone`);
  return { purged: row.purged, hasContent: row.has_content };
}

/** The database's refusal of a statement, as text; undefined when it ran. */
async function refusal(statement: Promise<unknown>): Promise<string | undefined> {
  try {
    await statement;
    return undefined;
  } catch (error) {
    return String((error as { cause?: unknown }).cause ?? error);
  }
}

describe('closing one’s own account', () => {
  it('with the password and a zero balance: every session ends, sign-in is refused, the owner is told and the records stay', async () => {
    const customer = await signUpVerifiedUser(harness.app, { fullName: 'Meera Closing' });
    const otherPhone = sessionCookieOf(await logIn(customer));

    const answer = await closeAccount(customer, customer.password);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ message: ACCOUNT_CLOSING_MESSAGES.closed });
    expect(String(answer.headers['set-cookie'])).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);

    expect(await isClosed(customer.id)).toBe(true);
    expect((await call(harness.app, { url: '/api/me', cookie: customer.cookie })).statusCode).toBe(401);
    expect((await call(harness.app, { url: '/api/me', cookie: otherPhone })).statusCode).toBe(401);

    const refusedSignIn = await logIn(customer);
    expect(refusedSignIn.statusCode).toBe(403);
    expect(refusedSignIn.json().error).toMatchObject({ code: 'ACCOUNT_CLOSED', message: ACCOUNT_CLOSING_MESSAGES.signInRefused });
    expect(refusedSignIn.headers['set-cookie'] ?? '').not.toMatch(/session/);
    // Without the password, a closed account answers as any wrong password does: closing reveals nothing to a guesser.
    const wrongPassword = await logIn(customer, 'not-the-password');
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().error.code).toBe('INVALID_CREDENTIALS');

    const message = await waitForMail(mail, customer.email, 'your account is closed');
    expect(message).toContain('you can no longer sign in to it');
    expect(message).toContain('for 5 years after closing');

    // A reset link is neither stored nor sent, under the same answer as for any e-mail.
    const reset = await call(harness.app, { method: 'POST', url: '/api/auth/forgot-password', body: { email: customer.email } });
    expect(reset.statusCode).toBe(202);
    const tokens = await db().execute<{ count: number }>(sql`select count(*)::int as count from password_reset_tokens where user_id = ${customer.id}`);
    expect(tokens.rows[0]?.count).toBe(0);

    const kept = await db().execute<{ trail: number; kyc: number; audit: number }>(sql`
      select (select count(*)::int from signup_trail where user_id = ${customer.id}) as trail,
             (select count(*)::int from kyc_records where user_id = ${customer.id}) as kyc,
             (select count(*)::int from audit_log where action = 'account.close' and target_user_id = ${customer.id} and actor_user_id = ${customer.id}) as audit`);
    expect(kept.rows[0]).toEqual({ trail: 1, kyc: 1, audit: 1 });
  });

  it('refuses a wrong or missing password with 400 at its field, and changes nothing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const wrong = await closeAccount(customer, 'not-my-password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'INVALID_CREDENTIALS', fields: { currentPassword: WRONG_CURRENT_PASSWORD_MESSAGE } });
    for (const bad of ['', 42, 'x'.repeat(129)]) {
      const answer = await closeAccount(customer, bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(400);
      expect(answer.json().error.code).toBe('VALIDATION_FAILED');
    }
    expect(await isClosed(customer.id)).toBe(false);
    expect((await call(harness.app, { url: '/api/me', cookie: customer.cookie })).statusCode).toBe(200);
  });

  it('needs a signed-in, PIN-verified session', async () => {
    expect((await closeAccount({ cookie: '' }, 'whatever')).statusCode).toBe(401);
    const customer = await signUpVerifiedUser(harness.app);
    const unverified = sessionCookieOf(await logIn(customer));
    expect((await closeAccount({ cookie: unverified }, customer.password)).statusCode).toBe(403);
    expect(await isClosed(customer.id)).toBe(false);
  });

  it('refuses while money is in the account', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, customer, '10');
    await expectRefused(customer, ACCOUNT_CLOSING_MESSAGES.balanceNotZero);
  });

  it('refuses while a transfer is in progress, to the sender and to the recipient alike', async () => {
    const sender = await signUpVerifiedUser(harness.app);
    const recipient = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, sender, '10');
    const transfer = await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '10' });
    expectStatus(transfer, 201);
    expect(await balanceMicros(harness, sender.id)).toBe(0n);
    await expectRefused(sender, ACCOUNT_CLOSING_MESSAGES.inProgress);
    await expectRefused(recipient, ACCOUNT_CLOSING_MESSAGES.inProgress);

    expectStatus(await decide(harness, admin, 'transfers', transfer.json().transfer.id as string, 'approve'), 200);
    expectStatus(await closeAccount(sender, sender.password), 200);
  });

  it('refuses a pending deposit, a frozen account and an admin', async () => {
    const depositor = await signUpVerifiedUser(harness.app);
    await submitDeposit(harness, depositor, '10');
    await expectRefused(depositor, ACCOUNT_CLOSING_MESSAGES.inProgress);

    const frozen = await signUpVerifiedUser(harness.app);
    const freeze = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/kyc/customers/${frozen.id}/freeze`,
      cookie: admin.cookie,
      body: { reason: 'Unusual sign-ins' },
    });
    expectStatus(freeze, 200);
    await expectRefused(frozen, ACCOUNT_CLOSING_MESSAGES.frozen);

    const otherAdmin = await signUpAdminWithVerifiedPin(harness);
    await expectRefused(otherAdmin, ACCOUNT_CLOSING_MESSAGES.admin);
  });

  it('takes no transfer to a closed account: it is answered as an unknown e-mail and nothing moves', async () => {
    const sender = await signUpVerifiedUser(harness.app);
    const closing = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, sender, '10');
    expectStatus(await closeAccount(closing, closing.password), 200);
    const refused = await requestTransfer(harness, sender, { recipientEmail: closing.email, amount: '1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ recipientEmail: TRANSFER_MESSAGES.unknownRecipient });
    expect(await balanceMicros(harness, sender.id)).toBe(10_000_000n);
  });

  it('never both closes and takes a transfer sent at the same moment', async () => {
    for (let round = 0; round < 4; round += 1) {
      const sender = await signUpVerifiedUser(harness.app);
      const closing = await signUpVerifiedUser(harness.app);
      await fundWallet(harness, admin, sender, '10');
      const [closed, transfer] = await Promise.all([
        closeAccount(closing, closing.password),
        requestTransfer(harness, sender, { recipientEmail: closing.email, amount: '10' }),
      ]);
      expect([closed.statusCode, transfer.statusCode], `${closed.body} ${transfer.body}`).not.toEqual([200, 201]);
      expect([200, 409]).toContain(closed.statusCode);
      expect([201, 400]).toContain(transfer.statusCode);
    }
  });

  it('answers two closes at once with one close', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const answers = await Promise.all([closeAccount(customer, customer.password), closeAccount(customer, customer.password)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toContain(200);
    for (const answer of answers) expect([200, 401]).toContain(answer.statusCode);
    const audits = await db().execute<{ count: number }>(
      sql`select count(*)::int as count from audit_log where action = 'account.close' and target_user_id = ${customer.id}`,
    );
    expect(audits.rows[0]?.count).toBe(1);
    // Each answer is given after its e-mail was handed to the mail server, so both have arrived by now.
    await waitForMail(mail, customer.email, 'your account is closed');
    const closedMails = mail.messages.filter(
      (message) => message.to.includes(customer.email.toLowerCase()) && /^Subject: .*your account is closed/m.test(message.decoded),
    );
    expect(closedMails).toHaveLength(1);
  });
});

describe('the records of a closed account', () => {
  it('are kept by the database itself: no delete, no purge before 5 years, no replaced image', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const imageId = await uploadDocumentPhoto(customer);
    expect(await refusal(db().execute(sql`delete from kyc_images where id = ${imageId}`))).toMatch(/kyc_images rows are kept/);
    expect(await refusal(db().execute(sql`delete from kyc_records where user_id = ${customer.id}`))).toMatch(/kyc_records rows are kept/);
    expect(await refusal(db().execute(sql`delete from signup_trail where user_id = ${customer.id}`))).toMatch(/signup_trail rows are kept/);
    expect(await refusal(db().execute(sql`delete from users where id = ${customer.id}`))).toMatch(/on table "users"|are kept/);
    expect(await refusal(db().execute(sql`update kyc_images set content = '\\x00' where id = ${imageId}`))).toMatch(/never replaced/);
    const purgeNow = sql`update kyc_images set purged_at = now(), content = null, wrapped_key = null, content_iv = null, content_tag = null where id = ${imageId}`;
    expect(await refusal(db().execute(purgeNow))).toMatch(/purge refused/);

    expectStatus(await closeAccount(customer, customer.password), 200);
    await db().execute(sql`update users set closed_at = now() - interval '4 years 11 months' where id = ${customer.id}`);
    expect(await refusal(db().execute(purgeNow))).toMatch(/purge refused/);
    expect(await imageState(imageId)).toEqual({ purged: false, hasContent: true });
  });

  it('lose their images to the purge only after the retention setting’s years, and the purge says what it removed', async () => {
    const longGone = await signUpVerifiedUser(harness.app);
    const recent = await signUpVerifiedUser(harness.app);
    const longGoneImage = await uploadDocumentPhoto(longGone);
    const recentImage = await uploadDocumentPhoto(recent);
    for (const customer of [longGone, recent]) expectStatus(await closeAccount(customer, customer.password), 200);
    await db().execute(sql`update users set closed_at = now() - interval '6 years' where id = ${longGone.id}`);
    await db().execute(sql`update users set closed_at = now() - interval '4 years' where id = ${recent.id}`);

    // With the setting at 7 years, the account closed 6 years ago is not due either.
    const seven = await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: admin.cookie,
      body: await currentSettingsForm(harness.app, admin.cookie, { recordRetentionYears: 7 }),
    });
    expectStatus(seven, 200);
    expect((await purgeKycImagesPastRetention(db(), { purge: true })).accounts.map((account) => account.userId)).not.toContain(longGone.id);
    expect(await imageState(longGoneImage)).toEqual({ purged: false, hasContent: true });

    const five = await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: admin.cookie,
      body: await currentSettingsForm(harness.app, admin.cookie, { recordRetentionYears: 5 }),
    });
    expectStatus(five, 200);
    const listed = await purgeKycImagesPastRetention(db(), { purge: false });
    expect(listed.accounts.find((account) => account.userId === longGone.id)).toMatchObject({ email: longGone.email, images: 1 });
    expect(await imageState(longGoneImage)).toEqual({ purged: false, hasContent: true });

    const purged = await purgeKycImagesPastRetention(db(), { purge: true });
    expect(purged.retentionYears).toBe(5);
    expect(purged.accounts.find((account) => account.userId === longGone.id)).toMatchObject({ images: 1 });
    expect(purged.accounts.map((account) => account.userId)).not.toContain(recent.id);
    expect(await imageState(longGoneImage)).toEqual({ purged: true, hasContent: false });
    expect(await imageState(recentImage)).toEqual({ purged: false, hasContent: true });

    // The purged image is gone for admins too, and its row, the KYC record and the audit of the purge stay.
    const view = await call(harness.app, { url: `/api/admin/kyc/images/${longGoneImage}`, cookie: admin.cookie });
    expect(view.statusCode).toBe(404);
    const audit = await db().execute<{ count: number }>(
      sql`select count(*)::int as count from audit_log where action = 'kyc.images_purge' and target_user_id = ${longGone.id}`,
    );
    expect(audit.rows[0]?.count).toBe(1);
    expect(await refusal(db().execute(sql`update kyc_images set purged_at = null where id = ${longGoneImage}`))).toMatch(/stays purged/);
    expect((await purgeKycImagesPastRetention(db(), { purge: true })).accounts.map((account) => account.userId)).not.toContain(longGone.id);
  });

  it('keep a retention setting of at least 5 years', async () => {
    for (const years of [4, 0, 51, 'five', 5.5]) {
      const answer = await call(harness.app, {
        method: 'PUT',
        url: '/api/admin/settings',
        cookie: admin.cookie,
        body: await currentSettingsForm(harness.app, admin.cookie, { recordRetentionYears: years }),
      });
      expect(answer.statusCode, String(years)).toBe(400);
      expect(answer.json().error.fields).toMatchObject({ recordRetentionYears: RECORD_RETENTION_YEARS_MESSAGE });
    }
    const settings = await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie });
    expect(settings.json().recordRetentionYears).toBe(5);
  });
});
