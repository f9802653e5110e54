import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { call, createTestApp, signUpUser, signUpVerifiedUser, type TestApp } from '../fixtures/test-app.ts';
import { addBankAccount, configureDepositAddresses, fundWallet, requestTransfer, requestWithdrawal } from '../fixtures/wallet.ts';

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
  await configureDepositAddresses(harness);
});
afterAll(async () => harness.close());

describe('API documentation', () => {
  it('is off unless API_DOCS says otherwise', async () => {
    const off = await createTestApp({ apiDocs: 'off', database: harness.database });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404);
      expect((await off.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('is shown to signed-in admins only with API_DOCS=admin', async () => {
    const adminOnly = await createTestApp({ apiDocs: 'admin', database: harness.database });
    try {
      const customer = await signUpUser(adminOnly.app);
      const admin = await signUpAdminWithVerifiedPin(adminOnly);
      expect((await adminOnly.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(401);
      expect((await call(adminOnly.app, { url: '/api/docs/json', cookie: customer.cookie })).statusCode).toBe(403);
      const seen = await call(adminOnly.app, { url: '/api/docs/json', cookie: admin.cookie });
      expect(seen.statusCode).toBe(200);
      expect(Object.keys(seen.json().paths)).toContain('/api/pin/reset');
    } finally {
      await adminOnly.close();
    }
  });

  it('makes no request to a third party', async () => {
    const page = await harness.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).not.toContain('validator.swagger.io');
    expect(policy).not.toMatch(/https:(?!\/\/)/);
    expect(policy).toContain("frame-ancestors 'none'");
    const initializer = await harness.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(initializer.body).toContain('validatorUrl: null');
  });
});

describe('framing', () => {
  it("forbids framing with frame-ancestors 'none' only, without a contradicting X-Frame-Options", async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/health' });
    expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBeUndefined();
  });
});

describe('a replayed Idempotency-Key', () => {
  it('does not skip the PIN check of a withdrawal', async () => {
    const admin = await signUpAdminWithVerifiedPin(harness);
    await call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin: admin.pin }, cookie: admin.cookie });
    const user = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, user, '100');
    const bankAccountId = await addBankAccount(harness, user);
    const headers = { 'idempotency-key': 'replay-needs-pin' };
    expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId }, headers)).statusCode).toBe(201);
    const replayWithWrongPin = await requestWithdrawal(harness, user, { amount: '10', bankAccountId, pin: '0000' }, headers);
    expect(replayWithWrongPin.statusCode).toBe(400);
    expect(replayWithWrongPin.json().error.code).toBe('PIN_INCORRECT');
    const replay = await requestWithdrawal(harness, user, { amount: '10', bankAccountId }, headers);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('does not skip the PIN check of a transfer', async () => {
    const admin = await signUpAdminWithVerifiedPin(harness);
    await call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin: admin.pin }, cookie: admin.cookie });
    const sender = await signUpVerifiedUser(harness.app);
    const recipient = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, sender, '100');
    const headers = { 'idempotency-key': 'transfer-replay-needs-pin' };
    expect((await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '5' }, headers)).statusCode).toBe(201);
    const replayWithWrongPin = await requestTransfer(harness, sender, { recipientEmail: recipient.email, amount: '5', pin: '0000' }, headers);
    expect(replayWithWrongPin.json().error.code).toBe('PIN_INCORRECT');
  });
});

describe('the log', () => {
  it('carries ids, not e-mail addresses, names or phones, also when a request fails', async () => {
    let logText = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logText += chunk.toString();
        done();
      },
    });
    const logged = await createTestApp({ database: harness.database, logDestination: sink });
    try {
      const user = await signUpUser(logged.app, { fullName: 'Zebulon Quartermaine', phone: '+919123456780' });
      const admin = await signUpAdminWithVerifiedPin(logged);
      await call(logged.app, { method: 'POST', url: '/api/auth/forgot-password', body: { email: user.email } });
      await call(logged.app, { method: 'POST', url: '/api/auth/login', body: { email: `${user.email}\u0000`, password: 'x' } });
      await call(logged.app, { url: `/api/admin/users?q=${encodeURIComponent(user.email)}`, cookie: admin.cookie });
      await call(logged.app, { url: `/api/admin/users?q=${encodeURIComponent('Zebulon')}`, cookie: admin.cookie });
      expect(logText).toContain('/api/admin/users?q=[redacted]');
      for (const personal of [user.email, 'Zebulon', '9123456780']) expect(logText).not.toContain(personal);
    } finally {
      await logged.close();
    }
  });
});
