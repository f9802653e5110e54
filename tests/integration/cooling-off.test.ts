import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatPauseEnd } from '#shared/contracts/security';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { findResetLink } from '../fixtures/mail-server.ts';
import { call, createTestApp, sessionCookieOf, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  configureDepositAddresses,
  expectLedgerConsistent,
  fixtureAccountNumber,
  fundWallet,
  requestTransfer,
  requestWithdrawal,
} from '../fixtures/wallet.ts';

// Mail goes to the outbox here (no SMTP_URL), which keeps the body: the links are read from it.
let harness: TestApp;
let admin: SignedUpUser;
beforeAll(async () => {
  harness = await createTestApp({ coolingOffHours: 24 });
  await configureDepositAddresses(harness);
  admin = await signUpAdminWithVerifiedPin(harness);
});
afterEach(async () => expectLedgerConsistent(harness));
afterAll(async () => harness.close());

const db = () => harness.database.handle.db;

async function linkFromOutbox(email: string, page: '/reset-pin' | '/reset-password'): Promise<string> {
  const result = await db().execute<{ text_body: string }>(
    sql`select text_body from mail_outbox where lower(to_address) = ${email.toLowerCase()} and text_body like ${`%${page}?token=%`} order by created_at desc limit 1`,
  );
  const link = findResetLink(result.rows[0]?.text_body ?? '', page);
  if (!link) throw new Error(`no ${page} link in the outbox for ${email}`);
  return decodeURIComponent(new URL(link).searchParams.get('token') ?? '');
}

/** A funded customer whose bank account has passed its own cooling-off (added 25 hours ago). */
async function settledCustomer(): Promise<{ user: SignedUpUser; bankAccountId: string; recipient: SignedUpUser }> {
  const user = await signUpVerifiedUser(harness.app);
  const recipient = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, user, '100');
  const bankAccountId = await addBankAccount(harness, user);
  await db().execute(sql`update bank_accounts set details_changed_at = now() - interval '25 hours' where id = ${bankAccountId}`);
  return { user, bankAccountId, recipient };
}

async function resetPinByEmail(user: SignedUpUser, newPin: string): Promise<SignedUpUser> {
  expect((await call(harness.app, { method: 'POST', url: '/api/pin/reset-link', body: { password: user.password }, cookie: user.cookie })).statusCode).toBe(
    202,
  );
  const token = await linkFromOutbox(user.email, '/reset-pin');
  expect((await call(harness.app, { method: 'POST', url: '/api/pin/reset', body: { token, pin: newPin }, cookie: user.cookie })).statusCode).toBe(200);
  return { ...user, pin: newPin };
}

async function pausedUntil(column: 'pin_reset_at' | 'password_reset_at', userId: string): Promise<string> {
  const result = await db().execute<{ until: Date }>(sql`select ${sql.raw(column)} + interval '24 hours' as until from users where id = ${userId}`);
  const until = result.rows[0]?.until;
  if (!until) throw new Error('no reset time recorded');
  return formatPauseEnd(new Date(until));
}

