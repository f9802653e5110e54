import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PASSWORD_CHANGED_MESSAGE, PROFILE_UPDATED_MESSAGE, SAME_PASSWORD_MESSAGE, WRONG_CURRENT_PASSWORD_MESSAGE } from '#shared/contracts/auth';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { waitForMail } from '../fixtures/mail-server.ts';
import { call, createTestApp, sessionCookieOf, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';

const { harness, mail } = useIntegrationFile({ mailServer: true, admin: false, depositAddresses: false, app: { coolingOffHours: 24 } });

async function logIn(user: { email: string }, password: string) {
  return call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password } });
}

/** A second signed-in, PIN-verified session of the same user (another phone). */
async function secondSession(user: SignedUpUser): Promise<string> {
  const login = await logIn(user, user.password);
  expect(login.statusCode).toBe(200);
  const cookie = sessionCookieOf(login);
  expect((await call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin: user.pin }, cookie })).statusCode).toBe(200);
  return cookie;
}

function changePassword(cookie: string, body: Record<string, unknown>) {
  return call(harness.app, { method: 'POST', url: '/api/auth/change-password', body, cookie });
}

async function passwordHashOf(userId: string): Promise<string> {
  const result = await harness.database.handle.db.execute<{ password_hash: string }>(sql`select password_hash from users where id = ${userId}`);
  return result.rows[0]?.password_hash ?? '';
}

describe('changing the password', () => {
  it('needs the current password, ends the other sessions, keeps this one, e-mails the owner and starts the cooling-off', async () => {
    const user = await signUpVerifiedUser(harness.app, { fullName: 'Kiran Change' });
    const other = await secondSession(user);

    const answer = await changePassword(user.cookie, { currentPassword: user.password, newPassword: 'a-fresh-password' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ message: PASSWORD_CHANGED_MESSAGE, sessionsEnded: 1 });

    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(200);
    expect((await call(harness.app, { url: '/api/me', cookie: other })).statusCode).toBe(401);
    expect((await logIn(user, user.password)).statusCode).toBe(401);
    expect((await logIn(user, 'a-fresh-password')).statusCode).toBe(200);

    const message = await waitForMail(mail, user.email, 'your password was changed');
    expect(message).toContain('every other session of it was signed out');
    expect(message).toContain('withdrawals and transfers are paused for 24 hours');

    const pauses = await call(harness.app, { url: '/api/security/pauses', cookie: user.cookie });
    expect(pauses.statusCode).toBe(200);
    expect(pauses.json().withdrawals.message).toMatch(/^Withdrawals are paused until .* because your password was changed recently\.$/);
    expect(pauses.json().transfers.message).toMatch(/because your password was changed recently\.$/);
  });

  it('refuses a wrong current password with 400 at its field and changes nothing', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const other = await secondSession(user);
    const hashBefore = await passwordHashOf(user.id);
    const answer = await changePassword(user.cookie, { currentPassword: 'not-my-password', newPassword: 'a-fresh-password' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toMatchObject({
      code: 'INVALID_CREDENTIALS',
      message: WRONG_CURRENT_PASSWORD_MESSAGE,
      fields: { currentPassword: WRONG_CURRENT_PASSWORD_MESSAGE },
    });
    expect(await passwordHashOf(user.id)).toBe(hashBefore);
    expect((await call(harness.app, { url: '/api/me', cookie: other })).statusCode).toBe(200);
    expect((await logIn(user, user.password)).statusCode).toBe(200);
    const pauses = await call(harness.app, { url: '/api/security/pauses', cookie: user.cookie });
    expect(pauses.json().withdrawals).toBeNull();
  });

  it.each([
    ['a short new password', { newPassword: 'short' }, 'newPassword', 'Password must be at least 6 characters'],
    ['the same password again', { newPassword: 'correct-horse' }, 'newPassword', SAME_PASSWORD_MESSAGE],
    ['no current password', { currentPassword: '' }, 'currentPassword', 'Please enter your current password'],
  ])('refuses %s with 400 and changes nothing', async (_name, override, field, text) => {
    const user = await signUpVerifiedUser(harness.app);
    const hashBefore = await passwordHashOf(user.id);
    const answer = await changePassword(user.cookie, { currentPassword: user.password, newPassword: 'a-fresh-password', ...override });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.fields[field]).toBe(text);
    expect(await passwordHashOf(user.id)).toBe(hashBefore);
  });

  it('is refused without a session (401) and before the PIN is verified (403)', async () => {
    expect(
      (await call(harness.app, { method: 'POST', url: '/api/auth/change-password', body: { currentPassword: 'x', newPassword: 'a-fresh-password' } }))
        .statusCode,
    ).toBe(401);
    const user = await signUpUser(harness.app);
    const answer = await changePassword(user.cookie, { currentPassword: user.password, newPassword: 'a-fresh-password' });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().error.code).toBe('PIN_REQUIRED');
  });

  it('lets two changes at once on the same old password succeed only once', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const answers = await Promise.all(
      ['first-new-password', 'second-new-password'].map((newPassword) => changePassword(user.cookie, { currentPassword: user.password, newPassword })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const winner = answers[0]?.statusCode === 200 ? 'first-new-password' : 'second-new-password';
    expect((await logIn(user, winner)).statusCode).toBe(200);
  });

  it('limits guessing the current password per account as sign-in does, counted with the PIN reset password check', async () => {
    const limited = await createTestApp({ rateLimits: { loginPerAccount: 3 }, database: harness.database });
    try {
      const user = await signUpVerifiedUser(limited.app);
      const guess = (password: string) =>
        call(limited.app, {
          method: 'POST',
          url: '/api/auth/change-password',
          body: { currentPassword: password, newPassword: 'a-fresh-password' },
          cookie: user.cookie,
        });
      // One wrong password at the PIN reset's password check counts too.
      expect((await call(limited.app, { method: 'POST', url: '/api/pin/reset-link', body: { password: 'guess-0' }, cookie: user.cookie })).statusCode).toBe(
        400,
      );
      for (const password of ['guess-1', 'guess-2']) expect((await guess(password)).statusCode).toBe(400);
      const hashBefore = await passwordHashOf(user.id);
      const refused = await guess(user.password);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('RATE_LIMITED');
      expect(await passwordHashOf(user.id)).toBe(hashBefore);
    } finally {
      await limited.close();
    }
  });
});

