// Benchmarks the production build on a fresh embedded PostgreSQL: builds, starts the server,
// seeds customers and history through the API, then measures the hot endpoints with autocannon.
// Usage: npm run bench [-- --seconds 10 --connections 20]
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const argumentsByName = new Map<string, string>();
for (let index = 2; index < process.argv.length; index += 2) argumentsByName.set(process.argv[index]?.replace(/^--/, '') ?? '', process.argv[index + 1] ?? '');
const seconds = Math.min(Math.max(Number(argumentsByName.get('seconds') ?? 8), 1), 120);
const connections = Math.min(Math.max(Number(argumentsByName.get('connections') ?? 20), 1), 200);

const port = 3900;
const origin = `http://localhost:${port}`;
const workDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-bench-'));
// As root, PostgreSQL runs as the postgres user, who must be able to enter this folder.
fs.chmodSync(workDirectory, 0o755);
// Inside the repository, so that the built server finds its packages in node_modules.
const buildDirectory = path.resolve('.build', 'bench');
const adminEmail = 'bench-admin@example.com';
const adminPassword = 'bench-admin-password';

console.log('Building the production server...');
const build = spawnSync(process.execPath, ['scripts/build-into.mjs', buildDirectory], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const server = spawn(process.execPath, [path.join(buildDirectory, 'server', 'main.js')], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, PORT: String(port), APP_ORIGIN: origin, DATA_DIR: path.join(workDirectory, 'data'), ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: adminPassword, LOG_LEVEL: 'error', RATE_LIMIT_SCALE: '1000' },
});

async function stopServer(): Promise<void> {
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  fs.rmSync(workDirectory, { recursive: true, force: true });
}

async function api(method: string, url: string, body?: unknown, cookie?: string): Promise<{ status: number; json: unknown; cookie: string | undefined }> {
  const response = await fetch(`${origin}${url}`, {
    method,
    headers: { origin, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const setCookie = response.headers.get('set-cookie')?.split(';')[0];
  return { status: response.status, json: await response.json().catch(() => undefined), cookie: setCookie };
}

async function expectOk(result: Promise<{ status: number; json: unknown; cookie: string | undefined }>, what: string) {
  const answer = await result;
  if (answer.status >= 300) throw new Error(`${what} failed: ${answer.status} ${JSON.stringify(answer.json)}`);
  return answer;
}

async function waitForHealth(): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not become healthy');
}

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  cookie?: string;
  body?: () => string;
}

async function measure(scenario: Scenario) {
  const result = await autocannon({
    url: `${origin}${scenario.path}`,
    method: scenario.method,
    connections,
    duration: seconds,
    headers: { origin, ...(scenario.cookie ? { cookie: scenario.cookie } : {}), ...(scenario.body ? { 'content-type': 'application/json' } : {}) },
    ...(scenario.body ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: scenario.body?.() ?? '' }) }] } : {}),
  });
  return {
    scenario: scenario.name,
    'requests/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

try {
  await waitForHealth();
  const customer = await expectOk(
    api('POST', '/api/auth/signup', { fullName: 'Bench Customer', email: `bench-${randomBytes(4).toString('hex')}@example.com`, phone: '+919812345678', password: 'bench-password', pin: '2468' }),
    'sign-up',
  );
  const customerCookie = customer.cookie as string;
  await expectOk(api('POST', '/api/pin/verify', { pin: '2468' }, customerCookie), 'PIN verification');

  const admin = await expectOk(api('POST', '/api/auth/login', { email: adminEmail, password: adminPassword }), 'admin login');
  const adminCookie = admin.cookie as string;
  await expectOk(api('POST', '/api/pin/setup', { pin: '1357' }, adminCookie), 'admin PIN');

  const settings = (await expectOk(api('GET', '/api/admin/settings', undefined, adminCookie), 'settings')) as { json: Record<string, unknown> };
  const { files: _files, updatedAt, updatedBy: _updatedBy, canEdit: _canEdit, ...editable } = settings.json;
  await expectOk(
    api('PUT', '/api/admin/settings', { ...editable, trc20Address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', expectedUpdatedAt: updatedAt }, adminCookie),
    'TRC20 address',
  );
  const bankAccount = (await expectOk(
    api('POST', '/api/bank-accounts', { accountHolderName: 'Bench Customer', accountNumber: '123456789012', bankName: 'State Bank of India', ifscCode: 'SBIN0001234' }, customerCookie),
    'bank account',
  )) as { json: { bankAccount: { id: string } } };
  const bankAccountId = bankAccount.json.bankAccount.id;

  // A history of 200 approved deposits, so that the history query works on real rows.
  console.log('Seeding 200 approved deposits...');
  for (let index = 0; index < 200; index += 1) {
    const deposit = (await expectOk(
      api('POST', '/api/deposits', { network: 'TRC20', amount: '25', transactionHash: randomBytes(32).toString('hex') }, customerCookie),
      'deposit',
    )) as { json: { deposit: { id: string } } };
    await expectOk(api('POST', `/api/admin/deposits/${deposit.json.deposit.id}/approve`, {}, adminCookie), 'approval');
  }

  const scenarios: Scenario[] = [
    { name: 'GET /api/health', method: 'GET', path: '/api/health' },
    { name: 'GET /api/rates (public)', method: 'GET', path: '/api/rates' },
    { name: 'GET /api/me', method: 'GET', path: '/api/me', cookie: customerCookie },
    { name: 'GET /api/wallet/summary', method: 'GET', path: '/api/wallet/summary', cookie: customerCookie },
    { name: 'GET /api/transactions (page of 20 of 200)', method: 'GET', path: '/api/transactions?limit=20', cookie: customerCookie },
    { name: 'GET /api/admin/deposits?status=approved', method: 'GET', path: '/api/admin/deposits?status=approved', cookie: adminCookie },
    { name: 'GET /api/referrals', method: 'GET', path: '/api/referrals', cookie: customerCookie },
    { name: 'GET /api/admin/dashboard', method: 'GET', path: '/api/admin/dashboard', cookie: adminCookie },
    {
      name: 'POST /api/withdrawals (1 USDT, PIN checked)',
      method: 'POST',
      path: '/api/withdrawals',
      cookie: customerCookie,
      body: () => JSON.stringify({ amount: '1', bankAccountId, pin: '2468' }),
    },
  ];
  const rows = [];
  for (const scenario of scenarios) {
    console.log(`Measuring ${scenario.name} for ${seconds} s with ${connections} connections...`);
    rows.push(await measure(scenario));
  }
  console.table(rows);
} finally {
  await stopServer();
}
