import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { startEmbeddedDatabase, withDatabaseName, type EmbeddedDatabase } from '../../src/server/db/embedded.ts';
import { connectDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { runMigrations } from '../../src/server/db/migrate.ts';
import { createDatabaseIfMissing } from '../../src/server/runtime.ts';

/** The fault tests run the production build, as `npm start` does; `npm run test:faults` builds it first. */
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SERVER_ENTRY = path.join(ROOT, 'dist', 'server', 'main.js');
export const ORIGIN = 'http://localhost:3142';
export const ADMIN = { email: 'faults-admin@example.com', password: 'faults-admin-password' };

export interface SharedPostgres {
  databaseUrl: string;
  handle: DatabaseHandle;
  dataDirectory: string;
  close(): Promise<void>;
}

/** One PostgreSQL that several app processes share, as managed PostgreSQL behind N servers. */
export async function startSharedPostgres(): Promise<SharedPostgres> {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-faults-'));
  // As root, PostgreSQL runs as the postgres user, which must be able to enter this folder.
  fs.chmodSync(dataDirectory, 0o755);
  const embedded: EmbeddedDatabase = await startEmbeddedDatabase({
    dataDirectory: path.join(dataDirectory, 'postgres-home'),
    purpose: 'tool',
    log: () => undefined,
  });
  await createDatabaseIfMissing(embedded.serverUrl, 'rupeedesk');
  const databaseUrl = withDatabaseName(embedded.serverUrl, 'rupeedesk');
  const handle = connectDatabase(databaseUrl, { maxConnections: 4 });
  // Migrated once here, so the servers do not race to migrate on their first start.
  await runMigrations(handle.db);
  // Deposit addresses, as an admin would configure them.
  await handle.pool.query(
    "update admin_settings set trc20_address = 'TJYeasTPa6gpEEfYqNWcuJUMUb9qvQJp2u', erc20_address = '0x52908400098527886E0F7030069857D2E4169EE7' where id = 1",
  );
  return {
    databaseUrl,
    handle,
    dataDirectory,
    close: async () => {
      await handle.close();
      await embedded.stop();
      fs.rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

export interface ServerProcess {
  port: number;
  baseUrl: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

export function serverEnvironment(postgres: SharedPostgres, port: number, name: string): NodeJS.ProcessEnv {
  const dataDirectory = path.join(postgres.dataDirectory, name);
  fs.mkdirSync(dataDirectory, { recursive: true });
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: postgres.databaseUrl,
    DATA_DIR: dataDirectory,
    APP_ORIGIN: ORIGIN,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_SCALE: '1000',
    LOG_LEVEL: 'error',
  };
}

export async function waitUntilReady(baseUrl: string, timeoutMilliseconds = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMilliseconds;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/api/ready`)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${baseUrl} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function startServer(postgres: SharedPostgres, port: number, name: string): Promise<ServerProcess> {
  if (!fs.existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\` (npm run test:faults does)`);
  const child = spawn(process.execPath, [SERVER_ENTRY], { cwd: ROOT, env: serverEnvironment(postgres, port, name), stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(baseUrl);
  return { port, baseUrl, child, exited };
}

export interface Answer {
  status: number;
  body: Record<string, unknown> & { error?: { code: string; message: string } };
  cookie: string | undefined;
}

/** One API call as the web app makes it; a refused or cut connection answers status 0. */
export async function api(
  baseUrl: string,
  method: string,
  url: string,
  options: { cookie?: string | undefined; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  try {
    const response = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        origin: ORIGIN,
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    const setCookie = response.headers.get('set-cookie');
    const session = setCookie?.match(/(?:^|,\s*)(session=[^;]+)/)?.[1];
    return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {}, cookie: session };
  } catch {
    return { status: 0, body: {}, cookie: undefined };
  }
}

export async function queryOne<T extends pg.QueryResultRow>(handle: DatabaseHandle, text: string, values: unknown[]): Promise<T | undefined> {
  const result = await handle.pool.query<T>(text, values);
  return result.rows[0];
}
