// The bare baselines the app is measured against, in one small process on an OS-chosen port:
// Fastify alone, Fastify + `pg` doing one and two selects on the app's own database, the same
// rows as two of the app's list pages (as rows, and as PostgreSQL's JSON text), and an argon2id verify with the app's parameters. It prints its port on standard output.
// Usage (from bench/run.ts): DATABASE_URL=... BASELINE_USER_ID=... node --import tsx bench/baseline-server.ts
import { verify } from '@node-rs/argon2';
import Fastify, { type FastifyReply } from 'fastify';
import pg from 'pg';
import { hashSecret } from '../src/server/features/auth/passwords.ts';

const connectionString = process.env.DATABASE_URL;
const userId = process.env.BASELINE_USER_ID;
if (!connectionString || !userId) throw new Error('DATABASE_URL and BASELINE_USER_ID must be set');

// The same pool size as the app's (src/server/db/client.ts).
const pool = new pg.Pool({ connectionString, max: 20 });
const pins = ['2468', '1357', '8642', '9753', '1122', '3344', '5566', '7788'];
const pinHashes = await Promise.all(pins.map((pin) => hashSecret(pin)));
let nextPin = 0;

const app = Fastify({ logger: false });

app.get('/bare', async () => ({ status: 'ok' }));

app.get('/select1', async () => {
  const user = await pool.query('select id, email, created_at from users where id = $1', [userId]);
  return { user: user.rows[0] };
});

app.get('/select2', async () => {
  const user = await pool.query('select id, email, created_at from users where id = $1', [userId]);
  const account = await pool.query('select balance_usdt_micros::text as balance from ledger_accounts where user_id = $1', [userId]);
  return { user: user.rows[0], balance: account.rows[0]?.balance };
});

// The rows of the app's two list pages measured here, fetched the plainest way: the same primary-key
// read as /select2 in the place of the session lookup, then one select of the page's rows (the same
// 21 rows the app reads), answered as JSON without any mapping or check. Both are named prepared
// statements, as the app sends its own: unnamed, PostgreSQL parses and plans each again (in round
// 10 the history's rows measured 0.418 of /select2 so, and 0.462-0.495 named in later runs). Beside
// these, the app's list answers show what its own work costs on top of the data.
const sessionRead = { name: 'baseline_session_read', text: 'select id, email, created_at from users where id = $1' };
const historyRows = {
  name: 'baseline_history_rows',
  text: 'select * from usdt_deposits where user_id = $1 order by created_at desc, id desc limit 21',
};
const withdrawalQueueRows = {
  name: 'baseline_withdrawal_queue_rows',
  text: `select w.*, u.email, p.name, p.phone from withdrawal_requests w join users u on u.id = w.user_id join profiles p on p.user_id = w.user_id
     where w.status = 'pending' order by w.created_at desc, w.id desc limit 21`,
};
app.get('/history-rows', async () => {
  await pool.query({ ...sessionRead, values: [userId] });
  const page = await pool.query({ ...historyRows, values: [userId] });
  return { items: page.rows };
});
app.get('/withdrawal-queue-rows', async () => {
  await pool.query({ ...sessionRead, values: [userId] });
  const page = await pool.query({ ...withdrawalQueueRows, values: [] });
  return { items: page.rows };
});

// The same rows again, made into JSON text by PostgreSQL and sent as they come: the driver reads one
// text value instead of 21 rows, and the server neither parses nor writes JSON. No server that reads
// these rows for each request answers much faster than this, so it shows how close to two one-row
// selects a page of 21 rows can come on this machine at all.
const asJsonText = (statement: { name: string; text: string }) => ({
  name: `${statement.name}_json`,
  text: `select coalesce(json_agg(page), '[]')::text as items from (${statement.text}) page`,
});
const historyJson = asJsonText(historyRows);
const withdrawalQueueJson = asJsonText(withdrawalQueueRows);
async function sendJsonPage(reply: FastifyReply, statement: { name: string; text: string }, values: unknown[]): Promise<FastifyReply> {
  await pool.query({ ...sessionRead, values: [userId] });
  const page = await pool.query<{ items: string }>({ ...statement, values });
  return reply.type('application/json; charset=utf-8').send(`{"items":${page.rows[0]?.items}}`);
}
app.get('/history-json', async (_request, reply) => sendJsonPage(reply, historyJson, [userId]));
app.get('/withdrawal-queue-json', async (_request, reply) => sendJsonPage(reply, withdrawalQueueJson, []));

// As the app's withdrawal checks the PIN of one of several customers, so does this.
app.post('/argon2', async () => {
  const index = nextPin % pins.length;
  nextPin += 1;
  const matches = await verify(pinHashes[index] as string, pins[index] as string);
  return { matches };
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${new URL(address).port}\n`);

const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
