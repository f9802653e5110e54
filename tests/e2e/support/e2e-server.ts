// Starts a real SMTP server and the built app on a fresh data directory for the browser tests,
// and stops both (and the embedded PostgreSQL) when Playwright is done.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCashfreeStandIn } from '../../fixtures/cashfree-stand-in.ts';
import { answerIfscRequest } from '../../fixtures/ifsc-api-stand-in.ts';
import { startLocalChain } from '../../fixtures/evm-chain.ts';
import { startTestMailServer } from '../../fixtures/mail-server.ts';
import { appDatabase } from './app-database.ts';
import { ifscEnvironment, IFSC_STAND_IN_PATH, kycEnvironment } from './kyc-stand-in.ts';
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

const database = appDatabase(dataDirectory);

// The PAN check goes to a local Cashfree stand-in, which the extra apps of some specs share. Two routes of its own
// serve the sign-up helpers: POST /_e2e/register-pan { name, pan } registers a PAN under the name, and
// POST /_e2e/contacts-verified { email } marks the customer's contacts verified in this server's database, and
// POST /_e2e/latest-sms { to } answers the newest text message in its SMS outbox for the number ({ text }, or 404), and
// POST /_e2e/provider-fails { status } makes the PAN check answer that HTTP status (null: answer again), so a PAN waits
// for a person without a provider's answer and needs its card's photo (decision 066).
// Under /ifsc it is also the IFSC API's stand-in (decision 067), so the branch a browser test sees never depends on the network.
const cashfree = await startCashfreeStandIn({
  extraRoutes: async (request, body, response) => {
    const url = request.url ?? '';
    if (request.method === 'GET' && url.startsWith(`${IFSC_STAND_IN_PATH}/`)) return answerIfscRequest(url.slice(IFSC_STAND_IN_PATH.length), response);
    if (request.method !== 'POST') return false;
    if (request.url === '/_e2e/register-pan') {
      const { name, pan } = JSON.parse(body) as { name: string; pan: string };
      cashfree.register(pan, { registeredName: name.toUpperCase() });
    } else if (request.url === '/_e2e/contacts-verified') {
      await database.markContactsVerified((JSON.parse(body) as { email: string }).email);
    } else if (request.url === '/_e2e/provider-fails') {
      const { status } = JSON.parse(body) as { status: number | null };
      cashfree.failWith(status ?? undefined);
    } else if (request.url === '/_e2e/latest-sms') {
      const text = await database.latestSms((JSON.parse(body) as { to: string }).to);
      response.writeHead(text === undefined ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ text }));
      return true;
    } else {
      return false;
    }
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
    ...kycEnvironment(cashfree.url),
    ...ifscEnvironment(cashfree.url),
    // The fake camera plays a face that turns left (tests/e2e/support/face-clip.ts): the live selfie asks for that step only.
    KYC_LIVENESS_CHALLENGE: 'turn_left',
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
  await database.close();
  await cashfree.close();
  fs.rmSync(E2E_KYC_INFO_FILE, { force: true });
  fs.rmSync(E2E_CHAIN_INFO_FILE, { force: true });
  fs.rmSync(dataDirectory, { recursive: true, force: true });
  process.exit(exitCode);
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));
server.on('exit', (code) => void stop(code ?? 1));
