import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  queryOne,
  runLedgerCheck,
  setUpFundedCustomer,
  signInAdmin,
  startServer,
  startSharedPostgres,
  type FaultCustomer,
  type ServerProcess,
  type SharedPostgres,
} from './support.ts';
import { findFreePort } from '../../src/server/db/embedded.ts';

/**
 * Two app processes on one PostgreSQL; customers and an admin work against
 * both while one of them is killed with SIGKILL again and again. Whatever was
 * acknowledged must be in the database, and the ledger must balance.
 */

const CUSTOMERS = 4;
const KILLS = 3;
const WORKLOAD_MILLISECONDS = 24_000;

interface Acknowledged {
  table: 'usdt_deposits' | 'withdrawal_requests' | 'transfers';
  id: string;
  amountUsdtMicros: bigint;
}

interface Decided {
  table: Acknowledged['table'];
  id: string;
  status: 'approved' | 'rejected';
}

let postgres: SharedPostgres;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  postgres = await startSharedPostgres();
  const [first, second] = [await findFreePort(), await findFreePort()];
  servers.push(await startServer(postgres, first, 'server-a'));
  servers.push(await startServer(postgres, second, 'server-b'));
}, 120_000);

afterAll(async () => {
  for (const server of servers) server.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.exited));
  await postgres?.close();
});

function micros(amount: string): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

describe('two servers, one database, SIGKILL during a money workload', () => {
  it('keeps every acknowledged answer and a balanced ledger', async () => {
    const stable = servers[0] as ServerProcess;
    const adminCookie = await signInAdmin(stable.baseUrl);
    const customers: FaultCustomer[] = [];
    for (let index = 0; index < CUSTOMERS; index += 1) customers.push(await setUpFundedCustomer(stable.baseUrl, postgres, adminCookie, index));

    const acknowledged: Acknowledged[] = [];
    const decided: Decided[] = [];
    const undecided: Acknowledged[] = [];
    const statuses = new Map<number, number>();
    let running = true;
    const anyServer = () => (servers[Math.floor(Math.random() * servers.length)] as ServerProcess).baseUrl;
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

    async function customerLoop(customer: FaultCustomer, index: number): Promise<void> {
      while (running) {
        const choice = Math.random();
        const amount = `${1 + Math.floor(Math.random() * 5)}.${Math.floor(Math.random() * 100)
          .toString()
          .padStart(2, '0')}`;
        const headers = { 'idempotency-key': randomUUID() };
        let answer;
        let table: Acknowledged['table'];
        if (choice < 0.4) {
          table = 'withdrawal_requests';
          answer = await api(anyServer(), 'POST', '/api/withdrawals', {
            cookie: customer.cookie,
            headers,
            body: { amount, bankAccountId: customer.bankAccountId, pin: customer.pin },
          });
        } else if (choice < 0.75) {
          table = 'transfers';
          const recipient = customers[(index + 1) % customers.length] as FaultCustomer;
          answer = await api(anyServer(), 'POST', '/api/transfers', {
            cookie: customer.cookie,
            headers,
            body: { recipientEmail: recipient.email, amount, pin: customer.pin },
          });
        } else {
          table = 'usdt_deposits';
          answer = await api(anyServer(), 'POST', '/api/deposits', {
            cookie: customer.cookie,
            headers,
            body: { network: 'TRC20', amount, transactionHash: randomBytes(32).toString('hex') },
          });
        }
        count(answer.status);
        if (answer.status === 201) {
          const key = table === 'usdt_deposits' ? 'deposit' : table === 'transfers' ? 'transfer' : 'withdrawal';
          const entry = { table, id: (answer.body[key] as { id: string }).id, amountUsdtMicros: micros(amount) };
          acknowledged.push(entry);
          undecided.push(entry);
        }
      }
    }

    async function adminLoop(): Promise<void> {
      while (running) {
        const next = undecided.shift();
        if (!next) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        const path = next.table === 'usdt_deposits' ? 'deposits' : next.table === 'transfers' ? 'transfers' : 'withdrawals';
        const verb = Math.random() < 0.7 ? 'approve' : 'reject';
        // A withdrawal paid by hand needs its UTR (decision 049): these small ones go by IMPS/UPI, a 12-digit RRN.
        const utr = `9${Array.from(randomBytes(11), (byte) => String(byte % 10)).join('')}`;
        const body = verb === 'reject' ? { reason: 'Fault test rejection' } : path === 'withdrawals' ? { payoutReference: utr } : {};
        const answer = await api(anyServer(), 'POST', `/api/admin/${path}/${next.id}/${verb}`, {
          cookie: adminCookie,
          headers: { 'idempotency-key': randomUUID() },
          body,
        });
        count(answer.status);
        if (answer.status === 200) decided.push({ table: next.table, id: next.id, status: verb === 'approve' ? 'approved' : 'rejected' });
        else if (answer.status === 0 || answer.status === 503) undecided.push(next);
      }
    }

    async function killerLoop(): Promise<void> {
      for (let kill = 0; kill < KILLS; kill += 1) {
        await new Promise((resolve) => setTimeout(resolve, WORKLOAD_MILLISECONDS / (KILLS + 1)));
        const victim = servers[1] as ServerProcess;
        victim.child.kill('SIGKILL');
        await victim.exited;
        servers[1] = await startServer(postgres, victim.port, 'server-b');
      }
    }

    const killer = killerLoop();
    const workers = [...customers.map((customer, index) => customerLoop(customer, index)), adminLoop()];
    await killer;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    running = false;
    await Promise.all(workers);

    // Server errors are never an acceptable answer; refused connections to the killed process are expected.
    expect(
      [...statuses.keys()].filter((status) => status >= 500 && status !== 503),
      JSON.stringify([...statuses]),
    ).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(20);
    expect(decided.length).toBeGreaterThan(5);

    for (const entry of acknowledged) {
      const row = await queryOne<{ amount_usdt_micros: bigint }>(postgres.handle, `select amount_usdt_micros from ${entry.table} where id = $1`, [entry.id]);
      expect(row?.amount_usdt_micros, `${entry.table} ${entry.id}`).toBe(entry.amountUsdtMicros);
    }
    for (const entry of decided) {
      const row = await queryOne<{ status: string }>(postgres.handle, `select status from ${entry.table} where id = $1`, [entry.id]);
      expect(row?.status, `${entry.table} ${entry.id}`).toBe(entry.status);
    }

    const ledgerCheck = runLedgerCheck(postgres);
    expect(ledgerCheck.status, `${ledgerCheck.stdout}\n${ledgerCheck.stderr}`).toBe(0);
  }, 240_000);
});
