import { randomBytes } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jpeg from 'jpeg-js';
import type pg from 'pg';
import { CONSENT_NOTICE_VERSION } from '#shared/contracts/operator-identity';
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

export function serverEnvironment(postgres: SharedPostgres, port: number, name: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
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
    // A new bank account's cooling-off pause would refuse every withdrawal of the workload's fresh customers.
    SECURITY_COOLING_OFF_HOURS: '0',
    // The workload's bank accounts need no branch; the IFSC API is not asked (decision 067).
    IFSC_API_URL: 'off',
    LOG_LEVEL: 'error',
    ...extra,
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

/** An app process of the production build; `extra` adds to its environment (a payout provider's variables). */
export async function startServer(postgres: SharedPostgres, port: number, name: string, extra: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  if (!fs.existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run \`npm run build\` (npm run test:faults does)`);
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: serverEnvironment(postgres, port, name, extra),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
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
/** The photo of the PAN card an admin verifies a PAN from when no provider is configured (decision 066). */
async function addPanCardPhoto(baseUrl: string, cookie: string): Promise<Answer> {
  const data = Buffer.alloc(640 * 400 * 4, 180);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(jpeg.encode({ data, width: 640, height: 400 }, 80).data)], { type: 'image/jpeg' }), 'pan-card.jpg');
  const response = await fetch(`${baseUrl}/api/kyc/pan/card-image`, { method: 'POST', headers: { origin: ORIGIN, cookie }, body: form });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {}, cookie: undefined };
}

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

/** The bootstrapped admin, signed in with a PIN-verified session (admin writes need one); answers its cookie. */
export async function signInAdmin(baseUrl: string): Promise<string> {
  const login = await api(baseUrl, 'POST', '/api/auth/login', { body: ADMIN });
  if (login.status !== 200 || login.cookie === undefined) throw new Error(`admin login answered ${login.status}`);
  // The bootstrapped admin has no PIN yet, and setting it verifies the session.
  const pin = await api(baseUrl, 'POST', '/api/pin/setup', { cookie: login.cookie, body: { pin: '2468' } });
  if (pin.status !== 200) throw new Error(`admin PIN setup answered ${pin.status}`);
  return login.cookie;
}

export interface FaultCustomer {
  email: string;
  pin: string;
  cookie: string;
  bankAccountId: string;
}

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

/**
 * A customer at KYC level 1 with a bank account (with a UPI id) and `depositUsdt` approved in the wallet. The contacts
 * are marked verified here (their flows have their own tests), the PAN is verified by the admin (no KYC provider runs
 * here) and the tax residence is declared through the API (decision 042).
 */
export async function setUpFundedCustomer(
  baseUrl: string,
  postgres: SharedPostgres,
  adminCookie: string,
  index: number,
  depositUsdt = '500',
): Promise<FaultCustomer> {
  const email = `faults-${index}-${randomBytes(4).toString('hex')}@example.com`;
  const signup = expectStatus(
    await api(baseUrl, 'POST', '/api/auth/signup', {
      body: { fullName: 'Fault Tester', email, phone: '+919876543210', password: 'correct-horse', pin: '2957' },
    }),
    201,
    'signup',
  );
  const cookie = signup.cookie as string;
  expectStatus(await api(baseUrl, 'POST', '/api/pin/verify', { cookie, body: { pin: '2957' } }), 200, 'PIN verify');
  const userId = ((await api(baseUrl, 'GET', '/api/me', { cookie })).body as { id: string }).id;
  await postgres.handle.pool.query('update users set email_verified_at = now() where id = $1', [userId]);
  await postgres.handle.pool.query('update profiles set phone_verified_at = now() where user_id = $1', [userId]);
  expectStatus(await api(baseUrl, 'POST', '/api/kyc/consent', { cookie, body: { noticeVersion: CONSENT_NOTICE_VERSION } }), 200, 'consent');
  const pan = `FLTP${String.fromCharCode(65 + (index % 26))}${String(1000 + index).padStart(4, '0')}K`;
  expectStatus(await api(baseUrl, 'POST', '/api/kyc/pan', { cookie, body: { pan } }), 200, 'PAN');
  expectStatus(await addPanCardPhoto(baseUrl, cookie), 200, 'PAN card photo');
  expectStatus(
    await api(baseUrl, 'POST', `/api/admin/kyc/pan-reviews/${userId}/approve`, { cookie: adminCookie, body: { registeredName: 'Fault Tester' } }),
    200,
    'PAN approval',
  );
  expectStatus(await api(baseUrl, 'POST', '/api/kyc/tax-residence', { cookie, body: { residence: 'india', confirmed: true } }), 200, 'tax residence');
  const bank = expectStatus(
    await api(baseUrl, 'POST', '/api/bank-accounts', {
      cookie,
      body: {
        accountHolderName: 'Fault Tester',
        accountNumber: '123456789012',
        accountNumberConfirmation: '123456789012',
        ifscCode: 'SBIN0001234',
        upiId: 'fault@oksbi',
      },
    }),
    201,
    'bank account',
  );
  const deposit = expectStatus(
    await api(baseUrl, 'POST', '/api/deposits', { cookie, body: { network: 'TRC20', amount: depositUsdt, transactionHash: randomBytes(32).toString('hex') } }),
    201,
    'deposit',
  );
  const depositId = (deposit.body.deposit as { id: string }).id;
  expectStatus(await api(baseUrl, 'POST', `/api/admin/deposits/${depositId}/approve`, { cookie: adminCookie, body: {} }), 200, 'deposit approval');
  return { email, pin: '2957', cookie, bankAccountId: (bank.body.bankAccount as { id: string }).id };
}

/** `npm run ledger:check` against the shared database. */
export function runLedgerCheck(postgres: SharedPostgres): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli/ledger-check.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: postgres.databaseUrl, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
}
