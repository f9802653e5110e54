// The embedded PostgreSQL of an app the browser tests started, for the one thing the sign-up helpers cannot do
// through the app: mark a customer's e-mail and mobile verified (their link and OTP flows have their own tests), and
// read the SMS outbox, the phone of a server without an SMS provider, for the mobile code's own test.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface AppDatabase {
  markContactsVerified(email: string): Promise<void>;
  /** The newest text message the app stored in its SMS outbox for this number (no SMS_PROVIDER is set), if any. */
  latestSms(toNumber: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Opens the database lazily: the app writes its password and port only once it has started. */
export function appDatabase(dataDirectory: string): AppDatabase {
  let pool: pg.Pool | undefined;
  const open = (): pg.Pool => {
    if (pool) return pool;
    const secrets = JSON.parse(fs.readFileSync(path.join(dataDirectory, 'secrets.json'), 'utf8')) as { postgresPassword: string };
    const port = Number(fs.readFileSync(path.join(dataDirectory, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
    pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', password: secrets.postgresPassword, database: 'rupeedesk', max: 2 });
    // The embedded PostgreSQL stops with its app, which may be before this pool is closed: an idle
    // connection's "terminating connection" then is expected, not a crash of the test server.
    pool.on('error', () => undefined);
    return pool;
  };
  return {
    async markContactsVerified(email) {
      const database = open();
      await database.query('update users set email_verified_at = now() where lower(email) = lower($1)', [email]);
      await database.query('update profiles set phone_verified_at = now() where user_id = (select id from users where lower(email) = lower($1))', [email]);
    },
    async latestSms(toNumber) {
      const result = await open().query<{ body: string }>(
        "select body from sms_outbox where to_number = $1 and provider = 'outbox' order by created_at desc limit 1",
        [toNumber],
      );
      return result.rows[0]?.body;
    },
    async close() {
      await pool?.end();
    },
  };
}
