import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { waitForMail, waitForResetLink } from '../fixtures/mail-server.ts';
import { call, sessionCookieOf, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount } from '../fixtures/wallet.ts';

const { harness, mail } = useIntegrationFile({ mailServer: true, admin: false, depositAddresses: false });

async function logIn(user: SignedUpUser): Promise<string> {
  const response = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: user.password } });
  expect(response.statusCode).toBe(200);
  return sessionCookieOf(response);
}

async function requestLink(user: SignedUpUser, cookie = user.cookie) {
  return call(harness.app, { method: 'POST', url: '/api/pin/reset-link', body: { password: user.password }, cookie });
}

async function pinResetToken(user: SignedUpUser): Promise<string> {
  const link = await waitForResetLink(mail, user.email, 5_000, '/reset-pin');
  return decodeURIComponent(new URL(link).searchParams.get('token') ?? '');
}

async function verify(cookie: string, pin: string) {
  return call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin }, cookie });
}

describe('resetting a forgotten PIN by e-mail', () => {
  it('e-mails a single-use link after the password; the link sets the PIN, verifies this session and ends the others', async () => {
    const user = await signUpUser(harness.app);
    const otherCookie = await logIn(user);
    const answer = await requestLink(user);
    expect(answer.statusCode).toBe(202);
    expect(answer.json().message).toBe('We have e-mailed you a link to reset your PIN. It works once, within 30 minutes.');
    // Starting the reset neither verifies the session nor changes the PIN.
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json().pinVerified).toBe(false);
    const token = await pinResetToken(user);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const reset = await call(harness.app, { method: 'POST', url: '/api/pin/reset', body: { token, pin: '7392' }, cookie: user.cookie });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ ok: true, signedIn: true });
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json().pinVerified).toBe(true);
    expect((await call(harness.app, { url: '/api/me', cookie: otherCookie })).statusCode).toBe(401);
    expect((await verify(user.cookie, '7392')).statusCode).toBe(200);
    expect((await verify(user.cookie, user.pin)).statusCode).toBe(400);

    const again = await call(harness.app, { method: 'POST', url: '/api/pin/reset', body: { token, pin: '8305' }, cookie: user.cookie });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({
      code: 'INVALID_RESET_TOKEN',
      message: 'This PIN reset link is invalid or has expired. Please request a new one.',
    });
  });

  it('refuses a wrong password and sends nothing', async () => {
    const user = await signUpUser(harness.app);
    const wrong = await call(harness.app, { method: 'POST', url: '/api/pin/reset-link', body: { password: 'wrong-password' }, cookie: user.cookie });
    expect(wrong.statusCode).toBe(400);
    const stored = await harness.database.handle.db.execute<{ count: number }>(
      sql`select count(*)::int as count from pin_reset_tokens where user_id = ${user.id}`,
    );
    expect(stored.rows[0]?.count).toBe(0);
  });

  it('needs a session to start', async () => {
    const response = await call(harness.app, { method: 'POST', url: '/api/pin/reset-link', body: { password: 'anything' } });
    expect(response.statusCode).toBe(401);
  });

  it('completed from a browser without a session, signs nobody in and ends every session', async () => {
    const user = await signUpUser(harness.app);
    await requestLink(user);
    const token = await pinResetToken(user);
    const reset = await call(harness.app, { method: 'POST', url: '/api/pin/reset', body: { token, pin: '2468' } });
    expect(reset.json()).toEqual({ ok: true, signedIn: false });
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(401);
    const cookie = await logIn(user);
    expect((await verify(cookie, '2468')).statusCode).toBe(200);
  });

  it("does not verify another customer's session that opens the link", async () => {
    const owner = await signUpUser(harness.app);
    const stranger = await signUpUser(harness.app);
    await requestLink(owner);
    const token = await pinResetToken(owner);
    const reset = await call(harness.app, { method: 'POST', url: '/api/pin/reset', body: { token, pin: '1357' }, cookie: stranger.cookie });
    expect(reset.json()).toEqual({ ok: true, signedIn: false });
    expect((await call(harness.app, { url: '/api/me', cookie: stranger.cookie })).json().pinVerified).toBe(false);
  });

  it('refuses an expired link, keeps links for 30 minutes, and stores only their hash', async () => {
    const user = await signUpUser(harness.app);
    await requestLink(user);
    const token = await pinResetToken(user);
    const stored = await harness.database.handle.db.execute<{ minutes: number; clear: number }>(sql`
      select round(extract(epoch from expires_at - created_at) / 60)::int as minutes,
             (select count(*)::int from pin_reset_tokens where encode(token_hash, 'escape') like ${`%${token}%`}) as clear
      from pin_reset_tokens where user_id = ${user.id}`);
    expect(stored.rows[0]).toEqual({ minutes: 30, clear: 0 });
    await harness.database.handle.db.execute(sql`update pin_reset_tokens set expires_at = now() - interval '1 second' where user_id = ${user.id}`);
    const expired = await call(harness.app, { method: 'POST', url: '/api/pin/reset', body: { token, pin: '5190' }, cookie: user.cookie });
    expect(expired.statusCode).toBe(400);
    expect((await verify(user.cookie, user.pin)).statusCode).toBe(200);
  });

  it('refuses a made-up token', async () => {
    const user = await signUpUser(harness.app);
    const response = await call(harness.app, { method: 'POST', url: '/api/pin/reset', body: { token: 'x'.repeat(43), pin: '5190' }, cookie: user.cookie });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('INVALID_RESET_TOKEN');
  });

  it('tells whether a link still works without using it up, from any browser', async () => {
    const check = async (token: string) => {
      const response = await call(harness.app, { method: 'POST', url: '/api/pin/reset/check', body: { token } });
      expect(response.statusCode).toBe(200);
      return response.json().valid as boolean;
    };
    const user = await signUpUser(harness.app);
    await requestLink(user);
    const token = await pinResetToken(user);
    expect(await check(token)).toBe(true);
    expect(await check(token)).toBe(true);
    expect(await check('x'.repeat(43))).toBe(false);
    expect((await call(harness.app, { method: 'POST', url: '/api/pin/reset', body: { token, pin: '4829' }, cookie: user.cookie })).statusCode).toBe(200);
    expect(await check(token)).toBe(false);
  });
});

