import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STREAM_LIMITS } from '#shared/contracts/events';
import { findLiveSessionAudiences } from '../../src/server/platform/events/repository.ts';
import { LISTENER_APPLICATION_NAME } from '../../src/server/platform/events/listener.ts';
import { EVENTS_CHANNEL } from '../../src/server/platform/events/publish.ts';
import { currentSettingsBody } from '../fixtures/admin.ts';
import { listenOnFreePort, openEventStream, type EventStreamClient } from '../fixtures/event-stream.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { decide, expectStatus, submitDeposit } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

/*
 * Two app instances on one database stand for two server processes: each has
 * its own LISTEN connection, and changes made through one must reach the
 * streams of the other.
 */
const { harness: first, admin } = useIntegrationFile();
let second: TestApp;
let secondUrl: string;
let alice: SignedUpUser;
let bob: SignedUpUser;
const openStreams: EventStreamClient[] = [];

async function stream(cookie?: string): Promise<EventStreamClient> {
  const client = await openEventStream(secondUrl, { cookie });
  openStreams.push(client);
  return client;
}

async function changeRates(normalRate: string) {
  return call(first.app, {
    method: 'PUT',
    url: '/api/admin/settings',
    cookie: admin.cookie,
    body: await currentSettingsBody(first.app, admin.cookie, { normalRate }),
  });
}

beforeAll(async () => {
  second = await createTestApp({ database: first.database });
  secondUrl = await listenOnFreePort(second.app);
  alice = await signUpVerifiedUser(first.app, { fullName: 'Alice Stream' });
  bob = await signUpVerifiedUser(first.app, { fullName: 'Bob Stream' });
});

afterAll(async () => {
  for (const client of openStreams) client.close();
  await second.close();
});

