import { defineConfig } from 'vitest/config';
import { catalogParts } from './vite.config.ts';

export default defineConfig({
  test: {
    projects: [
      {
        // Unit tests of web modules import the translation catalogs' parts as the build does (decision 046).
        plugins: [catalogParts()],
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          setupFiles: ['tests/unit/setup-i18n.ts'],
          environment: 'node',
          // A bound against a hang, not a measure of speed: drawing a statement or decoding a QR image
          // takes well under a second on a quiet machine and several on a loaded shared one.
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          // Reads the production build: scripts/test.mjs runs it after the build step.
          name: 'bundle',
          include: ['tests/bundle/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/fixtures/global-database.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Two cores: more parallel files only queue up for argon2 and PostgreSQL.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // Real server processes (the production build) on a shared PostgreSQL, killed and stopped: `npm run test:faults`.
          name: 'faults',
          include: ['tests/faults/**/*.test.ts'],
          environment: 'node',
          testTimeout: 240_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
