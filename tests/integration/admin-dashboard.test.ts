import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminDashboardResponseSchema, type AdminDashboard } from '#shared/contracts/admin';
import { SUMMARY_TOTALS_NAMES } from '../../src/server/features/admin/dashboard-repository.ts';
import { signUpVipCustomer } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, decide, expectStatus, fundWallet, requestTransfer, requestWithdrawal, submitDeposit } from '../fixtures/wallet.ts';

// The operator's dashboard (issue 13, item 8): every figure from running totals, checked here against
// what the requests and the ledger say.

const { harness, admin } = useIntegrationFile();
const db = () => harness.database.handle.db;

async function dashboard(cookie = admin.cookie): Promise<AdminDashboard> {
  const response = await call(harness.app, { url: '/api/admin/dashboard', cookie });
  expectStatus(response, 200);
  return adminDashboardResponseSchema.parse(response.json());
}

async function oldestCreatedAt(table: 'usdt_deposits' | 'withdrawal_requests' | 'transfers', status: string): Promise<string | null> {
  const result = await db().execute<{ oldest: Date | null }>(sql`select min(created_at) as oldest from ${sql.raw(table)} where status = ${status}`);
  const oldest = result.rows[0]?.oldest;
  return oldest ? new Date(oldest).toISOString() : null;
}

async function customerWalletsMicros(): Promise<bigint> {
  const result = await db().execute<{ total: string }>(
    sql`select coalesce(sum(balance_usdt_micros), 0)::text as total from ledger_accounts where kind = 'customer_wallet'`,
  );
  return BigInt(result.rows[0]?.total ?? '0');
}

/** Micro-USDT of a wire amount with 6 decimals ("-12.500000"). */
const micros = (wire: string) => BigInt(wire.replace('.', ''));

async function withdrawalIdOf(user: SignedUpUser, bankAccountId: string, amount: string): Promise<string> {
  const response = await requestWithdrawal(harness, user, { amount, bankAccountId });
  expectStatus(response, 201);
  return response.json<{ withdrawal: { id: string } }>().withdrawal.id;
}