describe('GET /api/events over real HTTP', () => {
  it('opens a public stream with SSE headers, a retry interval and a ready event', async () => {
    const client = await stream();
    expect(client.statusCode).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.headers['cache-control']).toBe('no-store');
    expect(client.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(client.headers['content-length']).toBeUndefined();
    const ready = await client.next('ready');
    expect(JSON.parse(ready.data)).toEqual({ audience: 'public' });
    expect(client.rawLines[0]).toBe(`retry: ${EVENT_STREAM_LIMITS.retryMilliseconds}`);
  });

  it('delivers a settings change made through instance 1 to a subscriber of instance 2', async () => {
    const visitor = await stream();
    const customer = await stream(alice.cookie);
    await visitor.next('ready');
    expect(JSON.parse((await customer.next('ready')).data)).toEqual({ audience: 'customer' });

    expectStatus(await changeRates('84.10'), 200);
    await visitor.next('settings.updated');
    await customer.next('settings.updated');
    const rates = (await call(second.app, { url: '/api/rates' })).json();
    expect(rates.normalRate).toBe('84.10');
  });

  it("sends a user their own wallet events and never another user's", async () => {
    const aliceStream = await stream(alice.cookie);
    const bobStream = await stream(bob.cookie);
    const visitor = await stream();
    const adminStream = await stream(admin.cookie);
    await Promise.all([aliceStream.next('ready'), bobStream.next('ready'), visitor.next('ready')]);
    expect(JSON.parse((await adminStream.next('ready')).data)).toEqual({ audience: 'admin' });

    const depositId = await submitDeposit(first, alice, '25');
    expect(JSON.parse((await aliceStream.next('wallet.updated')).data)).toEqual({ reason: 'deposit.submitted' });
    await adminStream.next('admin.queue.updated');
    expectStatus(await decide(first, admin, 'deposits', depositId, 'approve'), 200);
    expect(JSON.parse((await aliceStream.next('wallet.updated')).data)).toEqual({ reason: 'deposit.approved' });
    await adminStream.next('admin.queue.updated');

    // Notifications arrive in commit order: once this later change has reached every
    // stream, any wallet event meant for them would have arrived before it.
    expectStatus(await changeRates('84.20'), 200);
    await Promise.all([bobStream.next('settings.updated'), visitor.next('settings.updated'), adminStream.next('settings.updated')]);
    for (const other of [bobStream, visitor, adminStream]) {
      expect(other.events.filter((received) => received.event === 'wallet.updated')).toEqual([]);
    }
    for (const customer of [aliceStream, bobStream, visitor]) {
      expect(customer.events.filter((received) => received.event === 'admin.queue.updated')).toEqual([]);
    }
  });

  it('ignores malformed notifications on the channel', async () => {
    const client = await stream();
    await client.next('ready');
    await first.database.handle.db.execute(sql`select pg_notify(${EVENTS_CHANNEL}, 'not json')`);
    await first.database.handle.db.execute(
      sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify({ type: 'wallet.updated', userId: 'nope', reason: 'x' })})`,
    );
    expectStatus(await changeRates('84.30'), 200);
    await client.next('settings.updated');
    expect(client.events.map((received) => received.event)).toEqual(['ready', 'settings.updated']);
  });

  it('reconnects after the LISTEN connection is killed and tells open streams to resync', async () => {
    const client = await stream(alice.cookie);
    await client.next('ready');
    const killed = await first.database.handle.db.execute<{ killed: boolean }>(
      sql`select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
    );
    expect(killed.rows.length).toBeGreaterThanOrEqual(1);
    await client.next('resync', 10_000);
    expectStatus(await changeRates('84.40'), 200);
    await client.next('settings.updated');
  });

  it('limits the streams one address may hold open', async () => {
    const third = await createTestApp({ database: first.database });
    const thirdUrl = await listenOnFreePort(third.app);
    const clients: EventStreamClient[] = [];
    try {
      for (let index = 0; index < EVENT_STREAM_LIMITS.maxStreamsPerAddress; index += 1) {
        const client = await openEventStream(thirdUrl);
        clients.push(client);
        expect(client.statusCode).toBe(200);
      }
      const refused = await openEventStream(thirdUrl);
      clients.push(refused);
      expect(refused.statusCode).toBe(429);

      // A closed stream frees its place.
      // The server notices the closed connection asynchronously: retry until the place is free.
      clients[0]?.close();
      await expect
        .poll(
          async () => {
            const again = await openEventStream(thirdUrl);
            clients.push(again);
            if (again.statusCode !== 200) again.close();
            return again.statusCode;
          },
          { timeout: 5_000, interval: 50 },
        )
        .toBe(200);
    } finally {
      for (const client of clients) client.close();
      await third.close();
    }
  });

  it('ends open streams when the app closes, without waiting for them', async () => {
    const fourth = await createTestApp({ database: first.database });
    const fourthUrl = await listenOnFreePort(fourth.app);
    const client = await openEventStream(fourthUrl);
    await client.next('ready');
    const started = Date.now();
    await fourth.close();
    await client.ended;
    expect(Date.now() - started).toBeLessThan(5_000);
    // Only the second instance's listener remains (the killed one was replaced); a closed
    // connection leaves pg_stat_activity a moment after the client let it go.
    await expect
      .poll(
        async () => {
          const listeners = await first.database.handle.db.execute<{ count: number }>(
            sql`select count(*)::int as count from pg_stat_activity where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
          );
          return listeners.rows[0]?.count;
        },
        { timeout: 5_000, interval: 50 },
      )
      .toBe(1);
  });
});

describe('session re-check of signed-in streams', () => {
  it('drops signed-out sessions and follows role changes', async () => {
    const carol = await signUpVerifiedUser(first.app, { fullName: 'Carol Stream' });
    const sessionIds = async (user: SignedUpUser) => {
      const me = await call(first.app, { url: '/api/me', cookie: user.cookie });
      expect(me.statusCode).toBe(200);
      const result = await first.database.handle.db.execute<{ id: string }>(sql`select id from sessions where user_id = ${user.id}`);
      return result.rows.map((row) => row.id);
    };
    const [carolSession] = await sessionIds(carol);
    const [adminSession] = await sessionIds(admin);
    if (!carolSession || !adminSession) throw new Error('sessions missing');
    const limits = first.context.sessionSettings;

    let live = await findLiveSessionAudiences(first.database.handle.db, [carolSession, adminSession], limits);
    expect(live.get(carolSession)).toEqual({ canSeeAdminQueue: false });
    expect(live.get(adminSession)).toEqual({ canSeeAdminQueue: true });

    // A VIP level is a rate tier: it does not show the admin queues (decision 040); the admin role does.
    await first.database.handle.db.execute(sql`update profiles set vip_level = 'vip' where user_id = ${carol.id}`);
    live = await findLiveSessionAudiences(first.database.handle.db, [carolSession], limits);
    expect(live.get(carolSession)).toEqual({ canSeeAdminQueue: false });
    await first.database.handle.db.execute(sql`update profiles set role = 'admin' where user_id = ${carol.id}`);
    live = await findLiveSessionAudiences(first.database.handle.db, [carolSession], limits);
    expect(live.get(carolSession)).toEqual({ canSeeAdminQueue: true });

    expectStatus(await call(first.app, { method: 'POST', url: '/api/auth/logout', cookie: carol.cookie, body: {} }), 200);
    live = await findLiveSessionAudiences(first.database.handle.db, [carolSession, adminSession], limits);
    expect(live.has(carolSession)).toBe(false);
    expect(live.has(adminSession)).toBe(true);
  });
});
