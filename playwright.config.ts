import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, E2E_BASE_URL } from './tests/e2e/support/constants.ts';

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    viewport: { width: 390, height: 844 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_EXECUTABLE,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: 'npx tsx tests/e2e/support/e2e-server.ts',
    url: `${E2E_BASE_URL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
