import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  configureDepositAddresses,
  approveWithdrawalPaid,
  decide,
  expectLedgerConsistent,
  expectStatus,
  fundWallet,
  requestTransfer,
  requestWithdrawal,
  submitDeposit,
} from '../fixtures/wallet.ts';

// The running totals (summary_totals, daily_totals) and the user-search copy (user_search) of migrations
// 0006 and 0011 are kept by triggers; these tests recount from the tables themselves after the app has changed them.

let harness: TestApp;
let admin: SignedUpUser;

beforeAll(async () => {
  harness = await createTestApp();
  await configureDepositAddresses(harness);
  admin = await signUpAdminWithVerifiedPin(harness);
});
afterEach(async () => expectLedgerConsistent(harness));
afterAll(async () => harness.close());

const db = () => harness.database.handle.db;

interface Totals {
  name: string;
  item_count: string;
  amount_usdt_micros: string;
  amount_inr_paise: string;
}

async function runningTotals(): Promise<Totals[]> {
  const result = await db().execute<Totals & Record<string, unknown>>(
    sql`select name, item_count::text, amount_usdt_micros::text, amount_inr_paise::text from summary_totals order by name`,
  );
  return result.rows;
}

/** What was paid and credited per day in India, as daily_totals keeps it and as recounted from the requests. */
async function dailyTotals(): Promise<{ kept: unknown[]; recounted: unknown[] }> {
  const kept = await db().execute(
    sql`select day::text, name, item_count::text, amount_usdt_micros::text, amount_inr_paise::text from daily_totals where item_count > 0 order by day, name`,
  );
  const recounted = await db().execute(sql`
    select * from (
      select (decided_at at time zone 'Asia/Kolkata')::date::text as day, 'deposits_credited' as name, count(*)::text as item_count,
             sum(amount_usdt_micros)::text as amount_usdt_micros, '0' as amount_inr_paise
        from usdt_deposits where status = 'approved' group by 1
      union all
      select (decided_at at time zone 'Asia/Kolkata')::date::text, 'withdrawals_paid', count(*)::text, sum(amount_usdt_micros)::text, sum(amount_inr_paise)::text
        from withdrawal_requests where status = 'approved' group by 1
    ) as recount order by day, name`);
  return { kept: kept.rows, recounted: recounted.rows };
}

async function recountedTotals(): Promise<Totals[]> {
  const result = await db().execute<Totals & Record<string, unknown>>(sql`
    select * from (
      select 'pending_deposits' as name, count(*)::text as item_count, coalesce(sum(amount_usdt_micros), 0)::text as amount_usdt_micros, '0' as amount_inr_paise
        from usdt_deposits where status = 'pending'
      union all
      select 'pending_transfers', count(*)::text, coalesce(sum(amount_usdt_micros), 0)::text, '0' from transfers where status = 'pending'
      union all
      select 'pending_withdrawals', count(*)::text, coalesce(sum(amount_usdt_micros), 0)::text, coalesce(sum(amount_inr_paise), 0)::text
        from withdrawal_requests where status = 'pending'
      union all
      select 'processing_withdrawals', count(*)::text, coalesce(sum(amount_usdt_micros), 0)::text, coalesce(sum(amount_inr_paise), 0)::text
        from withdrawal_requests where status = 'processing'
      union all
      select 'customer_balances', '0', coalesce(sum(balance_usdt_micros), 0)::text, '0' from ledger_accounts where user_id is not null
      union all
      select 'users', count(*)::text, '0', '0' from users
    ) as recount order by name`);
  return result.rows;
}