describe('the profile', () => {
  it('shows the e-mail and changes name and phone, e-mailing the owner about the phone and auditing both', async () => {
    const user = await signUpVerifiedUser(harness.app, { fullName: 'Anil Old', phone: '+919800000001' });
    const me = await call(harness.app, { url: '/api/me', cookie: user.cookie });
    expect(me.json()).toMatchObject({ email: user.email, name: 'Anil Old', phone: '+919800000001' });

    const answer = await call(harness.app, {
      method: 'PATCH',
      url: '/api/me',
      cookie: user.cookie,
      body: { fullName: '  Anil New ', phone: '+91 98000-00002' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ message: PROFILE_UPDATED_MESSAGE, user: { email: user.email, name: 'Anil New', phone: '+919800000002' } });
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json()).toMatchObject({ name: 'Anil New', phone: '+919800000002' });

    const message = await waitForMail(mail, user.email, 'your phone number was changed');
    expect(message).toContain('If this was not you');
    const audit = await harness.database.handle.db.execute<{ before: unknown; after: unknown }>(
      sql`select before, after from audit_log where action = 'profile.update' and target_user_id = ${user.id}`,
    );
    expect(audit.rows).toEqual([{ before: { name: 'Anil Old', phone: '+919800000001' }, after: { name: 'Anil New', phone: '+919800000002' } }]);
  });

  it('sends no mail when only the name changes', async () => {
    const user = await signUpVerifiedUser(harness.app, { fullName: 'Name Only', phone: '+919800000003' });
    const answer = await call(harness.app, {
      method: 'PATCH',
      url: '/api/me',
      cookie: user.cookie,
      body: { fullName: 'Name Changed', phone: '+919800000003' },
    });
    expect(answer.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mail.messages.filter((message) => message.to.includes(user.email.toLowerCase()) && message.decoded.includes('phone number was changed'))).toEqual(
      [],
    );
  });

  it('refuses bad input with 400 at the field and changes nothing; another user cannot be changed', async () => {
    const user = await signUpVerifiedUser(harness.app, { fullName: 'Stays Same', phone: '+919800000004' });
    const bad = await call(harness.app, { method: 'PATCH', url: '/api/me', cookie: user.cookie, body: { fullName: '   ', phone: '98000' } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['fullName', 'phone']);
    const tooLong = await call(harness.app, {
      method: 'PATCH',
      url: '/api/me',
      cookie: user.cookie,
      body: { fullName: 'A'.repeat(500), phone: '+919800000004' },
    });
    expect(tooLong.statusCode).toBe(400);
    // The body names no user: only the caller's own row can change, whatever extra field comes along.
    const other = await signUpVerifiedUser(harness.app, { fullName: 'Other Person' });
    const sneaky = await call(harness.app, {
      method: 'PATCH',
      url: '/api/me',
      cookie: user.cookie,
      body: { fullName: 'Renamed', phone: '+919800000004', id: other.id },
    });
    expect(sneaky.statusCode).toBe(200);
    expect((await call(harness.app, { url: '/api/me', cookie: other.cookie })).json().name).toBe('Other Person');
    expect((await call(harness.app, { method: 'PATCH', url: '/api/me', body: { fullName: 'X', phone: '+919800000004' } })).statusCode).toBe(401);
  });
});
