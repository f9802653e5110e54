import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../src/server/db/client.ts';
import { decideInTransaction } from '../../src/server/platform/decisions/decide.ts';
import { depositDecisions } from '../../src/server/features/deposits/service.ts';
import { transferDecisions } from '../../src/server/features/transfers/service.ts';
import { withdrawalDecisions } from '../../src/server/features/withdrawals/service.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  decide,
  expectLedgerConsistent,
  expectStatus,
  fundWallet,
  ledgerTransferCount,
  requestTransfer,
  requestWithdrawal,
  submitDeposit,
  utrFor,
} from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';

/*
 * Every rule of the admin decision flow, run against every request kind.
 * Each kind makes a pending request of 10 USDT owned by `owner` (and, for a
 * transfer, received by `counterparty`).
 */

const { harness, admin } = useIntegrationFile();

type Path = 'deposits' | 'withdrawals' | 'transfers';

interface KindCase {
  path: Path;
  noun: string;
  answerKey: string;
  /** Approves the request as the system does (an automatic on-chain credit). */
  approveAsSystem(transaction: Executor, id: string): Promise<unknown>;
  table: 'usdt_deposits' | 'withdrawal_requests' | 'transfers';
  messages: { notFound: string; ownRequest: string; approved: string; rejected: string };
  /** A pending request of 10 USDT of `owner`; `counterparty` receives a transfer. */
  makePending(owner: SignedUpUser, counterparty: SignedUpUser): Promise<string>;
  /** What approving moves into the owner's and the counterparty's wallets, and what rejecting gives back. */
  walletChange: { approved: [bigint, bigint]; rejected: [bigint, bigint] };
}

const kinds: KindCase[] = [
  {
    path: 'deposits',
    noun: 'deposit',
    answerKey: 'deposit',
    approveAsSystem: (transaction, id) =>
      decideInTransaction(transaction, depositDecisions, { id, outcome: 'approved', decider: { kind: 'system' }, details: {} }),
    table: 'usdt_deposits',
    messages: {
      notFound: 'Deposit not found',
      ownRequest: 'You cannot approve or reject your own deposit. Another admin must decide it.',
      approved: 'Deposit approved successfully',
      rejected: 'Deposit rejected',
    },
    makePending: (owner) => submitDeposit(harness, owner, '10'),
    walletChange: { approved: [10_000_000n, 0n], rejected: [0n, 0n] },
  },
  {
    path: 'withdrawals',
    noun: 'withdrawal',
    answerKey: 'withdrawal',
    approveAsSystem: (transaction, id) =>
      decideInTransaction(transaction, withdrawalDecisions, { id, outcome: 'approved', decider: { kind: 'system' }, details: {} }),
    table: 'withdrawal_requests',
    messages: {
      notFound: 'Withdrawal not found',
      ownRequest: 'You cannot approve or reject your own withdrawal. Another admin must decide it.',
      approved: 'Withdrawal approved successfully',
      rejected: 'Withdrawal rejected and funds returned to user',
    },
    async makePending(owner) {
      await fundWallet(harness, await fundingAdminFor(owner), owner, '10');
      const response = await requestWithdrawal(harness, owner, { amount: '10', bankAccountId: await addBankAccount(harness, owner) });
      expectStatus(response, 201);
      return response.json<{ withdrawal: { id: string } }>().withdrawal.id;
    },
    walletChange: { approved: [0n, 0n], rejected: [10_000_000n, 0n] },
  },
  {
    path: 'transfers',
    noun: 'transfer',
    answerKey: 'transfer',
    approveAsSystem: (transaction, id) =>
      decideInTransaction(transaction, transferDecisions, { id, outcome: 'approved', decider: { kind: 'system' }, details: {} }),
    table: 'transfers',
    messages: {
      notFound: 'Transfer not found',
      ownRequest: 'You cannot approve or reject a transfer you sent or receive. Another admin must decide it.',
      approved: 'Transfer approved successfully',
      rejected: 'Transfer rejected and funds returned to sender',
    },
    async makePending(owner, counterparty) {
      await fundWallet(harness, await fundingAdminFor(owner), owner, '10');
      const response = await requestTransfer(harness, owner, { recipientEmail: counterparty.email, amount: '10' });
      expectStatus(response, 201);
      return response.json<{ transfer: { id: string } }>().transfer.id;
    },
    walletChange: { approved: [0n, 10_000_000n], rejected: [10_000_000n, 0n] },
  },
];

