// Starting and stopping the servers the bench measures: the built app and the baseline server.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export interface RunningServer {
  origin: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** A port the OS just handed out on 127.0.0.1 (the app needs it up front, to know its own origin). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
}

async function waitForHealth(origin: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the server at ${origin} exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server at ${origin} did not become healthy`);
}

/** The production build of the app, on its own database and data folder. */
export async function startApp(options: {
  buildDirectory: string;
  databaseUrl: string;
  dataDirectory: string;
  adminEmail: string;
  adminPassword: string;
}): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(options.buildDirectory, 'server', 'main.js')], {
    // The app's log (stdout) is shown only when BENCH_APP_LOG_LEVEL asks for one.
    stdio: ['ignore', process.env.BENCH_APP_LOG_LEVEL === undefined ? 'ignore' : 'inherit', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_ORIGIN: origin,
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: options.dataDirectory,
      ADMIN_EMAIL: options.adminEmail,
      ADMIN_PASSWORD: options.adminPassword,
      LOG_LEVEL: process.env.BENCH_APP_LOG_LEVEL ?? 'error',
      // All load comes from one address.
      RATE_LIMIT_SCALE: '1000',
      // The seeded customers withdraw to bank accounts added a moment earlier, which the security pause would refuse.
      SECURITY_COOLING_OFF_HOURS: '0',
    },
  });
  const server = { origin, process: child, stop: stopper(child) };
  try {
    await waitForHealth(origin, child);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** bench/baseline-server.ts in its own process; it prints the port it got. */
export async function startBaseline(options: { databaseUrl: string; userId: string }): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('bench', 'baseline-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: options.databaseUrl, BASELINE_USER_ID: options.userId },
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^(\d+)\n/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the baseline server exited with code ${code}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, process: child, stop: stopper(child) };
}
