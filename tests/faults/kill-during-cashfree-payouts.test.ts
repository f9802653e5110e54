import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/server/db/embedded.ts';
import { startCashfreePayoutsStandIn, type CashfreePayoutsStandIn, type StandInTransfer, type TransferMoment } from '../fixtures/cashfree-payouts-stand-in.ts';
import {
  api,
  runLedgerCheck,
  setUpFundedCustomer,
  signInAdmin,
  startServer,
  startSharedPostgres,
  type FaultCustomer,
  type ServerProcess,
  type SharedPostgres,
} from './support.ts';

/**
 * Two app processes on one PostgreSQL pay approved withdrawals through the Cashfree Payouts V2 stand-in (decision 062)
 * while one of them is killed with SIGKILL in the middle of a transfer request: before Cashfree made the transfer, and
 * after it made it but before its answer reached us. Cashfree refuses a transfer_id twice, so a second transfer cannot
 * happen there; what must not happen here is a withdrawal refunded while its transfer was made, or one left open.
 */

const MOMENTS: TransferMoment[] = ['before-create', 'after-create'];
const INTERCEPT_WAIT_MILLISECONDS = 20_000;
const SETTLE_WAIT_MILLISECONDS = 90_000;
const NAMES = ['server-a', 'server-b'] as const;

let postgres: SharedPostgres;
let standIn: CashfreePayoutsStandIn;
const servers: ServerProcess[] = [];

async function startNamed(index: 0 | 1, port: number): Promise<ServerProcess> {
  const name = NAMES[index];
  return startServer(postgres, port, name, {
    PAYOUT_PROVIDER: 'cashfree',
    // The path names the calling process to the stand-in, so a request in flight can be traced to the process to kill.
    CASHFREE_PAYOUTS_API_URL: `${standIn.url}/caller/${name}`,
    CASHFREE_PAYOUTS_CLIENT_ID: standIn.config.clientId,
    CASHFREE_PAYOUTS_CLIENT_SECRET: standIn.config.clientSecret,
    PAYOUT_POLL_SECONDS: '1',
  });
}

beforeAll(async () => {
  standIn = await startCashfreePayoutsStandIn();
  postgres = await startSharedPostgres();
  servers.push(await startNamed(0, await findFreePort()));
  servers.push(await startNamed(1, await findFreePort()));
}, 120_000);

afterAll(async () => {
  standIn.interceptCreate = undefined;
  for (const server of servers) server.child.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.exited));
  await postgres?.close();
  await standIn?.close();
});

let utrSequence = 0;
function freshUtr(): string {
  utrSequence += 1;
  return `8${String(Date.now() % 1e6).padStart(6, '0')}${String(utrSequence).padStart(5, '0')}`;
}

/** The bank's side: every transfer made succeeds with a UTR a moment later, or fails. */
function answerLikeTheBank(outcomes: Map<string, 'SUCCESS' | 'FAILED'>, timers: Set<NodeJS.Timeout>): void {
  standIn.onTransferMade = (transfer: StandInTransfer) => {
    const outcome = Math.random() < 0.75 ? 'SUCCESS' : 'FAILED';
    outcomes.set(transfer.cf_transfer_id, outcome);
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        void standIn.changeStatus(transfer.cf_transfer_id, outcome, outcome === 'SUCCESS' ? { utr: freshUtr() } : { description: 'Beneficiary bank offline' });
      },
      300 + Math.floor(Math.random() * 1_200),
    );
    timers.add(timer);
  };
}

