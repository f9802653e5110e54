import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/server/db/embedded.ts';
import { startRazorpayXStandIn, type CreateMoment, type RazorpayXStandIn, type StandInPayout } from '../fixtures/razorpayx-stand-in.ts';
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
 * Two app processes on one PostgreSQL pay approved withdrawals through the RazorpayX stand-in (decision 043) while
 * one of them is killed with SIGKILL in the middle of sending a payout: while the provider holds the request before
 * making the payout, after it made the payout but before its answer reached us, and right after the answer (before
 * we may have recorded it). Each approved withdrawal must reach the provider as one payout, end in a final state
 * that matches the provider's, and the ledger must balance.
 */

const CUSTOMERS = 3;
const MOMENTS: CreateMoment[] = ['before-create', 'after-create', 'after-answer'];
const KILLS = MOMENTS.length;
/** How long the killer waits for the victim to send a payout before it moves on. */
const INTERCEPT_WAIT_MILLISECONDS = 20_000;
const SETTLE_WAIT_MILLISECONDS = 90_000;

let postgres: SharedPostgres;
let standIn: RazorpayXStandIn;
const servers: ServerProcess[] = [];
const NAMES = ['server-a', 'server-b'] as const;

function providerEnvironment(name: string): NodeJS.ProcessEnv {
  return {
    PAYOUT_PROVIDER: 'razorpayx',
    // The path names the calling process to the stand-in, so a request in flight can be traced to the process to kill.
    RAZORPAYX_API_URL: `${standIn.url}/caller/${name}`,
    RAZORPAYX_KEY_ID: standIn.config.keyId,
    RAZORPAYX_KEY_SECRET: standIn.config.keySecret,
    RAZORPAYX_ACCOUNT_NUMBER: standIn.config.accountNumber,
    RAZORPAYX_WEBHOOK_SECRET: standIn.config.webhookSecret,
    PAYOUT_POLL_SECONDS: '1',
  };
}

async function startNamed(index: 0 | 1, port: number): Promise<ServerProcess> {
  const name = NAMES[index];
  return startServer(postgres, port, name, providerEnvironment(name));
}

