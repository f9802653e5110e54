import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notificationListResponseSchema, notificationPreferencesResponseSchema } from '#shared/contracts/notifications';
import type { ReceivedMail } from '../fixtures/mail-server.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, signUpVerifiedUser, uniqueEmail, type SignedUpUser } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  decide,
  expectLedgerConsistent,
  expectStatus,
  fundWallet,
  requestTransfer,
  requestWithdrawal,
  submitDeposit,
} from '../fixtures/wallet.ts';

const { harness, admin, mail } = useIntegrationFile({ mailServer: true });

async function notificationsOf(user: SignedUpUser) {
  const response = await call(harness.app, { url: '/api/notifications', cookie: user.cookie });
  expectStatus(response, 200);
  return notificationListResponseSchema.parse(response.json());
}

/** Waits for a mail to `to` whose subject or text contains `words` (subjects with a rupee sign are MIME-encoded, so those are found by their text). */
async function waitForMail(to: string, words: string): Promise<ReceivedMail> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const found = mail.messages.find((message) => message.to.includes(to) && message.decoded.includes(words));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`No mail with "${words}" reached ${to}`);
}

const mailsTo = (to: string) => mail.messages.filter((message) => message.to.includes(to));

/** The plain-text part of a mail as UTF-8 text, whichever transfer encoding the mailer chose for it (Hindi is not ASCII). */
function plainText(raw: string): string {
  const part = raw.split(/\r?\n--/).find((candidate) => /content-type:\s*text\/plain/i.test(candidate)) ?? raw;
  const [head = '', ...bodyLines] = part.split(/\r?\n\r?\n/);
  const body = bodyLines.join('\n\n');
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, '%25'));
  }
  return body;
}

async function waitForMailText(to: string, words: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const found = mail.messages.map((message) => (message.to.includes(to) ? plainText(message.raw) : '')).find((text) => text.includes(words));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`No mail with "${words}" reached ${to}`);
}

