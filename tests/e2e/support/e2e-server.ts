// Starts a real SMTP server and the built app on a fresh data directory for the browser tests,
// and stops both (and the embedded PostgreSQL) when Playwright is done.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { CASHFREE_TEST_CLIENT_ID, CASHFREE_TEST_CLIENT_SECRET, startCashfreeStandIn } from '../../fixtures/cashfree-stand-in.ts';
import { startLocalChain } from '../../fixtures/evm-chain.ts';
import { startTestMailServer } from '../../fixtures/mail-server.ts';
import {
  E2E_ADMIN_EMAIL,
  E2E_ADMIN_PASSWORD,
  E2E_BASE_URL,
  E2E_CHAIN_INFO_FILE,
  E2E_DIST_DIRECTORY,
  E2E_ERC20_CONFIRMATIONS,
  E2E_INBOX_PORT,
  E2E_KYC_INFO_FILE,
  E2E_PORT,
} from './constants.ts';

// The browser tests run in other processes: they read the mail through the inbox on the fixed port.
const mail = await startTestMailServer({ inboxPort: E2E_INBOX_PORT });

// A real local Ethereum chain with a 6-decimal USDT, so ERC20 deposits are verified on chain as in production.
const chain = await startLocalChain();
const usdtContract = await chain.deployToken();
fs.writeFileSync(E2E_CHAIN_INFO_FILE, JSON.stringify({ rpcUrl: chain.rpcUrl, usdtContract }));

const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-e2e-'));

/**
 * The app's own embedded PostgreSQL, for the one thing the sign-up helpers cannot do through the app in this
 * branch: mark a customer's e-mail and mobile verified (their link and OTP flows have their own tests).
 */
let appDatabase: pg.Pool | undefined;
function appDatabasePool(): pg.Pool {
  if (appDatabase) return appDatabase;
  const secrets = JSON.parse(fs.readFileSync(path.join(dataDirectory, 'secrets.json'), 'utf8')) as { postgresPassword: string };
  const port = Number(fs.readFileSync(path.join(dataDirectory, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  appDatabase = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', password: secrets.postgresPassword, database: 'rupeedesk', max: 2 });
  return appDatabase;
}

// The PAN check goes to a local Cashfree stand-in; POST /_e2e/level-one { email, name, pan } registers the PAN under
// the name and marks the customer's contacts verified, after which the helper submits the PAN through the app.
const cashfree = await startCashfreeStandIn({
  extraRoutes: async (request, body, response) => {
    if (request.method !== 'POST' || request.url !== '/_e2e/level-one') return false;
    const { email, name, pan } = JSON.parse(body) as { email: string; name: string; pan: string };
    cashfree.register(pan, { registeredName: name.toUpperCase() });
    const database = appDatabasePool();
    await database.query('update users set email_verified_at = now() where lower(email) = lower($1)', [email]);
    await database.query('update profiles set phone_verified_at = now() where user_id = (select id from users where lower(email) = lower($1))', [email]);
    response.writeHead(204).end();
    return true;
  },
});
fs.writeFileSync(E2E_KYC_INFO_FILE, JSON.stringify({ url: cashfree.url }));
const server = spawn(process.execPath, [path.join(E2E_DIST_DIRECTORY, 'server', 'main.js')], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(E2E_PORT),
    APP_ORIGIN: E2E_BASE_URL,
    DATA_DIR: dataDirectory,
    SMTP_URL: mail.smtpUrl,
    ADMIN_EMAIL: E2E_ADMIN_EMAIL,
    ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    // Every browser test comes from 127.0.0.1, like many customers behind one carrier address.
    RATE_LIMIT_SCALE: '50',
    // The browser tests add bank accounts and withdraw at once; the cooling-off has its own integration tests.
    SECURITY_COOLING_OFF_HOURS: '0',
    ETHEREUM_RPC_URL: chain.rpcUrl,
    USDT_ERC20_CONTRACT: usdtContract,
    CHAIN_DEV_CONFIRMATIONS: String(E2E_ERC20_CONFIRMATIONS),
    CHAIN_POLL_SECONDS: '1',
    KYC_PROVIDER: 'cashfree',
    KYC_API_URL: cashfree.url,
    KYC_CLIENT_ID: CASHFREE_TEST_CLIENT_ID,
    KYC_CLIENT_SECRET: CASHFREE_TEST_CLIENT_SECRET,
  },
});

let stopping = false;
async function stop(exitCode: number) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  await mail.close();
  await chain.close();
  await appDatabase?.end();
  await cashfree.close();
  fs.rmSync(E2E_KYC_INFO_FILE, { force: true });
  fs.rmSync(E2E_CHAIN_INFO_FILE, { force: true });
  fs.rmSync(dataDirectory, { recursive: true, force: true });
  process.exit(exitCode);
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
server.on('exit', (code) => void stop(code ?? 1));