describe('telling the owner about security changes', () => {
  it('e-mails the owner when the PIN is reset', async () => {
    const user = await signUpUser(harness.app);
    await requestLink(user);
    const token = await pinResetToken(user);
    await call(harness.app, { method: 'POST', url: '/api/pin/reset', body: { token, pin: '7392' }, cookie: user.cookie });
    expect(await waitForMail(mail, user.email, 'your transaction PIN was reset')).toContain('If this was not you');
  });

  it('e-mails the owner when the PIN is changed', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const change = await call(harness.app, { method: 'POST', url: '/api/pin/change', body: { currentPin: user.pin, newPin: '5829' }, cookie: user.cookie });
    expect(change.statusCode).toBe(200);
    await waitForMail(mail, user.email, 'your transaction PIN was changed');
  });

  it('e-mails the owner when the password is reset', async () => {
    const user = await signUpUser(harness.app);
    await call(harness.app, { method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
    const link = await waitForResetLink(mail, user.email);
    const token = decodeURIComponent(new URL(link).searchParams.get('token') ?? '');
    expect((await call(harness.app, { method: 'POST', url: '/api/auth/reset-password', body: { token, password: 'brand-new-password' } })).statusCode).toBe(
      200,
    );
    await waitForMail(mail, user.email, 'your password was reset');
  });

  it('e-mails the owner when a bank account is added or changed', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const bankAccountId = await addBankAccount(harness, user);
    await waitForMail(mail, user.email, 'a bank account was added');
    const edit = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${bankAccountId}`,
      cookie: user.cookie,
      body: { ifscCode: 'HDFC0001234' },
    });
    expect(edit.statusCode).toBe(200);
    await waitForMail(mail, user.email, 'a bank account was changed');
  });
});