describe('cooling-off after a PIN reset', () => {
  it('refuses withdrawals and transfers for 24 hours, saying until when and why, and moves nothing', async () => {
    const settled = await settledCustomer();
    const user = await resetPinByEmail(settled.user, '4381');
    const until = await pausedUntil('pin_reset_at', user.id);

    const withdrawal = await requestWithdrawal(harness, user, { amount: '10', bankAccountId: settled.bankAccountId });
    expect(withdrawal.statusCode).toBe(403);
    expect(withdrawal.json().error).toEqual({ code: 'COOLING_OFF', message: `Withdrawals are paused until ${until} because your PIN was reset recently.` });
    expect(until).toMatch(/^\d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2} (am|pm)$/);

    const transfer = await requestTransfer(harness, user, { recipientEmail: settled.recipient.email, amount: '10' });
    expect(transfer.statusCode).toBe(403);
    expect(transfer.json().error.message).toBe(`Transfers are paused until ${until} because your PIN was reset recently.`);
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);

    const pauses = await call(harness.app, { url: '/api/security/pauses', cookie: user.cookie });
    expect(pauses.json()).toMatchObject({
      withdrawals: { message: `Withdrawals are paused until ${until} because your PIN was reset recently.` },
      transfers: { message: `Transfers are paused until ${until} because your PIN was reset recently.` },
      bankAccounts: [],
    });

    // Once the hours have passed, money moves again.
    await db().execute(sql`update users set pin_reset_at = now() - interval '24 hours 1 minute' where id = ${user.id}`);
    expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId: settled.bankAccountId })).statusCode).toBe(201);
    expect((await requestTransfer(harness, user, { recipientEmail: settled.recipient.email, amount: '10' })).statusCode).toBe(201);
    expect((await call(harness.app, { url: '/api/security/pauses', cookie: user.cookie })).json()).toEqual({
      withdrawals: null,
      transfers: null,
      bankAccounts: [],
    });
  });

  it('does not pause after an ordinary PIN change', async () => {
    const { user, bankAccountId } = await settledCustomer();
    expect(
      (await call(harness.app, { method: 'POST', url: '/api/pin/change', body: { currentPin: user.pin, newPin: '9753' }, cookie: user.cookie })).statusCode,
    ).toBe(200);
    expect((await requestWithdrawal(harness, { ...user, pin: '9753' }, { amount: '10', bankAccountId })).statusCode).toBe(201);
  });
});

describe('cooling-off after a password reset', () => {
  it('refuses withdrawals and transfers with the password as the reason', async () => {
    const settled = await settledCustomer();
    await call(harness.app, { method: 'POST', url: '/api/auth/forgot-password', body: { email: settled.user.email } });
    const token = await linkFromOutbox(settled.user.email, '/reset-password');
    expect((await call(harness.app, { method: 'POST', url: '/api/auth/reset-password', body: { token, password: 'new-password-1' } })).statusCode).toBe(200);
    const login = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: settled.user.email, password: 'new-password-1' } });
    const user = { ...settled.user, cookie: sessionCookieOf(login) };
    expect((await call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin: user.pin }, cookie: user.cookie })).statusCode).toBe(200);
    const until = await pausedUntil('password_reset_at', user.id);

    const withdrawal = await requestWithdrawal(harness, user, { amount: '10', bankAccountId: settled.bankAccountId });
    expect(withdrawal.json().error.message).toBe(`Withdrawals are paused until ${until} because your password was changed recently.`);
    const transfer = await requestTransfer(harness, user, { recipientEmail: settled.recipient.email, amount: '10' });
    expect(transfer.json().error.message).toBe(`Transfers are paused until ${until} because your password was changed recently.`);
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);
  });
});