describe('notifications of decisions', () => {
  it('tells the owner of a credited deposit in the app and by e-mail naming the deposit and the amount; nobody else sees it', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const stranger = await signUpVerifiedUser(harness.app);
    const depositId = await fundWallet(harness, admin, user, '120.5');

    const list = await notificationsOf(user);
    expect(list.unreadCount).toBe(1);
    expect(list.items).toMatchObject([{ kind: 'deposit_credited', title: 'Deposit credited', read: false, link: `/wallet/transactions/deposit/${depositId}` }]);
    expect(list.items[0]?.body).toContain('120.50 USDT');

    const received = await waitForMail(user.email, 'Subject: Deposit credited: 120.50 USDT');
    expect(received.decoded).toContain(depositId);
    expect(received.decoded).toContain('120.50 USDT');

    expect((await notificationsOf(stranger)).items).toEqual([]);
    expect((await notificationsOf(admin)).items).toEqual([]);
    expect((await call(harness.app, { url: '/api/notifications' })).statusCode).toBe(401);

    // Reading them clears the count, for this user only.
    expectStatus(await call(harness.app, { method: 'POST', url: '/api/notifications/read', cookie: user.cookie, body: {} }), 200);
    const after = await notificationsOf(user);
    expect(after.unreadCount).toBe(0);
    expect(after.items[0]?.read).toBe(true);
    const count = await call(harness.app, { url: '/api/notifications/unread-count', cookie: user.cookie });
    expect(count.json()).toEqual({ unreadCount: 0 });
  });

  it('tells about a rejected deposit, a paid withdrawal with its UTR, a rejected withdrawal, and both sides of transfers', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const friend = await signUpVerifiedUser(harness.app, { fullName: 'Asha Friend' });
    await fundWallet(harness, admin, user, '500');
    const rejectedDeposit = await submitDeposit(harness, user, '30');
    expectStatus(await decide(harness, admin, 'deposits', rejectedDeposit, 'reject', { reason: 'Hash not found on chain' }), 200);

    const bankAccountId = await addBankAccount(harness, user);
    const paid = await requestWithdrawal(harness, user, { amount: '50', bankAccountId });
    expectStatus(await decide(harness, admin, 'withdrawals', paid.json().withdrawal.id, 'approve', { payoutReference: '998877665544' }), 200);
    const refused = await requestWithdrawal(harness, user, { amount: '20', bankAccountId });
    expectStatus(await decide(harness, admin, 'withdrawals', refused.json().withdrawal.id, 'reject', { reason: 'Account closed' }), 200);

    const sent = await requestTransfer(harness, user, { recipientEmail: friend.email, amount: '12.5' });
    expectStatus(await decide(harness, admin, 'transfers', sent.json().transfer.id, 'approve'), 200);
    const returned = await requestTransfer(harness, user, { recipientEmail: friend.email, amount: '3' });
    expectStatus(await decide(harness, admin, 'transfers', returned.json().transfer.id, 'reject'), 200);

    const mine = await notificationsOf(user);
    expect(mine.items.map((item) => item.kind)).toEqual([
      'transfer_rejected',
      'transfer_approved',
      'withdrawal_rejected',
      'withdrawal_paid',
      'deposit_rejected',
      'deposit_credited',
    ]);
    expect(mine.items.find((item) => item.kind === 'withdrawal_paid')?.body).toContain('998877665544');
    expect(mine.items.find((item) => item.kind === 'withdrawal_rejected')?.body).toContain('Reason: Account closed');
    expect(mine.items.find((item) => item.kind === 'deposit_rejected')?.body).toContain('Reason: Hash not found on chain');
    const theirs = await notificationsOf(friend);
    expect(theirs.items.map((item) => [item.kind, item.title])).toEqual([['transfer_received', 'Transfer received']]);
    expect(theirs.items[0]?.body).toContain('12.50 USDT');

    expect((await waitForMail(user.email, 'was paid to your bank account')).decoded).toContain('Bank reference (UTR): 998877665544');
    await waitForMail(friend.email, 'Subject: You received 12.50 USDT');
    expect((await waitForMail(user.email, 'Subject: Deposit rejected: 30.00 USDT')).decoded).toContain('Reason: Hash not found on chain');
    await expectLedgerConsistent(harness);
  });

  it('writes a Hindi reader’s notification and its e-mail in Hindi, with the same amounts and references, and an English reader’s in English', async () => {
    const hindiReader = await signUpVerifiedUser(harness.app);
    expectStatus(await call(harness.app, { method: 'PUT', url: '/api/me/language', cookie: hindiReader.cookie, body: { language: 'hi' } }), 200);
    const englishReader = await signUpVerifiedUser(harness.app);
    const hindiDeposit = await fundWallet(harness, admin, hindiReader, '1500');
    await fundWallet(harness, admin, englishReader, '1500');

    const [hindi] = (await notificationsOf(hindiReader)).items;
    expect(hindi).toMatchObject({ kind: 'deposit_credited', title: 'जमा राशि जमा हो गई', link: `/wallet/transactions/deposit/${hindiDeposit}` });
    expect(hindi?.body).toBe('आपकी 1,500.00 USDT (TRC20) की जमा राशि आपके वॉलेट में जमा हो गई।');
    const hindiMail = await waitForMailText(hindiReader.email, 'आपकी 1,500.00 USDT की जमा राशि जाँची गई');
    expect(hindiMail).toContain(`संदर्भ आईडी: ${hindiDeposit}`);
    expect(hindiMail).toContain('विवरण और स्थिति की समय-रेखा देखें');
    expect(hindiMail).not.toContain('See the details');

    expect((await notificationsOf(englishReader)).items[0]).toMatchObject({
      title: 'Deposit credited',
      body: 'Your deposit of 1,500.00 USDT (TRC20) was credited to your wallet.',
    });
    const englishMail = await waitForMail(englishReader.email, 'Your deposit of 1,500.00 USDT was checked and credited to your wallet.');
    expect(englishMail.decoded).toContain('See the details and the status timeline');
  });

  it('writes the security e-mail of a new bank account in Hindi to a Hindi reader', async () => {
    const hindiReader = await signUpVerifiedUser(harness.app);
    expectStatus(await call(harness.app, { method: 'PUT', url: '/api/me/language', cookie: hindiReader.cookie, body: { language: 'hi' } }), 200);
    await addBankAccount(harness, hindiReader);
    const text = await waitForMailText(hindiReader.email, 'निकासी के लिए आपके खाते में एक बैंक खाता जोड़ा गया।');
    expect(text).toContain('/forgot-password पर अपना पासवर्ड रीसेट करें');
    expect(text).not.toContain('If this was not you');
  });

  it('writes the password reset e-mail in Hindi to a Hindi reader', async () => {
    const hindiReader = await signUpVerifiedUser(harness.app);
    expectStatus(await call(harness.app, { method: 'PUT', url: '/api/me/language', cookie: hindiReader.cookie, body: { language: 'hi' } }), 200);
    expectStatus(await call(harness.app, { method: 'POST', url: '/api/auth/forgot-password', body: { email: hindiReader.email } }), 202);
    const text = await waitForMailText(hindiReader.email, 'हमें आपके खाते का पासवर्ड रीसेट करने का अनुरोध मिला है।');
    expect(text).toMatch(/नया पासवर्ड चुनने के लिए यह लिंक \d+ मिनट के अंदर खोलें:/);
    expect(text).toContain('/reset-password?token=');
  });

  it('writes the e-mail change mails and the freeze notices in Hindi to a Hindi reader; the admin’s reason is not shown', async () => {
    const hindiReader = await signUpVerifiedUser(harness.app);
    expectStatus(await call(harness.app, { method: 'PUT', url: '/api/me/language', cookie: hindiReader.cookie, body: { language: 'hi' } }), 200);
    // As if the pause after the sign-up's verification link had passed.
    await harness.database.handle.db.execute(
      sql`update email_verification_tokens set created_at = created_at - interval '61 seconds' where user_id = ${hindiReader.id}`,
    );
    const newEmail = uniqueEmail('hindi-new');
    const change = await call(harness.app, {
      method: 'POST',
      url: '/api/contact-verification/email/change',
      cookie: hindiReader.cookie,
      body: { currentPassword: hindiReader.password, newEmail },
    });
    expectStatus(change, 200);
    expect(await waitForMailText(newEmail, 'हमें इस ई-मेल पते को एक Rupeedesk खाते का ई-मेल पता बनाने का अनुरोध मिला है।')).toContain('/verify-email?token=');
    expect(await waitForMailText(hindiReader.email, `उसका ई-मेल पता ${newEmail} करने का अनुरोध किया है।`)).not.toContain('Someone signed in');

    const reason = 'FIU-IND: suspicious pattern of deposits';
    const frozen = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/kyc/customers/${hindiReader.id}/freeze`,
      cookie: admin.cookie,
      body: { reason },
    });
    expectStatus(frozen, 200);
    const [notice] = (await notificationsOf(hindiReader)).items;
    expect(notice).toMatchObject({ kind: 'kyc_updated', title: 'आपके खाते की समीक्षा चल रही है', link: '/kyc' });
    expect(notice?.body).not.toContain(reason);
  });

  it('records nothing for a decision that fails', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const depositId = await fundWallet(harness, admin, user, '10');
    expect((await decide(harness, admin, 'deposits', depositId, 'reject')).statusCode).toBe(409);
    expect((await notificationsOf(user)).items.map((item) => item.kind)).toEqual(['deposit_credited']);
  });
});

describe('notification preferences', () => {
  it('default to every e-mail, are saved per customer, and turn off e-mails of that kind only (the in-app notification stays)', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const other = await signUpVerifiedUser(harness.app);
    const read = await call(harness.app, { url: '/api/notification-preferences', cookie: user.cookie });
    expect(notificationPreferencesResponseSchema.parse(read.json()).preferences).toEqual({ emailDeposits: true, emailWithdrawals: true, emailTransfers: true });

    const saved = await call(harness.app, {
      method: 'PUT',
      url: '/api/notification-preferences',
      cookie: user.cookie,
      body: { emailDeposits: false, emailWithdrawals: true, emailTransfers: true },
    });
    expectStatus(saved, 200);
    expect(saved.json().preferences.emailDeposits).toBe(false);
    const otherRead = await call(harness.app, { url: '/api/notification-preferences', cookie: other.cookie });
    expect(otherRead.json().preferences.emailDeposits).toBe(true);

    await fundWallet(harness, admin, user, '40');
    await fundWallet(harness, admin, other, '40');
    await waitForMail(other.email, 'Subject: Deposit credited: 40.00 USDT');
    expect((await notificationsOf(user)).items.map((item) => item.kind)).toEqual(['deposit_credited']);
    const states = await harness.database.handle.db.execute<{ email_state: string }>(
      sql`select n.email_state from notifications n join users u on u.id = n.user_id where u.email = ${user.email}`,
    );
    expect(states.rows).toEqual([{ email_state: 'skipped' }]);
    expect(mailsTo(user.email).filter((message) => message.decoded.includes('Deposit credited'))).toEqual([]);

    // Withdrawal e-mails still go.
    const bankAccountId = await addBankAccount(harness, user);
    const withdrawal = await requestWithdrawal(harness, user, { amount: '10', bankAccountId });
    expectStatus(await decide(harness, admin, 'withdrawals', withdrawal.json().withdrawal.id, 'reject'), 200);
    await waitForMail(user.email, 'Your withdrawal of');
  });

  it('refuse a malformed body and a missing session', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const bad = await call(harness.app, { method: 'PUT', url: '/api/notification-preferences', cookie: user.cookie, body: { emailDeposits: 'no' } });
    expect(bad.statusCode).toBe(400);
    const extra = await call(harness.app, {
      method: 'PUT',
      url: '/api/notification-preferences',
      cookie: user.cookie,
      body: { emailDeposits: true, emailWithdrawals: true, emailTransfers: true, emailSecurity: false },
    });
    expect(extra.statusCode).toBe(400);
    expect((await call(harness.app, { url: '/api/notification-preferences' })).statusCode).toBe(401);
  });
});