describe('running totals of the admin dashboard', () => {
  it('match a recount after concurrent requests, approvals and rejections by several customers', async () => {
    const customers = await Promise.all([1, 2, 3].map((index) => signUpVerifiedUser(harness.app, { fullName: `Totals Customer ${index}` })));
    for (const customer of customers) await fundWallet(harness, admin, customer, '100');
    const bankAccounts = await Promise.all(customers.map((customer) => addBankAccount(harness, customer)));

    // Everything at once: deposits, withdrawals and transfers from every customer.
    const depositIds = await Promise.all(customers.flatMap((customer) => ['15', '22.25'].map((amount) => submitDeposit(harness, customer, amount))));
    const withdrawals = await Promise.all(
      customers.map((customer, index) => requestWithdrawal(harness, customer, { amount: '10', bankAccountId: bankAccounts[index] as string })),
    );
    const transfers = await Promise.all(
      customers.map((customer, index) =>
        requestTransfer(harness, customer, { recipientEmail: (customers[(index + 1) % customers.length] as SignedUpUser).email, amount: '4' }),
      ),
    );
    for (const response of [...withdrawals, ...transfers]) expectStatus(response, 201);
    expect(await runningTotals()).toEqual(await recountedTotals());

    // Decisions take requests out of the pending totals, approved or rejected, also concurrently.
    const withdrawalIds = withdrawals.map((response) => response.json<{ withdrawal: { id: string } }>().withdrawal.id);
    const transferIds = transfers.map((response) => response.json<{ transfer: { id: string } }>().transfer.id);
    const decisions = await Promise.all([
      decide(harness, admin, 'deposits', depositIds[0] as string, 'approve'),
      decide(harness, admin, 'deposits', depositIds[1] as string, 'reject', { reason: 'Not received' }),
      approveWithdrawalPaid(harness, admin, withdrawalIds[0] as string),
      decide(harness, admin, 'withdrawals', withdrawalIds[1] as string, 'reject', { reason: 'Bank refused' }),
      decide(harness, admin, 'transfers', transferIds[0] as string, 'approve'),
      decide(harness, admin, 'transfers', transferIds[1] as string, 'reject', { reason: 'Suspicious' }),
    ]);
    for (const response of decisions) expectStatus(response, 200);
    const totals = await runningTotals();
    expect(totals).toEqual(await recountedTotals());
    const daily = await dailyTotals();
    expect(daily.kept).toEqual(daily.recounted);
    expect(totals.find((row) => row.name === 'pending_withdrawals')).toEqual({
      name: 'pending_withdrawals',
      item_count: '1',
      amount_usdt_micros: '10000000',
      amount_inr_paise: String(10n * 8300n),
    });

    // The dashboard shows the totals, and the customers' balances as the sum of every wallet.
    const dashboard = await call(harness.app, { url: '/api/admin/dashboard', cookie: admin.cookie });
    expect(dashboard.statusCode).toBe(200);
    const wallets = await db().execute<{ total: string }>(
      sql`select sum(balance_usdt_micros)::text as total from ledger_accounts where kind = 'customer_wallet'`,
    );
    expect(dashboard.json()).toMatchObject({
      pendingDeposits: { count: 4 },
      pendingWithdrawals: { count: 1, totalUsdt: '10.000000' },
      pendingTransfers: { count: 1, totalUsdt: '4.000000' },
      customerBalancesUsdt: (Number(wallets.rows[0]?.total) / 1e6).toFixed(6),
      userCount: 4,
    });
  });

  it('count users added and removed in bulk, in one statement', async () => {
    const before = await runningTotals();
    await db().execute(sql`
      insert into users (email, password_hash)
      select 'bulk-' || i || '@example.com', 'not-a-real-hash' from generate_series(1, 25) as i`);
    expect((await runningTotals()).find((row) => row.name === 'users')?.item_count).toBe(
      String(Number(before.find((row) => row.name === 'users')?.item_count) + 25),
    );
    await db().execute(sql`delete from users where email like 'bulk-%@example.com'`);
    expect(await runningTotals()).toEqual(before);
    expect(await runningTotals()).toEqual(await recountedTotals());
  });
});

describe('the admin user search copy', () => {
  it('follows sign-ups and changes of name, phone and e-mail, and finds users by the new values only', async () => {
    const customer = await signUpVerifiedUser(harness.app, { fullName: 'Searchable Zebediah', phone: '+919811122233' });
    const search = async (text: string) => {
      const response = await call(harness.app, { url: `/api/admin/users?q=${encodeURIComponent(text)}`, cookie: admin.cookie });
      expect(response.statusCode).toBe(200);
      return response.json<{ items: { id: string; name: string; email: string; phone: string }[] }>().items.map((item) => item.id);
    };
    expect(await search('zebediah')).toEqual([customer.id]);

    await db().execute(sql`update profiles set name = 'Renamed Quillon', phone = '+919844455566' where user_id = ${customer.id}`);
    await db().execute(sql`update users set email = ${`quillon-${customer.id}@example.com`} where id = ${customer.id}`);
    expect(await search('zebediah')).toEqual([]);
    expect(await search('9811122233')).toEqual([]);
    expect(await search('quillon')).toEqual([customer.id]);
    expect(await search('98444 55566')).toEqual([customer.id]);
    expect(await search(`QUILLON-${customer.id}`)).toEqual([customer.id]);

    const copy = await db().execute(sql`select s.name, s.email, s.phone, s.created_at = u.created_at as same_time
      from user_search s join users u on u.id = s.user_id where s.user_id = ${customer.id}`);
    expect(copy.rows).toEqual([{ name: 'Renamed Quillon', email: `quillon-${customer.id}@example.com`, phone: '+919844455566', same_time: true }]);
  });

  it('has exactly one row per user with a profile, with the same values', async () => {
    const mismatches = await db().execute(sql`
      select p.user_id from profiles p join users u on u.id = p.user_id
      full join user_search s on s.user_id = p.user_id
      where s.user_id is null or p.user_id is null
         or (s.name, s.email, s.phone, s.created_at) is distinct from (p.name, u.email, p.phone, u.created_at)`);
    expect(mismatches.rows).toEqual([]);
    const counts = await db().execute<{ profiles: string; copies: string }>(
      sql`select (select count(*) from profiles)::text as profiles, (select count(*) from user_search)::text as copies`,
    );
    expect(counts.rows[0]?.copies).toBe(counts.rows[0]?.profiles);
  });
});
