import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

// BIGINT (int8) columns come back as bigint, never as a lossy JavaScript number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => BigInt(value));

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A database handle that may be inside a transaction; repositories take this. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseHandle {
  pool: pg.Pool;
  db: Database;
  close(): Promise<void>;
}

export interface ConnectOptions {
  maxConnections?: number;
  /** Requests that may wait for a connection once all are in use; beyond them a request fails at once (503). */
  maxWaiting?: number;
  /** How long a waiting request waits for a connection before it fails (503). */
  connectionTimeoutMilliseconds?: number;
}

/** Waiting requests allowed per pooled connection: a queue a few transactions deep drains quickly; a longer one only waits to fail. */
export const WAITING_REQUESTS_PER_CONNECTION = 4;
const DEFAULT_MAX_CONNECTIONS = 20;
/** Long enough for a short queue behind slow transactions under load (2 s failed the ledger race test on a busy machine). */
const DEFAULT_CONNECTION_TIMEOUT_MILLISECONDS = 5_000;

/**
 * Settings every connection of the app starts with, sent in its start-up message (no round trip).
 * The data is on SSDs or in memory, where reading a page out of order costs about what reading the
 * next one does. With PostgreSQL's default (4) the plans every customer shares read all of a
 * customer's deposits and sort them, rather than walk the index for the page (decision 030).
 */
const CONNECTION_SETTINGS = '-c random_page_cost=1.1';

/**
 * The operator's own settings come after the app's, so theirs win: the URL's `options` parameter,
 * else PGOPTIONS, as libpq reads them. node-postgres would let the URL's parameter replace the app's
 * settings, so it is taken out of the URL and appended here.
 */
function withStartupOptions(connectionString: string): { connectionString: string; options: string } {
  const url = URL.canParse(connectionString) ? new URL(connectionString) : undefined;
  const fromUrl = url?.searchParams.get('options') ?? undefined;
  let withoutOptions = connectionString;
  if (url !== undefined && fromUrl !== undefined) {
    url.searchParams.delete('options');
    withoutOptions = url.toString();
  }
  const operatorOptions = (fromUrl ?? process.env.PGOPTIONS ?? '').trim();
  return {
    connectionString: withoutOptions,
    options: operatorOptions === '' ? CONNECTION_SETTINGS : `${CONNECTION_SETTINGS} ${operatorOptions}`,
  };
}

/** Its message is one that database-errors.ts counts as "the database is unavailable", so the answer is 503 with Retry-After. */
export class DatabasePoolBusyError extends Error {
  constructor() {
    super('The database pool is busy');
    this.name = 'DatabasePoolBusyError';
  }
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A pool that refuses a connection at once when `maxWaiting` requests already
 * wait for one, instead of queueing it behind them for the whole connection
 * timeout: under overload, requests beyond a short queue fail fast with 503
 * and the ones in the queue still get their turn. Plain queries (pool.query)
 * and transactions (pool.connect) both pass through connect().
 */
class WaitLimitedPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly maxWaiting: number,
  ) {
    super(config);
  }

  private mustRefuse(): boolean {
    return this.idleCount === 0 && this.waitingCount >= this.maxWaiting;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (callback === undefined) return this.mustRefuse() ? Promise.reject(new DatabasePoolBusyError()) : super.connect();
    if (this.mustRefuse()) {
      process.nextTick(() => callback(new DatabasePoolBusyError(), undefined, () => undefined));
      return;
    }
    super.connect(callback);
  }
}

export function connectDatabase(connectionString: string, options: ConnectOptions = {}): DatabaseHandle {
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const pool = new WaitLimitedPool(
    {
      ...withStartupOptions(connectionString),
      max: maxConnections,
      idleTimeoutMillis: 30_000,
      // A request that cannot get a connection in this time answers 503 (see database-errors.ts).
      connectionTimeoutMillis: options.connectionTimeoutMilliseconds ?? DEFAULT_CONNECTION_TIMEOUT_MILLISECONDS,
    },
    options.maxWaiting ?? maxConnections * WAITING_REQUESTS_PER_CONNECTION,
  );
  // A client losing its connection must not crash the process, whether idle in the pool or checked out
  // between two queries of a transaction; the query that needed it fails, and the pool reconnects.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema });
  return {
    pool,
    db,
    close: () => pool.end(),
  };
}
