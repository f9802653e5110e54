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
  /** Whether the request went over a keep-alive connection opened before it. */
  reusedSocket: boolean;
}

function get(agent: http.Agent | false, port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body, reusedSocket: request.reusedSocket }));
    });
    request.on('error', reject);
  });
}

/** A raw connection that sent only part of a request's headers; `received` resolves with all it got when the server closes it. */
async function partialRequest(port: number, path: string): Promise<{ socket: net.Socket; received: Promise<string> }> {
  const socket = new net.Socket();
  await new Promise<void>((resolve) => socket.connect(port, '127.0.0.1', resolve));
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  socket.on('error', () => undefined);
  const received = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
  return { socket, received };
}

describe('shutting down', () => {
  it('turns /api/ready to 503 at once, keeps answering during the drain, refuses late requests in the error shape with Retry-After and stops despite idle and stalled clients', async () => {
    const lifecycle = new ServerLifecycle();
    const app = await buildApp(contextWith({}), { logger: false, lifecycle });
    // A request that is still being answered when the shutdown begins; the test says when it ends.
    let finishSlowRequest: () => void = () => undefined;
    const slowRequestMayFinish = new Promise<void>((resolve) => (finishSlowRequest = resolve));
    let slowRequestStarted: () => void = () => undefined;
    const slowRequestRunning = new Promise<void>((resolve) => (slowRequestStarted = resolve));
    app.get('/slow-for-test', async () => {
      slowRequestStarted();
      await slowRequestMayFinish;
      return { finished: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as net.AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets: net.Socket[] = [];
    try {
      const before = await get(agent, port, '/api/ready');
      expect(before.status).toBe(200);
      expect(JSON.parse(before.body)).toEqual({ status: 'ready' });
      expect(before.headers.connection).toBe('keep-alive');
      // A client that keeps its connection open and idle, one that finishes its request only after the drain, and one that never does.
      expect((await get(idleAgent, port, '/api/ready')).status).toBe(200);
      const late = await partialRequest(port, '/api/health');
      const stalled = await partialRequest(port, '/api/ready');
      sockets.push(late.socket, stalled.socket);

      const inFlight = get(agent, port, '/slow-for-test');
      await slowRequestRunning;
      const closed = drainAndClose(app, lifecycle, { drainMilliseconds: 120_000, graceMilliseconds: 1_000 });
      const during = await get(agent, port, '/api/ready');
      expect(during.status).toBe(503);
      expect(during.headers.connection).toBe('close');

      // During the drain the server still answers: on a keep-alive connection opened before the signal, and on a new one.
      const onIdleConnection = await get(idleAgent, port, '/api/health');
      expect(onIdleConnection.reusedSocket).toBe(true);
      expect(onIdleConnection.status).toBe(200);
      expect(onIdleConnection.headers.connection).toBe('close');
      const onNewConnection = await get(false, port, '/api/health');
      expect(onNewConnection.status).toBe(200);
      expect(onNewConnection.headers.connection).toBe('close');

      finishSlowRequest();
      const finished = await inFlight;
      expect(finished.status).toBe(200);
      expect(JSON.parse(finished.body)).toEqual({ finished: true });
      expect(finished.headers.connection).toBe('close');

      // The drain ends (here early, as a second signal ends it); a request completed afterwards on an open connection is refused in the app's shape.
      lifecycle.endDrain();
      await lifecycle.whenClosing();
      late.socket.write('\r\n');
      const refused = await late.received;
      const [head = '', body = ''] = refused.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 503/);
      expect(head).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(head).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(body)).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE', message: 'This server is shutting down. Please try again.' } });

      // The stalled client is cut at the end of the grace period instead of holding the process.
      await closed;
      expect(await stalled.received).toBe('');
    } finally {
      for (const socket of sockets) socket.destroy();
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
      socket.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${TEST_ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
      );
      await ended;
      expect(received).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      socket.destroy();
      await app.close();
    }
  });
});