describe('the admin dashboard', () => {
  it('shows each queue with its count, amount and oldest request, the payout batch withdrawals apart, and today in India', async () => {
    const start = await dashboard();
    const customer = await signUpVerifiedUser(harness.app, { fullName: 'Dashboard Customer' });
    const recipient = await signUpVerifiedUser(harness.app, { fullName: 'Dashboard Recipient' });
    await fundWallet(harness, admin, customer, '200');
    await submitDeposit(harness, customer, '15');
    const bankAccountId = await addBankAccount(harness, customer);
    const batched = await withdrawalIdOf(customer, bankAccountId, '10');
    await withdrawalIdOf(customer, bankAccountId, '20');
    expectStatus(await requestTransfer(harness, customer, { recipientEmail: recipient.email, amount: '4' }), 201);

    const waiting = await dashboard();
    expect(waiting.pendingDeposits).toEqual({
      count: start.pendingDeposits.count + 1,
      totalUsdt: '15.000000',
      oldestAt: await oldestCreatedAt('usdt_deposits', 'pending'),
    });
    expect(waiting.pendingWithdrawals).toEqual({
      count: 2,
      totalUsdt: '30.000000',
      totalInr: '2490.00',
      oldestAt: await oldestCreatedAt('withdrawal_requests', 'pending'),
    });
    expect(waiting.processingWithdrawals).toEqual({ count: 0, totalUsdt: '0.000000', totalInr: '0.00', oldestAt: null });
    expect(waiting.pendingTransfers).toEqual({ count: 1, totalUsdt: '4.000000', oldestAt: await oldestCreatedAt('transfers', 'pending') });
    expect(waiting.pendingWithdrawals.oldestAt).not.toBeNull();
    expect(Date.parse(waiting.generatedAt)).toBeGreaterThanOrEqual(Date.parse(waiting.pendingWithdrawals.oldestAt ?? ''));
    expect(waiting.today.creditedDeposits.count).toBe(start.today.creditedDeposits.count + 1);
    expect(micros(waiting.today.creditedDeposits.totalUsdt) - micros(start.today.creditedDeposits.totalUsdt)).toBe(200_000_000n);

    // Into a payout batch: the withdrawal leaves the pending queue and shows as processing, with its batch.
    const created = await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: { withdrawalIds: [batched] } });
    expectStatus(created, 201);
    const batchId = created.json<{ batch: { id: string } }>().batch.id;
    const processing = await dashboard();
    expect(processing.pendingWithdrawals).toMatchObject({ count: 1, totalUsdt: '20.000000', totalInr: '1660.00' });
    expect(processing.processingWithdrawals).toEqual({
      count: 1,
      totalUsdt: '10.000000',
      totalInr: '830.00',
      oldestAt: await oldestCreatedAt('withdrawal_requests', 'processing'),
    });
    expect(processing.openPayoutBatches).toEqual([
      { id: batchId, createdAt: expect.any(String), count: 1, totalInr: '830.00', processingCount: 1, processingInr: '830.00' },
    ]);

    // The bank paid it: today's paid INR grows, and the batch is no longer in progress.
    const results = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/payout-batches/${batchId}/results`,
      cookie: admin.cookie,
      body: { rows: [{ withdrawalId: batched, outcome: 'paid', utr: '100200300400' }] },
    });
    expectStatus(results, 200);
    const paid = await dashboard();
    expect(paid.processingWithdrawals.count).toBe(0);
    expect(paid.openPayoutBatches).toEqual([]);
    expect(paid.today.paidWithdrawals).toEqual({
      count: start.today.paidWithdrawals.count + 1,
      totalInr: (Number(start.today.paidWithdrawals.totalInr) + 830).toFixed(2),
      totalUsdt: expect.any(String),
    });
    // A rejection pays nothing.
    const rejected = await withdrawalIdOf(customer, bankAccountId, '5');
    expectStatus(await decide(harness, admin, 'withdrawals', rejected, 'reject', { reason: 'Name mismatch' }), 200);
    expect((await dashboard()).today.paidWithdrawals.count).toBe(paid.today.paidWithdrawals.count);

    // Today is the India date of the moment the figures were read.
    const indiaDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date(paid.generatedAt));
    expect(paid.today.date).toBe(indiaDate);
  });

  it('shows the customer balances against the house accounts, and a difference when a wallet changes outside the ledger', async () => {
    const customer = await signUpVerifiedUser(harness.app, { fullName: 'Books Customer' });
    await fundWallet(harness, admin, customer, '50');
    const books = (await dashboard()).books;
    expect(books.balanced).toBe(true);
    expect(books.differenceUsdt).toBe('0.000000');
    expect(micros(books.customerBalancesUsdt)).toBe(await customerWalletsMicros());
    expect(books.houseAccounts.map((account) => account.kind)).toEqual([
      'deposits_received',
      'referral_rewards',
      'withdrawals_pending',
      'transfers_pending',
      'withdrawals_paid',
    ]);
    const house = books.houseAccounts.reduce((sum, account) => sum + micros(account.balanceUsdt), 0n);
    expect(house + micros(books.customerBalancesUsdt)).toBe(0n);

    // A balance written around the ledger: the customers' own total sees it, the house accounts do not.
    await db().execute(sql`update ledger_accounts set balance_usdt_micros = balance_usdt_micros + 1500000 where user_id = ${customer.id}`);
    try {
      const broken = (await dashboard()).books;
      expect(broken.balanced).toBe(false);
      expect(broken.differenceUsdt).toBe('1.500000');
      expect(micros(broken.customerBalancesUsdt)).toBe(await customerWalletsMicros());
    } finally {
      await db().execute(sql`update ledger_accounts set balance_usdt_micros = balance_usdt_micros - 1500000 where user_id = ${customer.id}`);
    }
    expect((await dashboard()).books.balanced).toBe(true);
  });

  it('keeps the customer total right under concurrent transfers and withdrawals', async () => {
    const customers = await Promise.all([1, 2, 3].map((index) => signUpVerifiedUser(harness.app, { fullName: `Concurrent Books ${index}` })));
    for (const customer of customers) await fundWallet(harness, admin, customer, '30');
    const bankAccounts = await Promise.all(customers.map((customer) => addBankAccount(harness, customer)));
    const answers = await Promise.all(
      customers.flatMap((customer, index) => [
        requestTransfer(harness, customer, { recipientEmail: (customers[(index + 1) % 3] as SignedUpUser).email, amount: '7' }),
        requestWithdrawal(harness, customer, { amount: '9', bankAccountId: bankAccounts[index] as string }),
      ]),
    );
    for (const answer of answers) expectStatus(answer, 201);
    const books = (await dashboard()).books;
    expect(books.balanced).toBe(true);
    expect(micros(books.customerBalancesUsdt)).toBe(await customerWalletsMicros());
  });

  it('is refused to a VIP-level customer and to a plain customer', async () => {
    const vip = await signUpVipCustomer(harness);
    const asVip = await call(harness.app, { url: '/api/admin/dashboard', cookie: vip.cookie });
    expect(asVip.statusCode, asVip.body).toBe(403);
    expect(asVip.body).not.toContain('customerBalancesUsdt');
    const customer = await signUpVerifiedUser(harness.app);
    expect((await call(harness.app, { url: '/api/admin/dashboard', cookie: customer.cookie })).statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/admin/dashboard' })).statusCode).toBe(401);
  });
});

/** The dashboard's statement, as a connection keeps it. */
async function dashboardStatementText(): Promise<string> {
  await dashboard();
  const statement = await db().execute<{ text: string }>(sql`select statement as text from pg_prepared_statements where name = 'dashboard_figures'`);
  const text = statement.rows[0]?.text;
  if (text === undefined) throw new Error('the dashboard statement was not prepared on this connection');
  return text;
}

describe('the dashboard statement', () => {
  it('reads the running totals by name, however many pages their old versions have left behind', async () => {
    // Old versions of the totals rows stay while a snapshot that may see them is open, as under a
    // long transaction in production; made in one transaction here, 20,000 of them fill many pages.
    await db().execute(
      sql.raw(`do $$ begin
      for update_number in 1..20000 loop update summary_totals set item_count = item_count where name = 'users'; end loop;
    end $$`),
    );
    await db().execute(sql`analyze summary_totals`);
    const pages = await db().execute<{ pages: number }>(sql`select (pg_relation_size('summary_totals') / current_setting('block_size')::int)::int as pages`);
    expect(pages.rows[0]?.pages).toBeGreaterThan(100);

    const plan = await db().$client.query<{ 'QUERY PLAN': string }>(`explain (generic_plan) ${await dashboardStatementText()}`);
    const lines = plan.rows.map((row) => row['QUERY PLAN']).filter((line) => line.includes('summary_totals'));
    expect(lines.length).toBeGreaterThan(0);
    expect(
      lines.every((line) => !line.includes('Seq Scan')),
      lines.join('\n'),
    ).toBe(true);
    expect((await dashboard()).userCount).toBeGreaterThan(0);
  });

  it('reads every running total the table may hold: its names are the ones its check constraint allows', async () => {
    // A total added by a later migration would otherwise be left out of the dashboard without a sound.
    const result = await db().execute<{ definition: string }>(
      sql`select pg_get_constraintdef(oid) as definition from pg_constraint where conname = 'summary_totals_name_valid'`,
    );
    const definition = result.rows[0]?.definition ?? '';
    const allowed = [...definition.matchAll(/'([a-z_]+)'/g)].map((match) => match[1]);
    expect(allowed.length, definition).toBeGreaterThan(0);
    expect([...SUMMARY_TOTALS_NAMES].sort()).toEqual(allowed.sort());
  });
});
