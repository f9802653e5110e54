import { connectDatabase, type DatabaseHandle } from './db/client.ts';
import { startEmbeddedDatabase, withDatabaseName, type EmbeddedDatabase } from './db/embedded.ts';
import { runMigrations } from './db/migrate.ts';
import type { AppConfig } from './env.ts';

export const EMBEDDED_DATABASE_NAME = 'rupeedesk';

export interface DatabaseRuntime {
  database: DatabaseHandle;
  connectionString: string;
  shutdown(): Promise<void>;
}

/**
 * Connects to DATABASE_URL, or to the embedded server in DATA_DIR (starting it
 * when nobody runs it), and brings the schema up to date.
 */
export async function openDatabase(config: AppConfig, purpose: 'server' | 'tool', log: (message: string) => void): Promise<DatabaseRuntime> {
  let embedded: EmbeddedDatabase | undefined;
  let connectionString = config.databaseUrl;
  if (!connectionString) {
    embedded = await startEmbeddedDatabase({ dataDirectory: config.dataDirectory, purpose, log });
    await createDatabaseIfMissing(embedded.serverUrl, EMBEDDED_DATABASE_NAME);
    connectionString = withDatabaseName(embedded.serverUrl, EMBEDDED_DATABASE_NAME);
  }
  const database = connectDatabase(connectionString);
  try {
    await runMigrations(database.db);
  } catch (error) {
    await database.close();
    await embedded?.stop();
    throw error;
  }
  return {
    database,
    connectionString,
    shutdown: async () => {
      await database.close();
      await embedded?.stop();
    },
  };
}

export async function createDatabaseIfMissing(serverUrl: string, name: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const existing = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (existing.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}
