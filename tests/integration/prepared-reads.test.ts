import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '#shared/limits';
import type { Database } from '../../src/server/db/client.ts';
import { preparedStatement, queryPrepared, queryPreparedIn } from '../../src/server/db/prepared.ts';
import * as depositRepository from '../../src/server/features/deposits/repository.ts';
import { HISTORY_PARTS, HISTORY_PARTS_READ, listHistory, type HistoryParts } from '../../src/server/features/transactions/repository.ts';
import { findLiveSession, type SessionJoinedRead } from '../../src/server/platform/sessions/repository.ts';
import * as transferRepository from '../../src/server/features/transfers/repository.ts';
import * as withdrawalRepository from '../../src/server/features/withdrawals/repository.ts';
import { PLANNED_LIMITS } from '../../src/server/platform/pagination/keyset-statements.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, signUpVerifiedUser } from '../fixtures/test-app.ts';
import { addBankAccount, decide, expectStatus, requestTransfer, requestWithdrawal, signUpFundedCustomer, submitDeposit } from '../fixtures/wallet.ts';

// The hottest lists read through prepared statements with hand-written SQL instead of Drizzle's
// query builder (docs/decisions/014). These tests hold the two to the same rows and answers, for
// every column type, with every nullable column filled.
const { harness, admin } = useIntegrationFile();

describe('prepared list reads answer what the query builder answered', () => {
  it('gives the admin queues the rows Drizzle gives for the same requests, every column included', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '500');
    const recipient = await signUpVerifiedUser(harness.app);
    const bankAccountId = await addBankAccount(harness, customer);
    const withdrawal = await requestWithdrawal(harness, customer, { amount: '20', bankAccountId });
    expectStatus(withdrawal, 201);
    const withdrawalId = withdrawal.json<{ withdrawal: { id: string } }>().withdrawal.id;
    expectStatus(await decide(harness, admin, 'withdrawals', withdrawalId, 'approve', { payoutReference: '123456789012' }), 200);
    const transfer = await requestTransfer(harness, customer, { recipientEmail: recipient.email, amount: '5' });
    expectStatus(transfer, 201);
    const transferId = transfer.json<{ transfer: { id: string } }>().transfer.id;
    expectStatus(await decide(harness, admin, 'transfers', transferId, 'reject', { reason: 'Looks wrong' }), 200);
    const depositId = await submitDeposit(harness, customer, '15');
    await fillChainFacts(depositId);

    const db = harness.database.handle.db;
    const firstPage = { status: undefined, cursor: undefined, limit: 50 };
    const withdrawals = await withdrawalRepository.listWithUsers(db, firstPage);
    expect(withdrawals.find((row) => row.withdrawal.id === withdrawalId)).toEqual(await withdrawalRepository.findWithUser(db, withdrawalId));
    const deposits = await depositRepository.listWithUsers(db, { ...firstPage, status: 'pending' });
    expect(deposits).toHaveLength(1);
    const [settings] = (await db.execute<{ rate: bigint }>(sql`select rate_normal_inr_paise as rate from admin_settings`)).rows;
    expect(deposits[0]).toEqual({ ...(await depositRepository.findWithUser(db, depositId)), rateNormalInrPaise: settings?.rate });
    const transfers = await transferRepository.listWithParties(db, { ...firstPage, status: 'rejected' });
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toEqual(await transferRepository.findWithParties(db, transferId));
  });

  it('shows a deposit in the history with the same times and chain facts as its own page', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '50');
    const depositId = await submitDeposit(harness, customer, '12');
    await fillChainFacts(depositId);
    const history = await call(harness.app, { url: '/api/transactions?type=deposit&status=pending', cookie: customer.cookie });
    expectStatus(history, 200);
    const detail = await call(harness.app, { url: `/api/deposits/${depositId}`, cookie: customer.cookie });
    expectStatus(detail, 200);
    const item = history.json<{ items: { id: string; createdAt: string; chain: unknown }[] }>().items.find((candidate) => candidate.id === depositId);
    const deposit = detail.json<{ deposit: { createdAt: string; chain: unknown } }>().deposit;
    expect(item?.createdAt).toBe(deposit.createdAt);
    expect(item?.chain).toEqual(deposit.chain);
    expect(item?.chain).toMatchObject({ blockNumber: '9007199254740993', amountUsdt: '12.345678', checkedAt: '2026-11-20T10:11:12.345Z', delayed: true });
  });
});

describe('prepared statements answer rows keyed by their column names', () => {
  it('takes any column name as a key, never as code, and lets a later column of the same name win', async () => {
    const db = harness.database.handle.db;
    const oddName = 'a"b\\c}; throw new Error("ran"); ({\nd';
    const statement = preparedStatement<Record<string, unknown>>(
      'test_odd_column_names',
      `select $1::text as "${oddName.replace(/"/g, '""')}", 1 as twice, 2 as twice, null::bigint as nothing, 'x' as "constructor"`,
    );
    const rows = await queryPrepared(db, statement, ['value']);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(Object.keys(row ?? {})).toEqual([oddName, 'twice', 'nothing', 'constructor']);
    expect(row?.[oddName]).toBe('value');
    expect(row?.twice).toBe(2);
    expect(row?.nothing).toBeNull();
    expect(row?.constructor).toBe('x');
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    // The same statement in a transaction answers the same row, from the same written function.
    const inTransaction = await db.transaction(async (transaction) => queryPreparedIn(transaction, statement, ['value']));
    expect(inTransaction).toEqual(rows);
  });

  it('refuses a column named __proto__, which a written object literal would take as its prototype', async () => {
    const statement = preparedStatement<Record<string, unknown>>('test_proto_column', `select '{}'::json as "__proto__"`);
    await expect(queryPrepared(harness.database.handle.db, statement, [])).rejects.toThrow('statement test_proto_column has a column named __proto__');
  });
});