beforeAll(async () => {
  standIn = await startRazorpayXStandIn();
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
/** A 12-digit RRN, unique in this run (an IMPS or UPI UTR). */
function freshUtr(): string {
  utrSequence += 1;
  return `7${String(Date.now() % 1e6).padStart(6, '0')}${String(utrSequence).padStart(5, '0')}`;
}

describe('two servers paying through the provider, SIGKILL while a payout is being sent', () => {
  it('pays each approved withdrawal once at the provider, ends each in a final state, and keeps the ledger balanced', async () => {
    const stable = servers[0] as ServerProcess;
    const adminCookie = await signInAdmin(stable.baseUrl);
    const customers: FaultCustomer[] = [];
    for (let index = 0; index < CUSTOMERS; index += 1) customers.push(await setUpFundedCustomer(stable.baseUrl, postgres, adminCookie, 100 + index));

    const anyServer = () => (servers[Math.floor(Math.random() * servers.length)] as ServerProcess).baseUrl;
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

    // Webhooks go to either process; one sent to the process being killed is lost, and polling must make up for it.
    standIn.deliverWebhooksTo(async (body, headers) => {
      try {
        const response = await fetch(`${anyServer()}/api/webhooks/razorpayx`, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) });
        count(response.status);
        return response.status;
      } catch {
        return 0;
      }
    });

    // The bank's side: every payout made is processed with a UTR a moment later, or fails, or is processed and then reversed.
    const bankTimers = new Set<NodeJS.Timeout>();
    const later = (milliseconds: number, step: () => Promise<unknown>) => {
      const timer = setTimeout(() => {
        bankTimers.delete(timer);
        void step();
      }, milliseconds);
      bankTimers.add(timer);
    };
    const outcomes = new Map<string, 'processed' | 'failed' | 'reversed'>();
    standIn.onPayoutMade = (payout: StandInPayout) => {
      const draw = Math.random();
      const outcome = draw < 0.7 ? 'processed' : draw < 0.85 ? 'failed' : 'reversed';
      outcomes.set(payout.id, outcome);
      const delay = 300 + Math.floor(Math.random() * 1_200);
      if (outcome === 'failed')
        later(delay, () =>
          standIn.changeState(payout.id, 'failed', { reason: 'beneficiary_bank_offline', description: 'Beneficiary bank systems are offline' }),
        );
      else
        later(delay, async () => {
          await standIn.changeState(payout.id, 'processed', { utr: freshUtr() });
          if (outcome === 'reversed')
            later(delay, () =>
              standIn.changeState(payout.id, 'reversed', { reason: 'beneficiary_bank_offline', description: 'Beneficiary bank systems are offline' }),
            );
        });
    };

    // The killer arms one moment at a time; the next request of server-b that reaches it is held while server-b dies.
    let armed: { moment: CreateMoment; fired: () => void } | undefined;
    const killedAt: CreateMoment[] = [];
    standIn.interceptCreate = async (moment, caller) => {
      const target = armed;
      if (target === undefined || caller !== 'server-b' || moment !== target.moment) return;
      armed = undefined;
      const victim = servers[1] as ServerProcess;
      victim.child.kill('SIGKILL');
      await victim.exited;
      // The kernel closed the victim's connections; give this process a moment to see its held request's socket close.
      await new Promise((resolve) => setTimeout(resolve, 300));
      killedAt.push(moment);
      target.fired();
    };

    let running = true;
    const approved = new Set<string>();
    const pending: string[] = [];

    async function customerLoop(customer: FaultCustomer): Promise<void> {
      while (running) {
        const amount = `${1 + Math.floor(Math.random() * 4)}.${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;
        const answer = await api(anyServer(), 'POST', '/api/withdrawals', {
          cookie: customer.cookie,
          headers: { 'idempotency-key': randomUUID() },
          body: { amount, bankAccountId: customer.bankAccountId, pin: customer.pin },
        });
        count(answer.status);
        if (answer.status === 201) pending.push((answer.body.withdrawal as { id: string }).id);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    }

    async function adminLoop(): Promise<void> {
      while (running || pending.length > 0) {
        const next = pending.shift();
        if (next === undefined) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        // With the provider configured, an approve without a UTR hands the withdrawal to the provider (decision 043).
        const reject = Math.random() < 0.1;
        const answer = await api(anyServer(), 'POST', `/api/admin/withdrawals/${next}/${reject ? 'reject' : 'approve'}`, {
          cookie: adminCookie,
          headers: { 'idempotency-key': randomUUID() },
          body: reject ? { reason: 'Fault test rejection' } : {},
        });
        count(answer.status);
        if (answer.status === 200 && !reject) approved.add(next);
        else if (answer.status === 0 || answer.status === 503) pending.push(next);
      }
    }

    async function killerLoop(): Promise<void> {
      for (let kill = 0; kill < KILLS; kill += 1) {
        const moment = MOMENTS[kill % MOMENTS.length] as CreateMoment;
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
        if (!fired) continue;
        const victim = servers[1] as ServerProcess;
        servers[1] = await startNamed(1, victim.port);
      }
    }

    const workers = [...customers.map((customer) => customerLoop(customer)), adminLoop()];
    await killerLoop();
    running = false;
    await Promise.all(workers);

    // Every moment was hit at least once.
    expect(new Set(killedAt), JSON.stringify({ killedAt, statuses: [...statuses] })).toEqual(new Set(MOMENTS));

    // Wait for every payout to end. A process killed mid-send leaves its claim leased for 120 seconds (worker.ts) and a
    // payout polled often backs off: both are moved to now here, as if that time had passed, so the test need not sleep it
    // out. A reversal whose webhook went to the killed process is found by the poll of processed payouts (decision 053).
    const deadline = Date.now() + SETTLE_WAIT_MILLISECONDS;
    for (;;) {
      await postgres.handle.pool.query(
        `update provider_payouts set next_attempt_at = now() where next_attempt_at > now() and (settled_at is null or state = 'processed')`,
      );
      const reversedAtBank = standIn.payouts.filter((payout) => payout.status === 'reversed').map((payout) => payout.reference_id ?? '');
      const open = await postgres.handle.pool.query<{ open: string }>(
        `select count(*) as open from withdrawal_requests w
         where w.payout_route = 'razorpayx' and (w.status = 'processing'
           or exists (select 1 from provider_payouts p where p.withdrawal_id = w.id and p.settled_at is null)
           or (w.reference = any($1) and w.status = 'approved' and w.reversed_at is null))`,
        [reversedAtBank],
      );
      const bankBusy = bankTimers.size > 0 || standIn.payouts.some((payout) => payout.status === 'processing');
      if (Number(open.rows[0]?.open) === 0 && !bankBusy) break;
      if (Date.now() > deadline) throw new Error(`payouts still open after the workload: ${open.rows[0]?.open}; bank busy: ${bankBusy}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    expect(
      [...statuses.keys()].filter((status) => status >= 500 && status !== 503),
      JSON.stringify([...statuses]),
    ).toEqual([]);
    expect(approved.size).toBeGreaterThan(10);

    const routed = await postgres.handle.pool.query<{ id: string; reference: string; status: string; payout_reference: string | null; reversed: boolean }>(
      `select id, reference, status, payout_reference, reversed_at is not null as reversed from withdrawal_requests where payout_route = 'razorpayx'`,
    );
    // Every approval acknowledged is on the provider's route; approvals whose answer was lost may be there too.
    const routedIds = new Set(routed.rows.map((row) => row.id));
    for (const id of approved) expect(routedIds.has(id), id).toBe(true);

    for (const withdrawal of routed.rows) {
      const made = standIn.payouts.filter((payout) => payout.reference_id === withdrawal.reference);
      // Paid once at the provider: one payout for the reference, and every request for it carried its one key.
      expect(made, withdrawal.reference).toHaveLength(1);
      const keysUsed = new Set(
        standIn.createRequests.filter((request) => request.body.reference_id === withdrawal.reference).map((request) => request.idempotencyKey),
      );
      expect([...keysUsed], withdrawal.reference).toEqual([withdrawal.id]);
      const payout = made[0] as StandInPayout;
      const outcome = outcomes.get(payout.id);
      const refunded = { status: 'rejected', payout_reference: null, reversed: false };
      const paid = { status: 'approved', payout_reference: payout.utr, reversed: outcome === 'reversed' };
      if (outcome === 'failed') expect(withdrawal, withdrawal.reference).toMatchObject(refunded);
      else if (outcome === 'processed') expect(withdrawal, withdrawal.reference).toMatchObject(paid);
      // A reversal we learn of before its `processed` (that webhook went to the killed process) refunds the withdrawal as
      // a failure does (decision 043); one after it reverses the paid withdrawal. Either way the USDT came back once.
      else expect(withdrawal, withdrawal.reference).toMatchObject(withdrawal.status === 'approved' ? paid : refunded);
    }
    // Nothing was paid that is not one of our provider withdrawals.
    const references = new Set(routed.rows.map((row) => row.reference));
    expect(standIn.payouts.filter((payout) => !references.has(payout.reference_id ?? ''))).toEqual([]);

    const ledgerCheck = runLedgerCheck(postgres);
    expect(ledgerCheck.status, `${ledgerCheck.stdout}\n${ledgerCheck.stderr}`).toBe(0);
  }, 420_000);
});