describe('cooling-off of a new or changed bank account', () => {
  it('refuses withdrawals to a new account but not to a settled one, and never transfers', async () => {
    const { user, bankAccountId: settledAccount, recipient } = await settledCustomer();
    // Said before the account is added: the list tells the form how long a new account pauses.
    expect((await call(harness.app, { url: '/api/bank-accounts', cookie: user.cookie })).json()).toMatchObject({ newAccountPauseHours: 24 });
    const newAccount = await addBankAccount(harness, user, { accountNumber: '999988887777' });
    const refused = await requestWithdrawal(harness, user, { amount: '10', bankAccountId: newAccount });
    expect(refused.statusCode).toBe(403);
    const result = await db().execute<{ until: Date }>(
      sql`select details_changed_at + interval '24 hours' as until from bank_accounts where id = ${newAccount}`,
    );
    const until = formatPauseEnd(new Date(result.rows[0]?.until as Date));
    const message = `Withdrawals to this bank account are paused until ${until} because it was added or its details changed recently.`;
    expect(refused.json().error).toEqual({ code: 'COOLING_OFF', message });
    expect((await call(harness.app, { url: '/api/security/pauses', cookie: user.cookie })).json()).toMatchObject({
      withdrawals: null,
      transfers: null,
      bankAccounts: [{ bankAccountId: newAccount, message }],
    });
    expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId: settledAccount })).statusCode).toBe(201);
    expect((await requestTransfer(harness, user, { recipientEmail: recipient.email, amount: '10' })).statusCode).toBe(201);
    expect(await balanceMicros(harness, user.id)).toBe(80_000_000n);
  });

  it('restarts the pause when any field that decides where money goes changes (number, IFSC, UPI id, holder name), not the bank’s name', async () => {
    const { user, bankAccountId } = await settledCustomer();
    // A new account number is confirmed as typed (decision 044).
    const patch = (body: Record<string, unknown>) =>
      call(harness.app, {
        method: 'PATCH',
        url: `/api/bank-accounts/${bankAccountId}`,
        cookie: user.cookie,
        body: { ...(body.accountNumber === undefined ? {} : { accountNumberConfirmation: body.accountNumber }), ...body },
      });
    const settle = () => db().execute(sql`update bank_accounts set details_changed_at = now() - interval '25 hours' where id = ${bankAccountId}`);
    const withdrawalStatus = async () => (await requestWithdrawal(harness, user, { amount: '10', bankAccountId })).statusCode;

    // The bank's name is not typed any more (it comes from the IFSC, decision 044): saving the same IFSC changes nothing.
    expect((await patch({ ifscCode: 'SBIN0001234' })).statusCode).toBe(200);
    expect((await patch({ accountNumber: fixtureAccountNumber(user.id) })).statusCode).toBe(200);
    expect(await withdrawalStatus()).toBe(201);

    for (const change of [
      { ifscCode: 'HDFC0004321' },
      { accountNumber: '5555 6666 7777' },
      { upiId: 'someone.else@okaxis' },
      { accountHolderName: 'Asha R' },
    ]) {
      await settle();
      expect((await patch(change)).statusCode).toBe(200);
      expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId })).json().error.code, JSON.stringify(change)).toBe('COOLING_OFF');
    }
    expect(await balanceMicros(harness, user.id)).toBe(90_000_000n);
  });

  it('restarts it when a UPI id is added, and e-mails the owner the old and new values masked', async () => {
    const { user, bankAccountId } = await settledCustomer();
    await db().execute(sql`update bank_accounts set upi_id = null where id = ${bankAccountId}`);
    const changed = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${bankAccountId}`,
      cookie: user.cookie,
      body: { upiId: 'mallory@okaxis', accountNumber: '444455556666', accountNumberConfirmation: '444455556666', accountHolderName: 'Mallory Thief' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId })).json().error.code).toBe('COOLING_OFF');
    const mail = await db().execute<{ text_body: string }>(
      sql`select text_body from mail_outbox where lower(to_address) = ${user.email.toLowerCase()} and subject like '%a bank account was changed' order by created_at desc limit 1`,
    );
    const text = mail.rows[0]?.text_body ?? '';
    expect(text).toContain('Account number: ••••9012 → ••••6666');
    expect(text).toContain('UPI ID: (none) → ma•••@okaxis');
    expect(text).toContain('Account holder: A••• R••• → M••• T•••');
    expect(text).not.toContain('444455556666');
    expect(text).not.toContain('mallory@');
  });
});

describe('SECURITY_COOLING_OFF_HOURS', () => {
  it('turns the cooling-off off with 0', async () => {
    const relaxed = await createTestApp({ coolingOffHours: 0, database: harness.database });
    try {
      const { user, recipient } = await settledCustomer();
      const newAccount = await addBankAccount(harness, user, { accountNumber: '111122223333' });
      const reset = await resetPinByEmail(user, '8642');
      const cookie = sessionCookieOf(await call(relaxed.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: user.password } }));
      const verified = { ...reset, cookie };
      expect((await call(relaxed.app, { method: 'POST', url: '/api/pin/verify', body: { pin: '8642' }, cookie })).statusCode).toBe(200);
      expect((await requestWithdrawal(relaxed, verified, { amount: '10', bankAccountId: newAccount })).statusCode).toBe(201);
      expect((await requestTransfer(relaxed, verified, { recipientEmail: recipient.email, amount: '10' })).statusCode).toBe(201);
    } finally {
      await relaxed.close();
    }
  });
});
