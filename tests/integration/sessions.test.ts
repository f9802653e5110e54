import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, sessionCookieOf, signUpUser, TEST_ORIGIN, type TestApp } from '../fixtures/test-app.ts';

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => harness.close());

describe('login and sessions', () => {
  it('logs in with the right password, in any e-mail case, and issues a new HttpOnly cookie', async () => {
    const user = await signUpUser(harness.app);
    const response = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email.toUpperCase(), password: user.password } });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((candidate) => candidate.name === 'session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(sessionCookieOf(response)).not.toBe(user.cookie);
    expect(response.json().user.pinVerified).toBe(false);
    // The browser is marked as known to the account (decision 026): a random token, HttpOnly, for 180 days, stored only hashed.
    const device = response.cookies.find((candidate) => candidate.name === 'device');
    expect(device).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 180 * 24 * 60 * 60 });
    expect(device?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await harness.database.handle.db.execute<{ count: number }>(
      sql`select count(*)::int as count from known_devices where user_id = ${user.id} and token_hash = sha256(convert_to(${device?.value}, 'UTF8'))`,
    );
    expect(stored.rows[0]?.count).toBe(1);
  });

  it('refuses a wrong password and an unknown e-mail with the same message', async () => {
    const user = await signUpUser(harness.app);
    const wrongPassword = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: 'wrong-password' } });
    const unknownEmail = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: 'nobody@example.com', password: 'whatever1' } });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Invalid credentials. Please try again.' });
      expect(response.cookies.find((candidate) => candidate.name === 'session')).toBeUndefined();
      expect(response.cookies.find((candidate) => candidate.name === 'device')).toBeUndefined();
    }
  });

  it('asks for both fields with the spec message', async () => {
    const response = await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: '', password: '' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('Please enter your email and password.');
  });

  it('answers 401 without a session, and with an unknown token', async () => {
    expect((await call(harness.app, { url: '/api/me' })).statusCode).toBe(401);
    expect((await call(harness.app, { url: '/api/me', cookie: 'session=made-up-token' })).statusCode).toBe(401);
  });

  it('gives each session only its own user', async () => {
    const first = await signUpUser(harness.app);
    const second = await signUpUser(harness.app);
    const firstMe = await call(harness.app, { url: '/api/me', cookie: first.cookie });
    const secondMe = await call(harness.app, { url: '/api/me', cookie: second.cookie });
    expect(firstMe.json().id).toBe(first.id);
    expect(secondMe.json().id).toBe(second.id);
    expect(secondMe.body).not.toContain(first.email);
  });

  it('ends the session at logout', async () => {
    const user = await signUpUser(harness.app);
    const logout = await call(harness.app, { method: 'POST', url: '/api/auth/logout', cookie: user.cookie });
    expect(logout.statusCode).toBe(200);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(401);
  });

  it('expires a session idle for more than 30 minutes', async () => {
    const user = await signUpUser(harness.app);
    await harness.database.handle.db.execute(sql`update sessions set last_seen_at = now() - interval '31 minutes' where user_id = ${user.id}`);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(401);
  });

  it('expires a session older than 12 hours even when it is in use', async () => {
    const user = await signUpUser(harness.app);
    await harness.database.handle.db.execute(sql`update sessions set created_at = now() - interval '12 hours 1 minute' where user_id = ${user.id}`);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(401);
  });

  it('keeps an active session alive', async () => {
    const user = await signUpUser(harness.app);
    await harness.database.handle.db.execute(sql`update sessions set last_seen_at = now() - interval '29 minutes' where user_id = ${user.id}`);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(200);
    const result = await harness.database.handle.db.execute<{ idle: boolean }>(
      sql`select last_seen_at > now() - interval '1 minute' as idle from sessions where user_id = ${user.id}`,
    );
    expect(result.rows[0]?.idle).toBe(true);
  });

  it('stores only the hash of the session token', async () => {
    const user = await signUpUser(harness.app);
    const token = user.cookie.replace('session=', '');
    const result = await harness.database.handle.db.execute<{ matches: number }>(
      sql`select count(*)::int as matches from sessions where encode(token_hash, 'escape') like ${`%${token}%`} or encode(token_hash, 'hex') = ${Buffer.from(token).toString('hex')}`,
    );
    expect(result.rows[0]?.matches).toBe(0);
  });
});

describe('cross-site request forgery guard', () => {
  it('refuses a state-changing request from a foreign origin and changes nothing', async () => {
    const user = await signUpUser(harness.app);
    const response = await call(harness.app, { method: 'POST', url: '/api/auth/logout', cookie: user.cookie, headers: { origin: 'https://evil.example' } });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('ORIGIN_REFUSED');
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(200);
  });

  it('takes the other loopback spellings of a loopback APP_ORIGIN as the app, and no other host or port', async () => {
    const user = await signUpUser(harness.app);
    // TEST_ORIGIN is http://localhost:3000, as in development.
    const login = (origin: string) =>
      harness.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { origin, 'content-type': 'application/json' },
        payload: JSON.stringify({ email: user.email, password: user.password }),
      });
    for (const origin of ['http://127.0.0.1:3000', 'http://[::1]:3000']) expect((await login(origin)).statusCode, origin).toBe(200);
    for (const origin of ['http://127.0.0.1:3001', 'https://127.0.0.1:3000', 'http://127.0.0.2:3000', 'http://localhost.example:3000']) {
      const refused = await login(origin);
      expect(refused.statusCode, origin).toBe(403);
      expect(refused.json().error.code).toBe('ORIGIN_REFUSED');
    }
  });

  it('refuses a state-changing request without an Origin header', async () => {
    const response = await harness.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a form-encoded body, which a cross-site form could send', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40b.co&password=secret',
    });
    expect(response.statusCode).toBe(415);
  });

  it('lets reads through from anywhere, since they change nothing', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('security headers', () => {
  it('sends a strict content security policy and no-store on API answers', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/health' });
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('documents the API as OpenAPI', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).toEqual(expect.arrayContaining(['/api/auth/signup', '/api/me', '/api/health']));
  });
});

describe('rate limits', () => {
  it('stops password guessing on one account after the limit', async () => {
    const limited = await createTestApp({ rateLimits: { loginPerAccount: 3 }, database: harness.database });
    try {
      const user = await signUpUser(limited.app);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        statuses.push((await call(limited.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: 'wrong-guess' } })).statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      const blocked = await call(limited.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: user.password } });
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error.message).toBe('Too many attempts. Please wait a few minutes and try again.');
    } finally {
      await limited.close();
    }
  });

  it('counts only wrong passwords against an account, so its owner can sign in often', async () => {
    const limited = await createTestApp({ rateLimits: { loginPerAccount: 2 }, database: harness.database });
    try {
      const user = await signUpUser(limited.app);
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const login = await call(limited.app, { method: 'POST', url: '/api/auth/login', body: { email: user.email, password: user.password } });
        expect(login.statusCode).toBe(200);
      }
    } finally {
      await limited.close();
    }
  });

  it('stops one address from trying many accounts', async () => {
    const limited = await createTestApp({ rateLimits: { loginPerAddress: 2 }, database: harness.database });
    try {
      await harness.database.handle.db.execute(sql`delete from rate_limit_buckets where key like 'login:ip:%'`);
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3; attempt += 1) {
        statuses.push(
          (await call(limited.app, { method: 'POST', url: '/api/auth/login', body: { email: `x${attempt}@example.com`, password: 'wrong-guess' } })).statusCode,
        );
      }
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await harness.database.handle.db.execute(sql`delete from rate_limit_buckets where key like 'login:ip:%'`);
      await limited.close();
    }
  });
});
