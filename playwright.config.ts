import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, E2E_BASE_URL, E2E_WORKERS, e2eServerPorts } from './tests/e2e/support/constants.ts';

// One e2e server per worker (decision 070): a spec file runs whole on one worker, in order, against that worker's own
// server, database, mail inbox and chain, so specs that change global settings (rates, limits, TDS, the payout file's
// layout, the operator's identity) never race those of another worker.
const servers = Array.from({ length: E2E_WORKERS }, (_, index) => e2eServerPorts(index));

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    // Evaluated in each worker, where E2E_BASE_URL is that worker's server.
    baseURL: E2E_BASE_URL,
    viewport: { width: 390, height: 844 },
    // The trace of a failed test keeps its actions, DOM snapshots and network, but not the screencast: recording
    // screenshots of every frame cost about a third of the browser's CPU time (decision 070).
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      executablePath: CHROMIUM_EXECUTABLE,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: servers.map(({ port, inboxPort }) => ({
    command: 'npx tsx tests/e2e/support/e2e-server.ts',
    url: `http://localhost:${port}/api/health`,
    env: { E2E_PORT: String(port), E2E_INBOX_PORT: String(inboxPort) },
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
  })),
});
