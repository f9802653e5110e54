import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishEvent } from '../../src/server/platform/events/publish.ts';
import { listenOnFreePort, openEventStream } from '../fixtures/event-stream.ts';
import { startOwnPostgres, type OwnPostgres } from '../fixtures/own-postgres.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';

let postgres: OwnPostgres;
let harness: TestApp;
let customer: SignedUpUser;

beforeAll(async () => {
  postgres = await startOwnPostgres();
  harness = await createTestApp({ database: postgres.database });
  customer = await signUpVerifiedUser(harness.app);
});

afterAll(async () => {
  await harness?.close();
  await postgres?.destroy();
});

async function waitUntilHealthy(timeoutMilliseconds: number): Promise<void> {
  const deadline = Date.now() + timeoutMilliseconds;
  for (;;) {
    const response = await call(harness.app, { url: '/api/health' });
    if (response.statusCode === 200) return;
    if (Date.now() > deadline) throw new Error(`still ${response.statusCode} after the database came back: ${response.body}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function expectDatabaseUnavailable(response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, what: string): void {
  expect(response.statusCode, what).toBe(503);
  expect(response.headers['retry-after'], what).toBe('5');
  // The reference is the request id that the server's log carries too.
  const reference = response.headers['x-request-id'];
  expect(reference, what).toMatch(/^[0-9a-f]{12}$/);
  expect(response.json(), what).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: 'Unable to connect to the database', reference } });
}

describe('while the database is down', () => {
  it('answers 503 with Retry-After to every kind of request, and 200 again once it is back, without restarting the app', async () => {
    expect((await call(harness.app, { url: '/api/me', cookie: customer.cookie })).statusCode).toBe(200);
    await postgres.stop();
    try {
      expectDatabaseUnavailable(await call(harness.app, { url: '/api/health' }), 'health');
      // The session lookup runs before the handler; its failure is a 503 too.
      expectDatabaseUnavailable(await call(harness.app, { url: '/api/health', cookie: customer.cookie }), 'health with a session cookie');
      expectDatabaseUnavailable(await call(harness.app, { url: '/api/me', cookie: customer.cookie }), 'a signed-in read');
      expectDatabaseUnavailable(await call(harness.app, { url: '/api/settings/public' }), 'a public read');
      expectDatabaseUnavailable(
        await call(harness.app, { method: 'POST', url: '/api/auth/login', body: { email: customer.email, password: customer.password } }),
        'a login',
      );
      expectDatabaseUnavailable(
        await call(harness.app, {
          method: 'POST',
          url: '/api/transfers',
          cookie: customer.cookie,
          body: { recipientEmail: 'someone@example.com', amount: '1', pin: customer.pin },
        }),
        'a money request',
      );
      // The load balancer keeps this server: it is not draining, the database is everyone's problem.
      expect((await call(harness.app, { url: '/api/ready' })).statusCode).toBe(200);
    } finally {
      await postgres.restart();
    }
    await waitUntilHealthy(15_000);
    const me = await call(harness.app, { url: '/api/me', cookie: customer.cookie });
    expect(me.statusCode).toBe(200);
  });
});

describe('live updates after an outage', () => {
  it('delivers an event committed right after the database returns to a page that stayed connected', async () => {
    const baseUrl = await listenOnFreePort(harness.app);
    const stream = await openEventStream(baseUrl, { cookie: customer.cookie });
    try {
      await stream.next('ready', 10_000);
      await postgres.stop();
      // Long enough for several failed reconnection attempts, whose delay used to grow to 10 s.
      await new Promise((resolve) => setTimeout(resolve, 9_000));
      await postgres.restart();
      // The server's listener is back: it tells the page to catch up on what it may have missed.
      await stream.next('resync', 15_000);
      const delivered = stream.next('wallet.updated', 5_000);
      // Events committed from the moment the database is back, as customers' actions would be.
      const publisher = setInterval(() => {
        publishEvent(postgres.database.handle.db, { type: 'wallet.updated', userId: customer.id, reason: 'after-outage' }).catch(() => undefined);
      }, 100);
      try {
        const event = await delivered;
        expect(JSON.parse(event.data)).toEqual({ reason: 'after-outage' });
      } finally {
        clearInterval(publisher);
      }
    } finally {
      stream.close();
    }
  }, 45_000);
});
