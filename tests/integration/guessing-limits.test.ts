import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaledRateLimits } from '../../src/server/context.ts';
import { Argon2Workers } from '../../src/server/features/auth/argon2-workers.ts';
import { EVENT_STREAM_LIMITS } from '#shared/contracts/events';
import { formatPauseEnd } from '#shared/contracts/security';
import { listenOnFreePort, openEventStream, type EventStreamClient } from '../fixtures/event-stream.ts';
import { TEST_ORIGIN, createTestApp, sessionCookieOf, signUpUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';

// The limits in force at the highest RATE_LIMIT_SCALE: per-account limits must not grow with it.
let harness: TestApp;
beforeAll(async () => {
  // Six guesses at once from one session: the per-session cap on writes in flight (its own test is one-customer-burst) is lifted here.
  harness = await createTestApp({ rateLimits: { ...scaledRateLimits(1000), writesInFlightPerSession: 10_000 } });
});
afterAll(async () => harness.close());

const db = () => harness.database.handle.db;

function post(url: string, body: unknown, options: { cookie?: string; address?: string } = {}) {
  return harness.app.inject({
    method: 'POST',
    url,
    remoteAddress: options.address ?? '127.0.0.1',
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(options.cookie ? { cookie: options.cookie } : {}) },
    payload: JSON.stringify(body),
  });
}

function loginFrom(app: TestApp['app'], address: string, email: string, password: string, cookie?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: address,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify({ email, password }),
  });
}

async function logIn(user: SignedUpUser, address: string): Promise<string> {
  const response = await post('/api/auth/login', { email: user.email, password: user.password }, { address });
  expect(response.statusCode).toBe(200);
  return sessionCookieOf(response);
}

async function failureCount(userId: string): Promise<number> {
  const result = await db().execute<{ count: number }>(sql`select count(*)::int as count from pin_failures where user_id = ${userId}`);
  return result.rows[0]?.count ?? -1;
}

/** Three wrong PINs from a fresh session (and address): each round ends every session of the user. */
async function lockOutRound(user: SignedUpUser, round: number): Promise<void> {
  const address = `10.0.${round}.1`;
  const cookie = await logIn(user, address);
  for (const pin of ['0001', '0002', '0003']) await post('/api/pin/verify', { pin }, { cookie, address });
}

