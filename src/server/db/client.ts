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

export function connectDatabase(connectionString: string, options: { maxConnections?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 20,
    idleTimeoutMillis: 30_000,
    // A request that cannot get a connection in this time answers 503 (see database-errors.ts).
    connectionTimeoutMillis: 5_000,
  });
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