let otherAdmin: SignedUpUser | undefined;

/** Funding a wallet is a deposit approval, which the owner cannot do for themself when the owner is the admin. */
async function fundingAdminFor(owner: SignedUpUser): Promise<SignedUpUser> {
  if (owner.id !== admin.id) return admin;
  otherAdmin ??= await signUpAdminWithVerifiedPin(harness);
  return otherAdmin;
}

async function customers(): Promise<[SignedUpUser, SignedUpUser]> {
  return [await signUpVerifiedUser(harness.app), await signUpVerifiedUser(harness.app, { fullName: 'Ravi Kumar' })];
}

async function statusOf(table: KindCase['table'], id: string): Promise<{ status: string; decidedBy: string | null; decidedAt: Date | null }> {
  const result = await harness.database.handle.db.execute<{ status: string; decided_by: string | null; decided_at: Date | null }>(
    sql`select status, decided_by_user_id as decided_by, decided_at from ${sql.identifier(table)} where id = ${id}`,
  );
  const row = result.rows[0];
  if (!row) throw new Error(`no ${table} row ${id}`);
  return { status: row.status, decidedBy: row.decided_by, decidedAt: row.decided_at };
}

async function auditRows(targetId: string): Promise<{ action: string; actor: string | null }[]> {
  const result = await harness.database.handle.db.execute<{ action: string; actor: string | null }>(
    sql`select action, actor_user_id as actor from audit_log where target_id = ${targetId} order by id`,
  );
  return result.rows;
}

