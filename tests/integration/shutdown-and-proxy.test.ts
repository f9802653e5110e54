import http from 'node:http';
import net from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { DEFAULT_SESSION_SETTINGS, type AppContext } from '../../src/server/context.ts';
import { loadConfig } from '../../src/server/env.ts';
import { drainAndClose, ServerLifecycle } from '../../src/server/http/lifecycle.ts';
import { createMailer } from '../../src/server/platform/mail/mailer.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/test-database.ts';
import { GENEROUS_RATE_LIMITS, TEST_ORIGIN, signUpUser } from '../fixtures/test-app.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

function contextWith(environment: Record<string, string>): AppContext {
  const config = { ...loadConfig(environment), appOrigin: TEST_ORIGIN, logLevel: 'silent' as const };
  return {
    config,
    database: database.handle,
    mailer: createMailer({ smtpUrl: undefined, from: config.mailFrom, db: database.handle.db, log: pino({ level: 'silent' }) }),
    rateLimits: { ...GENEROUS_RATE_LIMITS, loginPerAddress: 2 },
    sessionSettings: DEFAULT_SESSION_SETTINGS,
  };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(agent: http.Agent, port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
  });
}

describe('shutting down', () => {
  it('turns /api/ready to 503 at once, closes keep-alive connections, lets in-flight requests finish and stops despite idle and stalled clients', async () => {
    const lifecycle = new ServerLifecycle();
    const app = await buildApp(contextWith({}), { logger: false, lifecycle });
    // A request that is still being answered when the shutdown begins.
    app.get('/slow-for-test', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return { finished: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const stalled = new net.Socket();
    try {
      const before = await get(agent, port, '/api/ready');
      expect(before.status).toBe(200);
      expect(JSON.parse(before.body)).toEqual({ status: 'ready' });
      expect(before.headers.connection).toBe('keep-alive');
      // A client that keeps its connection open and idle, and one that never finishes sending its request.
      expect((await get(idleAgent, port, '/api/ready')).status).toBe(200);
      await new Promise<void>((resolve) => stalled.connect(port, '127.0.0.1', resolve));
      stalled.write('GET /api/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      stalled.on('error', () => undefined);

      const inFlight = get(agent, port, '/slow-for-test');
      await new Promise((resolve) => setTimeout(resolve, 100));
      lifecycle.startDraining();
      const during = await get(agent, port, '/api/ready');
      expect(during.status).toBe(503);
      expect(during.headers.connection).toBe('close');

      const startedAt = Date.now();
      const closed = drainAndClose(app, lifecycle, 2_000);
      const finished = await inFlight;
      expect(finished.status).toBe(200);
      expect(JSON.parse(finished.body)).toEqual({ finished: true });
      expect(finished.headers.connection).toBe('close');
      await closed;
      // The stalled client is cut at the grace period instead of holding the process.
      expect(Date.now() - startedAt).toBeLessThan(3_500);
    } finally {
      stalled.destroy();
      agent.destroy();
      idleAgent.destroy();
      await app.close();
    }
  });
});

describe('behind a reverse proxy', () => {
  let run = 0;
  async function loginFailuresFrom(environment: Record<string, string>, proxyAddress: string): Promise<number[]> {
    // Limits are counted in the database: each run uses addresses of its own.
    run += 1;
    const app = await buildApp(contextWith(environment), { logger: false });
    try {
      const user = await signUpUser(app);
      const statuses: number[] = [];
      // Three customers behind one proxy; the per-address limit is 2 failed logins.
      for (const forwardedFor of [`203.0.${run}.1`, `203.0.${run}.2`, `203.0.${run}.3`]) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: proxyAddress,
          headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
          payload: JSON.stringify({ email: user.email, password: 'wrong-password' }),
        });
        statuses.push(response.statusCode);
      }
      return statuses;
    } finally {
      await app.close();
    }
  }

  it('ignores X-Forwarded-For without TRUST_PROXY: everyone behind the proxy shares its address', async () => {
    expect(await loginFailuresFrom({}, '10.0.0.5')).toEqual([401, 401, 429]);
  });

  it('honours X-Forwarded-For from a proxy listed in TRUST_PROXY, and only from it', async () => {
    expect(await loginFailuresFrom({ TRUST_PROXY: '10.0.0.0/8' }, '10.0.0.6')).toEqual([401, 401, 401]);
    expect(await loginFailuresFrom({ TRUST_PROXY: '192.168.1.1, 127.0.0.1' }, '10.0.0.7')).toEqual([401, 401, 429]);
  });
});

describe('slow clients', () => {
  it('closes a connection whose request does not arrive within the request timeout', async () => {
    const app = await buildApp(contextWith({}), { logger: false, timeouts: { requestMilliseconds: 500, idleConnectionMilliseconds: 5_000 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    const socket = new net.Socket();
    try {
      await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      // Headers promise a body that never comes.
      socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
      const startedAt = Date.now();
      await ended;
      expect(Date.now() - startedAt).toBeLessThan(4_000);
      expect(received).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      socket.destroy();
      await app.close();
    }
  });
});
