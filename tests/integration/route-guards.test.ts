import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { call, signUpUser, signUpVerifiedUser } from '../fixtures/test-app.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

/*
 * Who may call is decided by the route's area before its input is validated,
 * and the API's own checks (origin, session lookup, no-store) follow the route
 * a request matched, not the spelling of its URL.
 */

const { harness } = useIntegrationFile({ depositAddresses: false, admin: false });

/** Routes anyone may call; each answers anonymous callers with its own public answer. */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/ready',
  'POST /api/auth/signup',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'POST /api/auth/reset-password/check',
  // Completing a PIN reset needs the e-mailed token, not a session: the link may open in another browser.
  'POST /api/pin/reset',
  'POST /api/pin/reset/check',
  // The e-mail verification link is the proof of the mailbox; it may open in a browser that is not signed in (decision 041).
  'POST /api/contact-verification/email/verify',
  'GET /api/rates',
  'GET /api/settings/public',
  // The operator's identity and grievance officer, shown on the public terms and privacy pages (decision 051).
  'GET /api/legal/operator',
  'GET /api/files/qr/{network}',
  'GET /api/files/apk',
  'GET /api/events',
]);

/** Answers that stream until the client goes away; they are public and not called here. */
const STREAMING_ROUTES = new Set(['GET /api/events']);

function documentedRoutes(): { method: string; path: string }[] {
  const document = harness.app.swagger() as { paths?: Record<string, Record<string, unknown>> };
  const routes: { method: string; path: string }[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const method of Object.keys(operations)) routes.push({ method: method.toUpperCase(), path });
  }
  return routes;
}

describe('every documented route as an anonymous caller with an empty body', () => {
  it('is refused with 401 before its input is validated, unless it is public', async () => {
    const routes = documentedRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const answers: Record<string, number> = {};
    for (const { method, path } of routes) {
      const key = `${method} ${path}`;
      if (STREAMING_ROUTES.has(key)) continue;
      const url = path.replace(/\{[^}]+\}/g, randomUUID());
      const response = await call(harness.app, { method: method as 'GET', url, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
      answers[key] = response.statusCode;
      if (!PUBLIC_ROUTES.has(key)) {
        expect(response.statusCode, `${key}: ${response.body}`).toBe(401);
        expect(response.json().error).toEqual({ code: 'UNAUTHENTICATED', message: 'Please log in to continue.' });
      }
    }
    // A public route answers with something other than the refusal, and every listed public route exists.
    const documented = new Set(routes.map(({ method, path }) => `${method} ${path}`));
    expect([...PUBLIC_ROUTES].filter((route) => !documented.has(route))).toEqual([]);
    expect(Object.entries(answers).filter(([key, status]) => PUBLIC_ROUTES.has(key) && status === 401)).toEqual([]);
  });

  it('answers a customer without a verified PIN 403 PIN_REQUIRED before validating a money request', async () => {
    const user = await signUpUser(harness.app);
    for (const url of ['/api/bank-accounts', '/api/withdrawals', '/api/transfers', '/api/deposits']) {
      const response = await call(harness.app, { method: 'POST', url, cookie: user.cookie, body: {} });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error).toEqual({ code: 'PIN_REQUIRED', message: 'Please verify your transaction PIN first.' });
    }
  });
});

describe('admin writes', () => {
  it('need a session whose PIN was verified; admin reads do not', async () => {
    const admin = await signUpUser(harness.app, { fullName: 'Admin Person' });
    await harness.database.handle.db.execute(sql`update profiles set role = 'admin' where user_id = ${admin.id}`);
    const customer = await signUpVerifiedUser(harness.app);

    const read = await call(harness.app, { url: `/api/admin/users/${customer.id}`, cookie: admin.cookie });
    expect(read.statusCode).toBe(200);
    const write = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${customer.id}`, cookie: admin.cookie, body: { vipLevel: 'vip1' } });
    expect(write.statusCode).toBe(403);
    expect(write.json().error).toEqual({ code: 'PIN_REQUIRED', message: 'Please verify your transaction PIN first.' });
    const decision = await call(harness.app, { method: 'POST', url: `/api/admin/deposits/${randomUUID()}/approve`, cookie: admin.cookie, body: {} });
    expect(decision.statusCode).toBe(403);
    expect(decision.json().error.code).toBe('PIN_REQUIRED');
    const unchanged = await harness.database.handle.db.execute<{ vip_level: string }>(sql`select vip_level from profiles where user_id = ${customer.id}`);
    expect(unchanged.rows[0]?.vip_level).toBe('normal');

    expect((await call(harness.app, { method: 'POST', url: '/api/pin/verify', cookie: admin.cookie, body: { pin: admin.pin } })).statusCode).toBe(200);
    const allowed = await call(harness.app, { method: 'PATCH', url: `/api/admin/users/${customer.id}`, cookie: admin.cookie, body: { vipLevel: 'vip1' } });
    expect(allowed.statusCode).toBe(200);
  });

  it('lets a verified admin decide (the fixture admin verifies its PIN)', async () => {
    const admin = await signUpAdminWithVerifiedPin(harness);
    const response = await call(harness.app, { method: 'POST', url: `/api/admin/deposits/${randomUUID()}/approve`, cookie: admin.cookie, body: {} });
    expect(response.statusCode).toBe(404);
  });
});

describe('checks that follow the matched route', () => {
  it('refuses a cross-site logout spelled /%61pi/auth/logout with a text/plain body, and the session survives', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const response = await harness.app.inject({
      method: 'POST',
      url: '/%61pi/auth/logout',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain', cookie: user.cookie },
      payload: 'x',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('ORIGIN_REFUSED');
    expect(response.headers['cache-control']).toBe('no-store');
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(200);
  });

  it('answers /api/health without a session lookup, whatever session cookie comes with it', async () => {
    const user = await signUpVerifiedUser(harness.app);
    const { db } = harness.database.handle;
    const lastSeen = async () =>
      (await db.execute<{ last_seen_at: string }>(sql`select last_seen_at::text from sessions where user_id = ${user.id}`)).rows[0]?.last_seen_at;
    // A session seen five minutes ago is touched by any request that looks it up.
    await db.execute(sql`update sessions set last_seen_at = now() - interval '5 minutes' where user_id = ${user.id}`);
    const before = await lastSeen();

    for (const cookie of [user.cookie, 'session=garbage', `session=${'x'.repeat(5000)}`]) {
      const response = await harness.app.inject({ method: 'GET', url: '/api/health', headers: { cookie } });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
    }
    expect(await lastSeen()).toBe(before);

    // The same cookie on a route that looks the session up does touch it.
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(200);
    expect(await lastSeen()).not.toBe(before);
  });

  it('still sends no-store on an unknown /api address', async () => {
    const response = await call(harness.app, { url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['cache-control']).toBe('no-store');
  });
});