describe('wrong PINs per account', () => {
  it('blocks every PIN check of the account, the right PIN too, after 10 wrong PINs in 24 hours across sessions and addresses', async () => {
    const user = await signUpUser(harness.app);
    for (let round = 0; round < 3; round += 1) await lockOutRound(user, round);
    expect(await failureCount(user.id)).toBe(9);

    const cookie = await logIn(user, '10.0.9.1');
    const tenth = await post('/api/pin/verify', { pin: '0004' }, { cookie, address: '10.0.9.1' });
    const result = await db().execute<{ until: Date }>(
      sql`select failed_at + interval '24 hours' as until from pin_failures where user_id = ${user.id} order by failed_at limit 1`,
    );
    const until = formatPauseEnd(new Date(result.rows[0]?.until as Date));
    const message = `Too many wrong PINs on this account. PIN checks are blocked until ${until}, or until you reset your PIN by e-mail.`;
    expect(tenth.statusCode).toBe(429);
    expect(tenth.json().error).toEqual({ code: 'PIN_BLOCKED', message });

    const right = await post('/api/pin/verify', { pin: user.pin }, { cookie, address: '10.0.9.2' });
    expect(right.statusCode).toBe(429);
    expect(right.json().error).toEqual({ code: 'PIN_BLOCKED', message });
    const elsewhere = await logIn(user, '10.0.9.3');
    expect((await post('/api/pin/verify', { pin: user.pin }, { cookie: elsewhere, address: '10.0.9.3' })).statusCode).toBe(429);
    expect(await failureCount(user.id)).toBe(10);

    // The block ends when the oldest of the ten wrong PINs is 24 hours old.
    await db().execute(sql`update pin_failures set failed_at = now() - interval '24 hours 1 second'
                           where id = (select id from pin_failures where user_id = ${user.id} order by failed_at limit 1)`);
    expect((await post('/api/pin/verify', { pin: user.pin }, { cookie: elsewhere, address: '10.0.9.3' })).statusCode).toBe(200);
  });

  it('counts concurrent wrong PINs one by one up to the ceiling', async () => {
    const user = await signUpUser(harness.app);
    for (let round = 0; round < 2; round += 1) await lockOutRound(user, 20 + round);
    // Two more wrong PINs and a right one: 8 wrong in the window, and the three-in-a-row count back at 0.
    const cookie = await logIn(user, '10.0.30.1');
    await post('/api/pin/verify', { pin: '0001' }, { cookie });
    await post('/api/pin/verify', { pin: '0002' }, { cookie });
    expect((await post('/api/pin/verify', { pin: user.pin }, { cookie })).statusCode).toBe(200);
    expect(await failureCount(user.id)).toBe(8);

    const answers = await Promise.all(['1001', '1002', '1003', '1004', '1005', '1006'].map((pin) => post('/api/pin/verify', { pin }, { cookie })));
    const codes = answers.map((answer) => answer.json().error.code).sort();
    expect(codes).toEqual(['PIN_BLOCKED', 'PIN_BLOCKED', 'PIN_BLOCKED', 'PIN_BLOCKED', 'PIN_BLOCKED', 'PIN_INCORRECT']);
    expect(await failureCount(user.id)).toBe(10);
  });

  it('lifts the block when the PIN is reset by e-mail', async () => {
    const user = await signUpUser(harness.app);
    for (let round = 0; round < 3; round += 1) await lockOutRound(user, 40 + round);
    const cookie = await logIn(user, '10.0.50.1');
    expect((await post('/api/pin/verify', { pin: '0004' }, { cookie })).statusCode).toBe(429);
    expect((await post('/api/pin/reset-link', { password: user.password }, { cookie })).statusCode).toBe(202);
    const outbox = await db().execute<{ text_body: string }>(
      sql`select text_body from mail_outbox where lower(to_address) = ${user.email.toLowerCase()} and text_body like '%/reset-pin?token=%'`,
    );
    const token = decodeURIComponent(/token=([A-Za-z0-9_%-]+)/.exec(outbox.rows[0]?.text_body ?? '')?.[1] ?? '');
    expect((await post('/api/pin/reset', { token, pin: '2580' }, { cookie })).statusCode).toBe(200);
    expect(await failureCount(user.id)).toBe(0);
    expect((await post('/api/pin/verify', { pin: '2580' }, { cookie })).statusCode).toBe(200);
  });

  it('checks the hash without holding a transaction open while argon2 runs', async () => {
    const user = await signUpUser(harness.app);
    const cookie = await logIn(user, '10.0.60.1');
    // Every statement of the app's database clients is watched: a transaction is open on a client from its
    // `begin` to its `commit` or `rollback`. At each argon2 check, the clients with an open transaction are noted.
    const openTransactions = new Set<pg.Client>();
    let transactionsSeen = 0;
    const openAtArgon2Checks: number[] = [];
    const query = pg.Client.prototype.query;
    const verify = Argon2Workers.prototype.verify;
    pg.Client.prototype.query = function watchedQuery(this: pg.Client, ...args: unknown[]) {
      const first = args[0];
      const text = (typeof first === 'string' ? first : ((first as { text?: unknown } | undefined)?.text ?? '')) as string;
      const statement = text.trimStart().toLowerCase();
      if (statement.startsWith('begin') || statement.startsWith('start transaction')) {
        openTransactions.add(this);
        transactionsSeen += 1;
      } else if (statement.startsWith('commit') || statement.startsWith('rollback')) openTransactions.delete(this);
      return (query as (...parameters: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    Argon2Workers.prototype.verify = function watchedVerify(this: Argon2Workers, storedHash: string, secret: string) {
      openAtArgon2Checks.push(openTransactions.size);
      return verify.call(this, storedHash, secret);
    };
    try {
      for (const pin of [user.pin, '0001', user.pin, '0002', user.pin]) await post('/api/pin/verify', { pin }, { cookie });
    } finally {
      pg.Client.prototype.query = query;
      Argon2Workers.prototype.verify = verify;
    }
    expect(openAtArgon2Checks).toEqual([0, 0, 0, 0, 0]);
    // The watch saw the transactions that record each check's outcome, so it watched the right clients.
    expect(transactionsSeen).toBeGreaterThan(0);
  });
});

describe('wrong passwords', () => {
  it('stops one address guessing an account while its owner signs in from another', async () => {
    const user = await signUpUser(harness.app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      statuses.push((await post('/api/auth/login', { email: user.email, password: 'wrong-guess' }, { address: '203.0.113.7' })).statusCode);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
    expect((await post('/api/auth/login', { email: user.email, password: user.password }, { address: '203.0.113.7' })).statusCode).toBe(429);
    expect((await post('/api/auth/login', { email: user.email, password: user.password }, { address: '198.51.100.20' })).statusCode).toBe(200);
  });

  it('slows every attempt on an account, without shutting its owner out, once guesses from many addresses pass the ceiling', async () => {
    const limited = await createTestApp({ rateLimits: { loginPerAccount: 10, loginSlowdownAfter: 4 }, database: harness.database });
    try {
      const user = await signUpUser(limited.app);
      const guess = (address: string, password: string) => loginFrom(limited.app, address, user.email, password);
      for (let address = 1; address <= 4; address += 1) expect((await guess(`192.0.2.${address}`, 'wrong-guess')).statusCode).toBe(401);
      const turnsClaimed = async () =>
        Number(
          (
            await db().execute<{ count: number }>(
              sql`select count(*)::int as count from rate_limit_slots where key = ${`login:account:${user.email.toLowerCase()}`}`,
            )
          ).rows[0]?.count,
        );
      expect(await turnsClaimed()).toBe(0);
      const owner = await guess('198.51.100.99', user.password);
      // Past the ceiling the owner waits for a turn in the account's queue (the first one 500 ms away) but gets in.
      expect(owner.statusCode).toBe(200);
      expect(await turnsClaimed()).toBe(1);
    } finally {
      await limited.close();
    }
  });
});

describe('password checks past the account-wide ceiling', () => {
  const limits = { loginPerAccount: 10, loginSlowdownAfter: 4, loginQueueMilliseconds: 1_500 };

  async function wrongPasswordsFromAddresses(app: TestApp['app'], email: string, count: number): Promise<void> {
    for (let address = 1; address <= count; address += 1) expect((await loginFrom(app, `192.0.2.${address}`, email, 'wrong-guess')).statusCode).toBe(401);
  }

  async function accountFailures(email: string): Promise<number> {
    const result = await db().execute<{ hits: number }>(sql`select hits from rate_limit_buckets where key = ${`login:account:${email.toLowerCase()}`}`);
    return result.rows[0]?.hits ?? 0;
  }

  function deviceCookieOf(response: { cookies: { name: string; value: string }[] }): string {
    const device = response.cookies.find((cookie) => cookie.name === 'device');
    expect(device?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    return `device=${device?.value}`;
  }

  it('are checked one at a time from every address: guesses sent at once beyond the queue are refused at once and count nothing', async () => {
    const limited = await createTestApp({ rateLimits: limits, database: harness.database });
    try {
      const user = await signUpUser(limited.app);
      await wrongPasswordsFromAddresses(limited.app, user.email, 4);
      // Four wrong passwords: each check now waits 500 ms after the one before, and the queue holds 1.5 s.
      const guesses = await Promise.all(Array.from({ length: 6 }, (_, index) => loginFrom(limited.app, `203.0.113.${index + 1}`, user.email, 'wrong-guess')));
      const statuses = guesses.map((guess) => guess.statusCode).sort();
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      const refused = guesses.find((guess) => guess.statusCode === 429);
      expect(refused?.json().error.message).toBe('Too many attempts. Please wait a few minutes and try again.');
      expect(await accountFailures(user.email)).toBe(7);
    } finally {
      await limited.close();
    }
  });

  it('let a browser that signed in to the account before skip a full queue, and no other browser', async () => {
    const limited = await createTestApp({ rateLimits: limits, database: harness.database });
    try {
      const user = await signUpUser(limited.app);
      const other = await signUpUser(limited.app);
      const ownersBrowser = deviceCookieOf(await loginFrom(limited.app, '198.51.100.10', user.email, user.password));
      const othersBrowser = deviceCookieOf(await loginFrom(limited.app, '198.51.100.11', other.email, other.password));
      await wrongPasswordsFromAddresses(limited.app, user.email, 4);
      // The queue is full: the last turn claimed starts in an hour.
      await db().execute(
        sql`insert into rate_limit_slots (key, next_check_at) values (${`login:account:${user.email.toLowerCase()}`}, now() + interval '1 hour')`,
      );

      expect((await loginFrom(limited.app, '198.51.100.12', user.email, user.password)).statusCode).toBe(429);
      expect((await loginFrom(limited.app, '198.51.100.11', user.email, user.password, othersBrowser)).statusCode).toBe(429);
      expect((await loginFrom(limited.app, '198.51.100.13', user.email, user.password, 'device=made-up-token')).statusCode).toBe(429);
      const owner = await loginFrom(limited.app, '198.51.100.10', user.email, user.password, ownersBrowser);
      expect(owner.statusCode).toBe(200);
      // The browser keeps its token, so it stays known.
      expect(deviceCookieOf(owner)).toBe(ownersBrowser);
      // A known browser skips the queue, not the check: a wrong password from it is still wrong and counted.
      expect((await loginFrom(limited.app, '198.51.100.10', user.email, 'wrong-guess', ownersBrowser)).statusCode).toBe(401);
      expect(await accountFailures(user.email)).toBe(5);
    } finally {
      await limited.close();
    }
  });
});

describe("the rate limits' counters", () => {
  it('are the only unlogged tables, so counting an attempt waits for no disk flush and every other record survives a crash', async () => {
    const result = await db().execute<{ relname: string; relpersistence: string }>(
      sql`select c.relname, c.relpersistence from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by c.relname`,
    );
    const unlogged = result.rows.filter((row) => row.relpersistence === 'u').map((row) => row.relname);
    expect(unlogged).toEqual(['rate_limit_buckets', 'rate_limit_slots']);
    expect(result.rows.filter((row) => row.relname === 'ledger_accounts' || row.relname === 'pin_failures').map((row) => row.relpersistence)).toEqual([
      'p',
      'p',
    ]);
  });
});

describe('live-update streams', () => {
  it('keep the per-address cap at the highest RATE_LIMIT_SCALE, so one client cannot take every slot', async () => {
    const scaled = await createTestApp({ rateLimitScale: 1000, database: harness.database });
    const url = await listenOnFreePort(scaled.app);
    const clients: EventStreamClient[] = [];
    try {
      for (let index = 0; index < EVENT_STREAM_LIMITS.maxStreamsPerAddress; index += 1) {
        const client = await openEventStream(url);
        clients.push(client);
        expect(client.statusCode).toBe(200);
      }
      const refused = await openEventStream(url);
      clients.push(refused);
      expect(refused.statusCode).toBe(429);
    } finally {
      for (const client of clients) client.close();
      await scaled.close();
    }
  });
});
