import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/server/db/client.ts';
import { call, createTestApp, type TestApp } from '../fixtures/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/test-database.ts';

/*
 * A request beyond the few allowed to wait for a pooled connection fails at
 * once with 503 instead of queueing for the whole connection timeout. The pool
 * here has two connections, two places in the queue and a connection timeout
 * far longer than the test may take: an answer while both connections are held
 * can only be the refusal, never the timeout.
 */

const POOL_SIZE = 2;
const MAX_WAITING = 2;
const CONNECTION_TIMEOUT_MILLISECONDS = 10 * 60_000;

let ordinary: TestDatabase;
let tiny: TestDatabase;
let harness: TestApp;

beforeAll(async () => {
  ordinary = await createTestDatabase();
  const handle = connectDatabase(ordinary.connectionString, {
    maxConnections: POOL_SIZE,
    maxWaiting: MAX_WAITING,
    connectionTimeoutMilliseconds: CONNECTION_TIMEOUT_MILLISECONDS,
  });
  tiny = {
    handle,
    connectionString: ordinary.connectionString,
    drop: async () => {
      await handle.close();
      await ordinary.drop();
    },
  };
  harness = await createTestApp({ database: tiny });
});
afterAll(async () => {
  await harness?.close();
  await tiny?.drop();
});

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${what} did not happen`);
}

describe('a full pool with a full waiting queue', () => {
  it('answers 503 with Retry-After at once beyond the queue, and serves the queued requests once a connection is free', { timeout: 60_000 }, async () => {
    expect((await call(harness.app, { url: '/api/settings/public' })).statusCode).toBe(200);
    const pool = tiny.handle.pool;
    const held: pg.PoolClient[] = [];
    for (let index = 0; index < POOL_SIZE; index += 1) held.push(await pool.connect());
    let released = false;
    try {
      const queued = Array.from({ length: MAX_WAITING }, () => call(harness.app, { url: '/api/settings/public' }));
      await until(() => pool.waitingCount >= MAX_WAITING, 'the queue filling up');

      const refused = await call(harness.app, { url: '/api/settings/public' });
      // Answered while both connections are still held: the request did not wait for one.
      expect(released).toBe(false);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE', message: 'Unable to connect to the database' } });
      const refusedHealth = await call(harness.app, { url: '/api/health' });
      expect(refusedHealth.statusCode).toBe(503);

      released = true;
      for (const client of held.splice(0)) client.release();
      expect((await Promise.all(queued)).map((answer) => answer.statusCode)).toEqual(Array.from({ length: MAX_WAITING }, () => 200));
    } finally {
      for (const client of held) client.release();
    }
    expect((await call(harness.app, { url: '/api/settings/public' })).statusCode).toBe(200);
  });
});