describe('two servers paying through Cashfree, SIGKILL while a transfer is being requested', () => {
  it('refunds no withdrawal whose transfer was made, leaves none open, and keeps the ledger balanced', async () => {
    const stable = servers[0] as ServerProcess;
    const adminCookie = await signInAdmin(stable.baseUrl);
    const customers: FaultCustomer[] = [];
    for (let index = 0; index < 2; index += 1) customers.push(await setUpFundedCustomer(stable.baseUrl, postgres, adminCookie, 300 + index));
    const anyServer = () => (servers[Math.floor(Math.random() * servers.length)] as ServerProcess).baseUrl;

    // Webhooks go to either process; one sent to the process being killed is lost, and polling must make up for it.
    standIn.deliverWebhooksTo(async (body, headers) => {
      try {
        return (await fetch(`${anyServer()}/api/webhooks/cashfree`, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) })).status;
      } catch {
        return 0;
      }
    });
    const outcomes = new Map<string, 'SUCCESS' | 'FAILED'>();
    const bankTimers = new Set<NodeJS.Timeout>();
    answerLikeTheBank(outcomes, bankTimers);

    let armed: { moment: TransferMoment; fired: () => void } | undefined;
    const killedAt: TransferMoment[] = [];
    standIn.interceptCreate = async (moment, caller) => {
      const target = armed;
      if (target === undefined || caller !== 'server-b' || moment !== target.moment) return;
      armed = undefined;
      const victim = servers[1] as ServerProcess;
      victim.child.kill('SIGKILL');
      await victim.exited;
      await new Promise((resolve) => setTimeout(resolve, 300));
      killedAt.push(moment);
      target.fired();
    };

    let running = true;
    const approved = new Set<string>();
    async function workload(): Promise<void> {
      for (let round = 0; running; round += 1) {
        const customer = customers[round % customers.length] as FaultCustomer;
        const created = await api(anyServer(), 'POST', '/api/withdrawals', {
          cookie: customer.cookie,
          headers: { 'idempotency-key': randomUUID() },
          body: { amount: `1.${String(round % 100).padStart(2, '0')}`, bankAccountId: customer.bankAccountId, pin: customer.pin },
        });
        if (created.status === 201) {
          const id = (created.body.withdrawal as { id: string }).id;
          const answer = await api(stable.baseUrl, 'POST', `/api/admin/withdrawals/${id}/approve`, {
            cookie: adminCookie,
            headers: { 'idempotency-key': randomUUID() },
            body: {},
          });
          if (answer.status === 200) approved.add(id);
        }
        await new Promise((resolve) => setTimeout(resolve, 400));
      }
    }

    async function killer(): Promise<void> {
      for (const moment of MOMENTS) {
        const fired = await new Promise<boolean>((resolve) => {
          const timeout = setTimeout(() => {
            armed = undefined;
            resolve(false);
          }, INTERCEPT_WAIT_MILLISECONDS);
          armed = {
            moment,
            fired: () => {
              clearTimeout(timeout);
              resolve(true);
            },
          };
        });
        if (fired) servers[1] = await startNamed(1, (servers[1] as ServerProcess).port);
      }
    }

    const load = workload();
    await killer();
    running = false;
    await load;
    expect(killedAt).toEqual(MOMENTS);

    // A process killed mid-request leaves its claim leased for 120 seconds (worker.ts): moved to now, as if it had passed.
    const deadline = Date.now() + SETTLE_WAIT_MILLISECONDS;
    for (;;) {
      await postgres.handle.pool.query(`update provider_payouts set next_attempt_at = now() where next_attempt_at > now() and settled_at is null`);
      const open = await postgres.handle.pool.query<{ open: string }>(
        `select count(*) as open from withdrawal_requests w where w.payout_route = 'cashfree' and (w.status = 'processing'
           or exists (select 1 from provider_payouts p where p.withdrawal_id = w.id and p.settled_at is null))`,
      );
      if (Number(open.rows[0]?.open) === 0 && bankTimers.size === 0) break;
      if (Date.now() > deadline) throw new Error(`payouts still open after the workload: ${open.rows[0]?.open}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    expect(approved.size).toBeGreaterThan(3);
    const routed = await postgres.handle.pool.query<{ id: string; reference: string; status: string; payout_reference: string | null }>(
      `select id, reference, status, payout_reference from withdrawal_requests where payout_route = 'cashfree'`,
    );
    const routedIds = new Set(routed.rows.map((row) => row.id));
    for (const id of approved) expect(routedIds.has(id), id).toBe(true);
    for (const withdrawal of routed.rows) {
      const made = standIn.transfers.filter((transfer) => transfer.transfer_id === withdrawal.reference);
      expect(made, withdrawal.reference).toHaveLength(1);
      const transfer = made[0] as StandInTransfer;
      if (outcomes.get(transfer.cf_transfer_id) === 'SUCCESS')
        expect(withdrawal, withdrawal.reference).toMatchObject({ status: 'approved', payout_reference: transfer.transfer_utr });
      else expect(withdrawal, withdrawal.reference).toMatchObject({ status: 'rejected', payout_reference: null });
    }

    const ledgerCheck = runLedgerCheck(postgres);
    expect(ledgerCheck.status, `${ledgerCheck.stdout}\n${ledgerCheck.stderr}`).toBe(0);
  }, 300_000);
});