describe.each(kinds)('deciding a $noun', (testCase) => {
  const { path, noun, answerKey, messages, table } = testCase;
  /** A withdrawal's approve records a payment made by hand and carries its UTR (decision 049); other kinds send no details. */
  const detailsOf = async (id: string, verb: 'approve' | 'reject') =>
    path === 'withdrawals' && verb === 'approve' ? { payoutReference: await utrFor(harness, id) } : {};
  const decideIt = async (who: SignedUpUser, id: string, verb: 'approve' | 'reject') => decide(harness, who, path, id, verb, await detailsOf(id, verb));

  it.each(['approve', 'reject'] as const)('%s: changes the status, moves the money once, writes one audit row', async (verb) => {
    const [owner, counterparty] = await customers();
    const id = await testCase.makePending(owner, counterparty);
    const before = [await balanceMicros(harness, owner.id), await balanceMicros(harness, counterparty.id)];
    const response = await decideIt(admin, id, verb);
    expect(response.statusCode).toBe(200);
    const outcome = verb === 'approve' ? 'approved' : 'rejected';
    expect(response.json()).toMatchObject({ message: messages[outcome], [answerKey]: { id, status: outcome } });
    expect(await statusOf(table, id)).toMatchObject({ status: outcome, decidedBy: admin.id });
    const [ownerChange, counterpartyChange] = testCase.walletChange[outcome];
    expect(await balanceMicros(harness, owner.id)).toBe((before[0] ?? 0n) + ownerChange);
    expect(await balanceMicros(harness, counterparty.id)).toBe((before[1] ?? 0n) + counterpartyChange);
    expect(await auditRows(id)).toEqual([{ action: `${noun}.${verb}`, actor: admin.id }]);
  });

  it.each(['approve', 'reject'] as const)('%s: takes a POST without a body as a decision without details', async (verb) => {
    const [owner, counterparty] = await customers();
    const id = await testCase.makePending(owner, counterparty);
    const response = await call(harness.app, { method: 'POST', url: `/api/admin/${path}/${id}/${verb}`, cookie: admin.cookie });
    if (path === 'withdrawals' && verb === 'approve') {
      // Without a payout provider, an approve without a UTR would mark a withdrawal paid with nothing to show for it (decision 049).
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ payoutReference: 'Enter the UTR of the bank payment to mark this withdrawal paid.' });
      expect(await statusOf(table, id)).toMatchObject({ status: 'pending', decidedBy: null });
      await expectLedgerConsistent(harness);
      return;
    }
    expect(response.statusCode).toBe(200);
    expect(await statusOf(table, id)).toMatchObject({ status: verb === 'approve' ? 'approved' : 'rejected' });
    await expectLedgerConsistent(harness);
  });

  it('refuses a second decision with 409 ALREADY_DECIDED and moves nothing', async () => {
    const [owner, counterparty] = await customers();
    const id = await testCase.makePending(owner, counterparty);
    expectStatus(await decideIt(admin, id, 'approve'), 200);
    const ledgerBefore = await ledgerTransferCount(harness);
    for (const verb of ['approve', 'reject'] as const) {
      const again = await decideIt(admin, id, verb);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toEqual({ code: 'ALREADY_DECIDED', message: `This ${noun} has already been approved.` });
    }
    expect(await ledgerTransferCount(harness)).toBe(ledgerBefore);
    expect(await auditRows(id)).toHaveLength(1);
  });

  it('lets exactly one of an approval and a rejection racing each other win', async () => {
    const secondAdmin = await signUpAdminWithVerifiedPin(harness);
    for (let round = 0; round < 3; round += 1) {
      const [owner, counterparty] = await customers();
      const id = await testCase.makePending(owner, counterparty);
      const [approval, rejection] = await Promise.all([decideIt(admin, id, 'approve'), decide(harness, secondAdmin, path, id, 'reject')]);
      expect([approval.statusCode, rejection.statusCode].sort()).toEqual([200, 409]);
      const winner = approval.statusCode === 200 ? 'approved' : 'rejected';
      const loser = approval.statusCode === 200 ? rejection : approval;
      expect(loser.json().error).toEqual({ code: 'ALREADY_DECIDED', message: `This ${noun} has already been ${winner}.` });
      expect((await statusOf(table, id)).status).toBe(winner);
      expect(await auditRows(id)).toHaveLength(1);
      await expectLedgerConsistent(harness);
    }
  });

  it('refuses an admin deciding their own request (four eyes) with 403 and changes nothing', async () => {
    const [customer] = await customers();
    const owned = [await testCase.makePending(admin, customer)];
    // A transfer an admin receives is theirs too.
    if (path === 'transfers') owned.push(await testCase.makePending(customer, admin));
    for (const id of owned) {
      const ledgerBefore = await ledgerTransferCount(harness);
      for (const verb of ['approve', 'reject'] as const) {
        const response = await decideIt(admin, id, verb);
        expect(response.statusCode).toBe(403);
        expect(response.json().error).toEqual({ code: 'FORBIDDEN', message: messages.ownRequest });
      }
      expect((await statusOf(table, id)).status).toBe('pending');
      expect(await ledgerTransferCount(harness)).toBe(ledgerBefore);
      expect(await auditRows(id)).toEqual([]);
      // Another admin may decide it.
      expectStatus(await decide(harness, await fundingAdminFor(admin), path, id, 'reject'), 200);
    }
  });

  it('refuses an admin whose role was removed after their session started, and changes nothing', async () => {
    const demoted = await signUpAdminWithVerifiedPin(harness);
    const [owner, counterparty] = await customers();
    const id = await testCase.makePending(owner, counterparty);
    await harness.database.handle.db.execute(sql`update profiles set role = 'user' where user_id = ${demoted.id}`);
    const ledgerBefore = await ledgerTransferCount(harness);
    const response = await decideIt(demoted, id, 'approve');
    expect(response.statusCode).toBe(403);
    expect((await statusOf(table, id)).status).toBe('pending');
    expect(await ledgerTransferCount(harness)).toBe(ledgerBefore);
    expect(await auditRows(id)).toEqual([]);
  });

  it('refuses an admin demoted while the decision is in flight: the role is re-read under lock inside the transaction', async () => {
    const demoted = await signUpAdminWithVerifiedPin(harness);
    const [owner, counterparty] = await customers();
    const id = await testCase.makePending(owner, counterparty);
    const ledgerBefore = await ledgerTransferCount(harness);
    const { pool } = harness.database.handle;
    const demotion = await pool.connect();
    try {
      // The demotion holds the admin's profile row; the request's session lookup still sees the committed admin role.
      await demotion.query('begin');
      await demotion.query(`update profiles set role = 'user' where user_id = $1`, [demoted.id]);
      const pending = decideIt(demoted, id, 'approve');
      await waitForALockWait();
      await demotion.query('commit');
      const response = await pending;
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({ code: 'FORBIDDEN', message: 'Access denied' });
    } finally {
      demotion.release();
    }
    expect((await statusOf(table, id)).status).toBe('pending');
    expect(await ledgerTransferCount(harness)).toBe(ledgerBefore);
    expect(await auditRows(id)).toEqual([]);
  });

  it('answers 404 with the kind’s text for an unknown id', async () => {
    for (const verb of ['approve', 'reject'] as const) {
      const response = await decide(harness, admin, path, randomUUID(), verb);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({ code: 'NOT_FOUND', message: messages.notFound });
    }
  });

  it('replays the first answer to a retry with the same Idempotency-Key instead of 409, and moves the money once', async () => {
    const [owner, counterparty] = await customers();
    const id = await testCase.makePending(owner, counterparty);
    const key = randomUUID();
    const body = await detailsOf(id, 'approve');
    const first = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/${path}/${id}/approve`,
      cookie: admin.cookie,
      body,
      headers: { 'idempotency-key': key },
    });
    expect(first.statusCode).toBe(200);
    const ledgerAfterFirst = await ledgerTransferCount(harness);
    const retry = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/${path}/${id}/approve`,
      cookie: admin.cookie,
      body,
      headers: { 'idempotency-key': key },
    });
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await ledgerTransferCount(harness)).toBe(ledgerAfterFirst);
    expect(await auditRows(id)).toHaveLength(1);

    // The same key for another decision is refused; a retry without the key meets the 409.
    const otherUse = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/${path}/${id}/reject`,
      cookie: admin.cookie,
      body: {},
      headers: { 'idempotency-key': key },
    });
    expect(otherUse.statusCode).toBe(422);
    expect(otherUse.json().error.code).toBe('IDEMPOTENCY_MISMATCH');
    expect((await decideIt(admin, id, 'approve')).statusCode).toBe(409);
    expect((await statusOf(table, id)).status).toBe('approved');
  });

  it('lets the system decide (decided_by and the audit actor are empty)', async () => {
    const [owner, counterparty] = await customers();
    const id = await testCase.makePending(owner, counterparty);
    const { db } = harness.database.handle;
    await db.transaction((transaction) => testCase.approveAsSystem(transaction, id));
    const decided = await statusOf(table, id);
    expect(decided).toMatchObject({ status: 'approved', decidedBy: null });
    expect(decided.decidedAt).not.toBeNull();
    expect(await auditRows(id)).toEqual([{ action: `${noun}.approve`, actor: null }]);
  });
});

/** Waits until some statement of this database waits for a row lock. */
async function waitForALockWait(): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const result = await harness.database.handle.db.execute<{ waiting: number }>(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if ((result.rows[0]?.waiting ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no statement started waiting for the lock');
}
