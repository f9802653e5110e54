import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, sessionCookieOf, signUpUser, signUpVerifiedUser, type TestApp } from '../fixtures/test-app.ts';

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => harness.close());

async function verify(cookie: string, pin: string) {
  return call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin }, cookie });
}

describe('transaction PIN', () => {
  it('marks the session PIN-verified on the server after the right PIN', async () => {
    const user = await signUpUser(harness.app);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json().pinVerified).toBe(false);
    expect((await verify(user.cookie, user.pin)).statusCode).toBe(200);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json().pinVerified).toBe(true);
  });

  it('counts down the remaining attempts and ends every session after 3 wrong PINs', async () => {
    const user = await signUpUser(harness.app);
    const other = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: user.password } });
    expect(other.statusCode).toBe(200);
    const otherCookie = sessionCookieOf(other);
    // The second session works before the wrong PINs, so its 401 afterwards is the lock's doing.
    expect((await call(harness.app, { url: '/api/me', cookie: otherCookie })).statusCode).toBe(200);

    const first = await verify(user.cookie, '0000');
    expect(first.statusCode).toBe(400);
    expect(first.json().error).toMatchObject({ code: 'PIN_INCORRECT', message: 'PIN verification failed. 2 attempts remaining.', remainingAttempts: 2 });
    const second = await verify(user.cookie, '1111');
    expect(second.json().error.message).toBe('PIN verification failed. 1 attempt remaining.');
    const third = await verify(user.cookie, '2222');
    expect(third.statusCode).toBe(401);
    expect(third.json().error).toMatchObject({ code: 'PIN_LOCKED', message: 'Too many failed attempts' });

    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(401);
    expect((await call(harness.app, { url: '/api/me', cookie: otherCookie })).statusCode).toBe(401);
  });

  it('resets the count after a right PIN', async () => {
    const user = await signUpUser(harness.app);
    await verify(user.cookie, '0000');
    await verify(user.cookie, '0000');
    expect((await verify(user.cookie, user.pin)).statusCode).toBe(200);
    expect((await verify(user.cookie, '0000')).json().error.remainingAttempts).toBe(2);
  });

  it('counts concurrent wrong guesses one by one', async () => {
    const user = await signUpUser(harness.app);
    const answers = await Promise.all(['0001', '0002', '0003', '0004', '0005'].map((pin) => verify(user.cookie, pin)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    // Two guesses are counted as wrong, the third ends the sessions, and the rest find no session.
    expect(statuses).toEqual([400, 400, 401, 401, 401]);
    expect(answers.filter((answer) => answer.json().error.code === 'PIN_LOCKED')).toHaveLength(1);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(401);
  });

  it('refuses a PIN that is not 4 digits without counting it', async () => {
    const user = await signUpUser(harness.app);
    const response = await verify(user.cookie, '12');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('PIN must be exactly 4 digits');
    expect((await verify(user.cookie, '9999')).json().error.remainingAttempts).toBe(2);
  });

  it('needs a session', async () => {
    expect((await verify('', '1234')).statusCode).toBe(401);
  });

  it('changes the PIN when the current one is right', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const wrong = await call(harness.app, { method: 'POST', url: '/api/pin/change', body: { currentPin: '0000', newPin: '5829' }, cookie: user.cookie });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe('Current PIN is incorrect');
    const right = await call(harness.app, { method: 'POST', url: '/api/pin/change', body: { currentPin: user.pin, newPin: '5829' }, cookie: user.cookie });
    expect(right.statusCode).toBe(200);
    expect((await verify(user.cookie, '5829')).statusCode).toBe(200);
    expect((await verify(user.cookie, user.pin)).statusCode).toBe(400);
  });

  it('refuses the current PIN and the easiest PINs as the new one, at the new PIN field, and keeps the PIN', async () => {
    const user = await signUpVerifiedUser(harness.app);
    let currentPin = user.pin;
    const change = (newPin: string) => call(harness.app, { method: 'POST', url: '/api/pin/change', body: { currentPin, newPin }, cookie: user.cookie });
    expect((await change('4829')).statusCode).toBe(200);
    currentPin = '4829';
    const same = await change('4829');
    expect(same.statusCode).toBe(400);
    expect(same.json().error.fields.newPin).toBe('The new PIN must be different from your current PIN.');
    for (const weak of ['0000', '7777', '1234', '0123', '6789', '4321', '9876', '3210']) {
      const refused = await change(weak);
      expect(refused.statusCode, weak).toBe(400);
      expect(refused.json().error.fields.newPin).toBe('This PIN is too easy to guess: avoid one digit four times (1111) and straight runs (1234, 4321).');
    }
    expect((await verify(user.cookie, '4829')).statusCode).toBe(200);
    expect((await change('5829')).statusCode).toBe(200);
    expect((await verify(user.cookie, '5829')).statusCode).toBe(200);
  });

  it('does not let an unverified session change the PIN', async () => {
    const user = await signUpUser(harness.app);
    const response = await call(harness.app, { method: 'POST', url: '/api/pin/change', body: { currentPin: user.pin, newPin: '5829' }, cookie: user.cookie });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('PIN_REQUIRED');
  });

  it('starts a PIN reset only with the account password, and the password alone changes nothing', async () => {
    const user = await signUpUser(harness.app);
    const wrong = await call(harness.app, { method: 'POST', url: '/api/pin/reset-link', body: { password: 'not-the-password' }, cookie: user.cookie });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields.password).toBe('The account password is incorrect.');

    const right = await call(harness.app, { method: 'POST', url: '/api/pin/reset-link', body: { password: user.password }, cookie: user.cookie });
    expect(right.statusCode).toBe(202);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json().pinVerified).toBe(false);
    // The old shortcut (password and new PIN in one call) is gone: without the e-mailed token nothing is set.
    const shortcut = await call(harness.app, { method: 'POST', url: '/api/pin/reset', body: { password: user.password, pin: '7777' }, cookie: user.cookie });
    expect(shortcut.statusCode).toBe(400);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json().pinVerified).toBe(false);
    expect((await verify(user.cookie, '7777')).statusCode).toBe(400);
    expect((await verify(user.cookie, user.pin)).statusCode).toBe(200);
  });

  it('sets up a first PIN for an account without one, once', async () => {
    const user = await signUpUser(harness.app);
    await harness.database.handle.db.execute(sql`delete from user_pins where user_id = ${user.id}`);
    const missing = await verify(user.cookie, '1234');
    expect(missing.statusCode).toBe(409);
    expect(missing.json().error).toMatchObject({ code: 'PIN_NOT_SET', message: 'PIN setup required' });
    const setup = await call(harness.app, { method: 'POST', url: '/api/pin/setup', body: { pin: '2468' }, cookie: user.cookie });
    expect(setup.statusCode).toBe(200);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json()).toMatchObject({ hasPin: true, pinVerified: true });
    const again = await call(harness.app, { method: 'POST', url: '/api/pin/setup', body: { pin: '1357' }, cookie: user.cookie });
    expect(again.statusCode).toBe(409);
  });
});
