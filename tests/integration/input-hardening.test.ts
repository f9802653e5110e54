import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleError } from '../../src/server/http/error-handler.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { call, createTestApp, signUpUser, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { configureDepositAddresses, submitDeposit } from '../fixtures/wallet.ts';

let harness: TestApp;
let admin: SignedUpUser;
let customer: SignedUpUser;
beforeAll(async () => {
  harness = await createTestApp();
  await configureDepositAddresses(harness);
  admin = await signUpAdminWithVerifiedPin(harness);
  await call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin: admin.pin }, cookie: admin.cookie });
  customer = await signUpVerifiedUser(harness.app);
});
afterAll(async () => harness.close());

const NOT_ALLOWED = 'This field contains characters that are not allowed.';
const NUL = '\u0000';
const RIGHT_TO_LEFT_OVERRIDE = '\u202E';
const ZERO_WIDTH_SPACE = '\u200B';

function expectFieldRefused(response: { statusCode: number; json(): unknown }, field: string, message = NOT_ALLOWED): void {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', message, fields: { [field]: message } } });
}

describe('control, invisible and direction-changing characters', () => {
  it.each([
    ['NUL', NUL],
    ['a right-to-left override', RIGHT_TO_LEFT_OVERRIDE],
    ['a zero-width space', ZERO_WIDTH_SPACE],
    ['a line break', '\n'],
  ])('are refused with a field message in every free-text field: %s', async (_name, character) => {
    expectFieldRefused(
      await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: `a${character}@example.com`, password: 'whatever-1' } }),
      'email',
    );
    const signup = { fullName: `Asha${character}Rao`, email: 'fresh@example.com', phone: '+919876543210', password: 'correct-horse', pin: '2957' };
    expectFieldRefused(await call(harness.app, { method: 'POST', url: '/api/auth/signup', body: signup }), 'fullName');
    expectFieldRefused(
      await call(harness.app, { method: 'POST', url: '/api/auth/signup', body: { ...signup, fullName: 'Asha Rao', referralCode: `RUPEE${character}1` } }),
      'referralCode',
    );
    expectFieldRefused(await call(harness.app, { method: 'POST', url: '/api/auth/forgot-password', body: { email: `x${character}@example.com` } }), 'email');
    expectFieldRefused(await call(harness.app, { url: `/api/admin/users?q=${encodeURIComponent(`asha${character}`)}`, cookie: admin.cookie }), 'q');
    expectFieldRefused(
      await call(harness.app, {
        method: 'POST',
        url: '/api/bank-accounts',
        cookie: customer.cookie,
        body: { accountHolderName: `Asha${character}`, accountNumber: '123456789012', accountNumberConfirmation: '123456789012', ifscCode: 'SBIN0001234' },
      }),
      'accountHolderName',
    );
  });

  it('keeps line breaks in a rejection reason but refuses NUL and bidi overrides there', async () => {
    const depositId = await submitDeposit(harness, customer, '15');
    const refused = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/deposits/${depositId}/reject`,
      cookie: admin.cookie,
      body: { reason: `wrong${NUL}hash` },
    });
    expectFieldRefused(refused, 'reason');
    const bidi = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/deposits/${depositId}/reject`,
      cookie: admin.cookie,
      body: { reason: `wrong${RIGHT_TO_LEFT_OVERRIDE}hash` },
    });
    expectFieldRefused(bidi, 'reason');
    const multiLine = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/deposits/${depositId}/reject`,
      cookie: admin.cookie,
      body: { reason: 'Hash not found.\nPlease check it.' },
    });
    expect(multiLine.statusCode).toBe(200);
  });

  it('refuses them in the settings website address', async () => {
    const current = (await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json();
    const response = await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: admin.cookie,
      body: { ...current.settings, websiteUrl: `https://example.com/${NUL}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('needs a visible letter in names', async () => {
    const signup = { email: 'letters@example.com', phone: '+919876543210', password: 'correct-horse', pin: '2957' };
    expectFieldRefused(
      await call(harness.app, { method: 'POST', url: '/api/auth/signup', body: { ...signup, fullName: '12345' } }),
      'fullName',
      'Full name must contain at least one letter',
    );
    expectFieldRefused(
      await call(harness.app, {
        method: 'POST',
        url: '/api/bank-accounts',
        cookie: customer.cookie,
        body: { accountHolderName: '-- --', accountNumber: '123456789012', accountNumberConfirmation: '123456789012', ifscCode: 'SBIN0001234' },
      }),
      'accountHolderName',
      'Account holder name must contain at least one letter.',
    );
    // Letters of any script count.
    expect((await call(harness.app, { method: 'POST', url: '/api/auth/signup', body: { ...signup, fullName: 'आशा राव' } })).statusCode).toBe(201);
  });

  it('allows any character in a password, which is only ever hashed', async () => {
    const user = await signUpUser(harness.app, { password: `pass${ZERO_WIDTH_SPACE}word${RIGHT_TO_LEFT_OVERRIDE}` });
    const login = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: user.password } });
    expect(login.statusCode).toBe(200);
  });
});

describe('the error shape of the framework’s own errors', () => {
  it('answers an undecodable URL with our shape and without echoing it', async () => {
    const response = await call(harness.app, { url: '/api/deposits/%ZZ', cookie: customer.cookie });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'The address of this request is not valid.' } });
    expect(response.body).not.toContain('%ZZ');
  });

  it('answers a too-long path parameter with 414 in our shape', async () => {
    const response = await call(harness.app, { url: `/api/deposits/${'a'.repeat(600)}`, cookie: customer.cookie });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'The address of this request is too long.' } });
  });

  it('answers malformed JSON without echoing it', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'http://localhost:3000', 'content-type': 'application/json' },
      payload: '{"email": "MARKER-echo',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'The request is not valid.' } });
  });
});

describe('whole numbers in query strings', () => {
  it.each(['1e1', '0x10', ' 5', '5.0', '+5', '-1', '５'])('accept only plain decimal digits: %j', async (limit) => {
    const response = await call(harness.app, { url: `/api/transactions?limit=${encodeURIComponent(limit)}`, cookie: customer.cookie });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.limit).toBeDefined();
    const admins = await call(harness.app, { url: `/api/admin/users?limit=${encodeURIComponent(limit)}`, cookie: admin.cookie });
    expect(admins.statusCode).toBe(400);
  });

  it('still accept plain digits', async () => {
    expect((await call(harness.app, { url: '/api/transactions?limit=5', cookie: customer.cookie })).statusCode).toBe(200);
  });
});

describe('PostgreSQL refusing a character', () => {
  it('answers 400, not 500, as a backstop for any path the validation misses', async () => {
    // A bare app with our error handler and a route that hands its input to the real database unchecked.
    const bare = Fastify({ logger: false });
    bare.setErrorHandler(handleError);
    bare.get('/echo', async (request) => {
      const value = (request.query as { value: string }).value;
      await harness.database.handle.db.execute(sql`select ${value}::text as echoed`);
      return { ok: true };
    });
    try {
      const response = await bare.inject({ method: 'GET', url: '/echo?value=a%00b' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'The request contains characters that are not allowed.' } });
    } finally {
      await bare.close();
    }
  });
});
