// A second, short-lived app process for the few browser tests that need settings the shared
// e2e server cannot have (the security cooling-off, say). It runs the same build on its own
// data directory and embedded PostgreSQL, and is stopped by the spec that started it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appDatabase } from './app-database.ts';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_DIST_DIRECTORY } from './constants.ts';
import { ifscEnvironment, kycEnvironment, kycStandInUrl } from './kyc-stand-in.ts';

export interface ExtraApp {
  baseUrl: string;
  /** `npm run admin -- promote <email>` on this app's server: the way to a second admin when there is one. */
  promote(email: string): Promise<void>;
  /** `npm run admin -- demote <email>`: the server's way to take the admin role away at once. */
  demote(email: string): Promise<void>;
  /** Marks a customer's e-mail and mobile verified in this app's database (see reachKycLevelOneAs). */
  markContactsVerified(email: string): Promise<void>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;

export async function startExtraApp(options: { port: number; env: Record<string, string> }): Promise<ExtraApp> {
  const baseUrl = `http://localhost:${options.port}`;
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-e2e-extra-'));
  const environment = {
    ...process.env,
    PORT: String(options.port),
    APP_ORIGIN: baseUrl,
    DATA_DIR: dataDirectory,
    ADMIN_EMAIL: E2E_ADMIN_EMAIL,
    ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_SCALE: '50',
    ...kycEnvironment(kycStandInUrl()),
    ...ifscEnvironment(kycStandInUrl()),
    ...options.env,
  };
  const server = spawn(process.execPath, [path.join(E2E_DIST_DIRECTORY, 'server', 'main.js')], { stdio: ['ignore', 'inherit', 'inherit'], env: environment });
  const database = appDatabase(dataDirectory);
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const stop = async () => {
    await database.close();
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDirectory, { recursive: true, force: true });
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`The extra app on port ${options.port} exited with code ${server.exitCode} while starting`);
    }
    const healthy = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) {
      return {
        baseUrl,
        promote: (email) => runAdminCommand(environment, 'promote', email),
        demote: (email) => runAdminCommand(environment, 'demote', email),
        markContactsVerified: (email) => database.markContactsVerified(email),
        stop,
      };
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The extra app on port ${options.port} did not answer /api/health within ${START_TIMEOUT_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function runAdminCommand(environment: NodeJS.ProcessEnv, action: 'promote' | 'demote', email: string): Promise<void> {
  const command = spawn(process.execPath, [path.join(E2E_DIST_DIRECTORY, 'server', 'cli', 'admin.js'), action, email], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: environment,
  });
  let output = '';
  command.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  command.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => command.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run admin -- ${action} ${email} exited with ${code}: ${output}`);
}
