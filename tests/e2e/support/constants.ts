/** The first e2e server's app and inbox ports (overridable so that several runs can coexist). */
export const E2E_FIRST_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_FIRST_INBOX_PORT = Number(process.env.E2E_INBOX_PORT ?? 3199);

/**
 * Every Playwright worker has an e2e server of its own (playwright.config.ts, decision 070), so that a spec that
 * changes global settings never races another. Worker n's app listens this many ports after the first one's; a spec's
 * extra apps take the ports just above their worker's app (E2E_PORT + 1 to + 9).
 */
export const E2E_PORTS_PER_SERVER = 10;

/** How many workers, and so e2e servers, a run has: E2E_WORKERS, else 2 (the two cores of the CI machine). */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 2);

/** Which e2e server this process talks to: its worker's (Playwright sets TEST_PARALLEL_INDEX in each worker), else the first. */
const serverIndex = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
// More workers than servers (`--workers 3` with the default E2E_WORKERS) would send a worker to a port nobody serves.
if (serverIndex >= E2E_WORKERS) {
  throw new Error(`Playwright worker ${serverIndex + 1} has no e2e server: set E2E_WORKERS instead of --workers (it starts one server per worker).`);
}

export function e2eServerPorts(index: number): { port: number; inboxPort: number } {
  return { port: E2E_FIRST_PORT + index * E2E_PORTS_PER_SERVER, inboxPort: E2E_FIRST_INBOX_PORT + index };
}

/** Where the browser tests find the app and the test mail server's inbox. */
export const E2E_PORT = e2eServerPorts(serverIndex).port;
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const E2E_INBOX_PORT = e2eServerPorts(serverIndex).inboxPort;
export const E2E_ADMIN_EMAIL = 'admin@e2e.example.com';
export const E2E_ADMIN_PASSWORD = 'admin-password-e2e';
/** The build to test: `dist` unless E2E_DIST_DIR names another output of scripts/build-into.mjs. */
export const E2E_DIST_DIRECTORY = process.env.E2E_DIST_DIR ?? 'dist';

/** Where the e2e server writes the local Ethereum chain's JSON-RPC URL and USDT contract, for the on-chain deposit test. */
export const E2E_CHAIN_INFO_FILE = `${process.env.TMPDIR ?? '/tmp'}/rupeedesk-e2e-chain-${E2E_PORT}.json`;
export const E2E_ERC20_CONFIRMATIONS = 2;

/** Where the e2e server writes the URL of its Cashfree stand-in, which also marks customers' contacts verified for the sign-up helpers (decision 042). */
export const E2E_KYC_INFO_FILE = `${process.env.TMPDIR ?? '/tmp'}/rupeedesk-e2e-kyc-${E2E_PORT}.json`;

/** Chromium as every browser test launches it; a spec that needs more flags (the fake camera) adds to these. */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