describe('prepared statements stay few on every connection', () => {
  it('plans the history once per planned page size, however many page sizes a caller steps through', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '500');
    // One connection of the app's pool, held for the whole walk: PostgreSQL keeps prepared statements per connection.
    const connection = await harness.database.handle.db.$client.connect();
    try {
      const onOneConnection = { $client: connection } as unknown as Database;
      for (let limit = 1; limit <= LIMITS.pageSizeMax; limit += 1) {
        const rows = await listHistory(onOneConnection, {
          userId: customer.id,
          type: undefined,
          status: undefined,
          parts: undefined,
          cursor: undefined,
          limit,
        });
        expect(rows).toHaveLength(1);
      }
      // This walk's reads only (every part, no status, first page): the pooled connection may already hold the
      // statements of earlier requests, with other parts, a status or a cursor, and the session lookup's history_parts.
      const walkKey = `history_${HISTORY_PARTS.map((_, index) => index).join('')}_any_first_`;
      const prepared = await connection.query<{ name: string }>(`select name from pg_prepared_statements where starts_with(name, $1) order by name`, [walkKey]);
      expect(prepared.rows).toHaveLength(PLANNED_LIMITS.length);
    } finally {
      connection.release();
    }
  });
});

describe('the history reads only the parts that have entries', () => {
  const none: HistoryParts = { deposits: false, withdrawals: false, transfersSent: false, transfersReceived: false, referralBonuses: false };
  const limits = { idleTimeoutSeconds: 1800, absoluteTimeoutSeconds: 86_400 };

  async function latestTokenHash(userId: string): Promise<Buffer> {
    const [row] = (
      await harness.database.handle.db.execute<{ token_hash: Buffer }>(
        sql`select token_hash from sessions where user_id = ${userId} order by created_at desc limit 1`,
      )
    ).rows;
    if (!row) throw new Error('the user has no session');
    return row.token_hash;
  }

  it('finds in the session lookup which parts of a customer’s history have entries', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const recipient = await signUpVerifiedUser(harness.app);
    expectStatus(await requestTransfer(harness, customer, { recipientEmail: recipient.email, amount: '5' }), 201);
    const db = harness.database.handle.db;
    const session = await findLiveSession(db, await latestTokenHash(customer.id), limits, HISTORY_PARTS_READ);
    expect(session?.joined?.value).toEqual({ ...none, deposits: true, transfersSent: true });
    const recipientSession = await findLiveSession(db, await latestTokenHash(recipient.id), limits, HISTORY_PARTS_READ);
    expect(recipientSession?.joined?.value).toEqual({ ...none, transfersReceived: true });
  });

  it('leaves the parts without entries out of the statement, and runs none when no part has any', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const connection = await harness.database.handle.db.$client.connect();
    try {
      const onOneConnection = { $client: connection } as unknown as Database;
      const read = (parts: HistoryParts) =>
        listHistory(onOneConnection, { userId: customer.id, type: undefined, status: 'approved', parts, cursor: undefined, limit: 7 });
      // The customer has a deposit: an empty answer means that no statement read it.
      expect(await read(none)).toEqual([]);
      expect((await read({ ...none, deposits: true })).map((row) => row.type)).toEqual(['deposit']);
      const prepared = await connection.query<{ statement: string }>(`select statement from pg_prepared_statements where name = 'history_0_status_first_11'`);
      const [only] = prepared.rows;
      expect(only?.statement).toContain('usdt_deposits');
      // As whole words: a deposit's column chain_transfers_to_address names no table.
      for (const table of ['withdrawal_requests', 'transfers', 'referral_rewards']) expect(only?.statement).not.toMatch(new RegExp(`\\b${table}\\b`));
    } finally {
      connection.release();
    }
  });

  it('never lets a joined read take the place of a session column', async () => {
    const shadowing: SessionJoinedRead<unknown> = { name: 'test_shadowing', columns: `'admin' as "role"`, joins: '', valueOf: () => undefined };
    await expect(findLiveSession(harness.database.handle.db, Buffer.alloc(32), limits, shadowing)).rejects.toThrow(
      'the test_shadowing read selects a session column',
    );
    // A name the check does not see (unquoted) still comes before the session's own columns, which win.
    const customer = await signUpVerifiedUser(harness.app);
    const unquoted: SessionJoinedRead<unknown> = { name: 'test_unquoted', columns: `'admin' as role, 'x' as userId`, joins: '', valueOf: (row) => row.role };
    const session = await findLiveSession(harness.database.handle.db, await latestTokenHash(customer.id), limits, unquoted);
    expect(session).toMatchObject({ userId: customer.id, role: 'user' });
    expect(session?.joined?.value).toBe('user');
  });
});

/** Sets every chain column of the deposit, with a block number beyond a JavaScript number's exact range and a time with microseconds. */
async function fillChainFacts(depositId: string): Promise<void> {
  await harness.database.handle.db.execute(sql`
    update usdt_deposits set
      chain_state = 'mismatch', chain_problem = 'wrong_recipient', chain_amount_usdt_micros = 12345678,
      chain_from_address = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL', chain_to_address = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      chain_confirmations = 3, chain_required_confirmations = 19, chain_block_number = 9007199254740993, chain_log_index = 7,
      chain_checked_at = '2026-11-20T10:11:12.345678Z', chain_delayed = true,
      created_at = '2026-11-20T09:00:00.123999Z'
    where id = ${depositId}`);
}
