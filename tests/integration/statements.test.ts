import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { indiaDateToday, STATEMENT_LIMITS, STATEMENT_MESSAGES } from '#shared/contracts/statements';
import { formatUsdtIndian } from '#shared/money';
import { TEST_TRC20_ADDRESS } from '../fixtures/addresses.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { drawnHindi, pdfText, withoutSpaces } from '../fixtures/pdf-text.ts';
import { call, signUpPinVerifiedUser, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  decide,
  expectStatus,
  fundWallet,
  ledgerTransferCount,
  randomTrc20Hash,
  requestTransfer,
  requestWithdrawal,
  signUpFundedCustomer,
} from '../fixtures/wallet.ts';
import type { TestApp } from '../fixtures/test-app.ts';

const { harness, admin } = useIntegrationFile();

const today = () => indiaDateToday();

function statement(user: SignedUpUser | undefined, query: Record<string, string>) {
  return call(harness.app, { url: `/api/statement?${new URLSearchParams(query).toString()}`, cookie: user?.cookie });
}

async function statementPdfText(user: SignedUpUser, from: string, to: string): Promise<string> {
  const response = await statement(user, { from, to, format: 'pdf' });
  expectStatus(response, 200);
  expect(response.headers['content-type']).toBe('application/pdf');
  expect(response.headers['content-disposition']).toBe(`attachment; filename="statement-${from}-to-${to}.pdf"`);
  return pdfText(response.rawPayload);
}

/** The statement's CSV as rows of cells (every cell is quoted by csvCell; none here holds a quote or comma inside). */
async function statementCsvRows(user: SignedUpUser, from: string, to: string): Promise<string[][]> {
  const response = await statement(user, { from, to, format: 'csv' });
  expectStatus(response, 200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  const body = response.body.replace(/^\ufeff/, '');
  return body
    .trimEnd()
    .split('\r\n')
    .map((line) => line.slice(1, -1).split('","'));
}

/** The wallet's balance before a moment, summed from the ledger's rows by the test itself. */
async function ledgerBalanceBefore(app: TestApp, userId: string, moment: string): Promise<bigint> {
  const result = await app.database.handle.db.execute<{ balance: string }>(sql`
    select coalesce(sum(case when t.to_account_id = a.id then t.amount_usdt_micros else -t.amount_usdt_micros end), 0)::text as balance
    from ledger_transfers t join ledger_accounts a on a.kind = 'customer_wallet' and a.user_id = ${userId} and a.id in (t.to_account_id, t.from_account_id)
    where t.created_at < ${moment}::timestamptz`);
  return BigInt(result.rows[0]?.balance ?? '0');
}

function withdrawalOf(response: { json: <T>() => T }): { id: string; reference: string } {
  return response.json<{ withdrawal: { id: string; reference: string } }>().withdrawal;
}

/**
 * A deposit approved `days` ago, written as its approval writes it (the deposit, its ledger row and both
 * cached balances) but dated in the past: ledger rows are immutable, so an older movement is made, not moved.
 */
async function depositCreditedDaysAgo(customer: SignedUpUser, amountUsdtMicros: bigint, days: number): Promise<void> {
  await harness.database.handle.db.transaction(async (transaction) => {
    const at = sql`now() - make_interval(days => ${days})`;
    const deposit = await transaction.execute<{ id: string }>(sql`
      insert into usdt_deposits (user_id, network, amount_usdt_micros, transaction_hash, deposit_address, status, created_at, decided_at)
      values (${customer.id}, 'TRC20', ${amountUsdtMicros}, ${randomTrc20Hash()}, ${TEST_TRC20_ADDRESS}, 'approved', ${at}, ${at})
      returning id`);
    await transaction.execute(sql`
      insert into ledger_transfers (from_account_id, to_account_id, amount_usdt_micros, reason, reference_id, created_at)
      select h.id, w.id, ${amountUsdtMicros}, 'deposit_credit', ${deposit.rows[0]?.id}, ${at}
      from ledger_accounts h, ledger_accounts w
      where h.kind = 'deposits_received' and h.user_id is null and w.kind = 'customer_wallet' and w.user_id = ${customer.id}`);
    await transaction.execute(sql`
      update ledger_accounts set balance_usdt_micros = balance_usdt_micros + case when user_id is null then -${amountUsdtMicros}::bigint else ${amountUsdtMicros}::bigint end
      where (kind = 'deposits_received' and user_id is null) or (kind = 'customer_wallet' and user_id = ${customer.id})`);
  });
}

/** A customer with a deposit, a paid withdrawal with its UTR, a transfer sent and a rejected withdrawal. */
async function customerWithHistory(): Promise<{
  customer: SignedUpUser;
  recipient: SignedUpUser;
  depositHash: string;
  paid: { reference: string };
  rejected: { reference: string };
  utr: string;
}> {
  const customer = await signUpVerifiedUser(harness.app, { fullName: 'Meera Iyer', phone: '+919812343210' });
  const depositId = await fundWallet(harness, admin, customer, '1500');
  const hashRow = await harness.database.handle.db.execute<{ transaction_hash: string }>(
    sql`select transaction_hash from usdt_deposits where id = ${depositId}`,
  );
  const depositHash = hashRow.rows[0]?.transaction_hash ?? '';
  const bankAccountId = await addBankAccount(harness, customer);
  const paidResponse = await requestWithdrawal(harness, customer, { amount: '100', bankAccountId });
  expectStatus(paidResponse, 201);
  const paid = withdrawalOf(paidResponse);
  const utr = String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000));
  expectStatus(await decide(harness, admin, 'withdrawals', paid.id, 'approve', { payoutReference: utr }), 200);
  const recipient = await signUpVerifiedUser(harness.app, { fullName: 'Ravi Kumar' });
  const transfer = await requestTransfer(harness, customer, { recipientEmail: recipient.email, amount: '50' });
  expectStatus(transfer, 201);
  expectStatus(await decide(harness, admin, 'transfers', transfer.json<{ transfer: { id: string } }>().transfer.id, 'approve'), 200);
  const rejectedResponse = await requestWithdrawal(harness, customer, { amount: '20', bankAccountId });
  expectStatus(rejectedResponse, 201);
  const rejected = withdrawalOf(rejectedResponse);
  expectStatus(await decide(harness, admin, 'withdrawals', rejected.id, 'reject', { reason: 'Bank details could not be confirmed' }), 200);
  return { customer, recipient, depositHash, paid, rejected, utr };
}

describe('the statement PDF', () => {
  it('shows the operator, the customer, every movement with its reference, UTR and hash, and balances that match the ledger', async () => {
    const { customer, recipient, depositHash, paid, rejected, utr } = await customerWithHistory();
    const text = await statementPdfText(customer, today(), today());
    const flat = withoutSpaces(text);
    expect(text).toContain(harness.context.config.operatorName);
    expect(text).toContain('Account statement');
    expect(text).toContain('Meera Iyer');
    expect(text).toContain('+91****3210');
    expect(text).not.toContain('9812343210');
    expect(flat).toContain(depositHash);
    expect(flat).toContain(`Reference:${paid.reference}`);
    expect(flat).toContain(`UTR:${utr}`);
    expect(flat).toContain(`Reference:${rejected.reference}`);
    expect(flat).toContain('INRtobank:₹8,300.00');
    expect(flat).toContain(`Counterparty:${recipient.email}`);
    for (const label of ['Deposit', 'Withdrawal to bank', 'Transfer sent', 'Withdrawal returned']) expect(text).toContain(label);
    expect(text).toContain('1,500.000000');
    // Opening balance 0; the running balance after each movement; closing 1,350 = the cached balance = the ledger's sum.
    expect(flat).toContain('Openingbalance0.000000USDTTotalcredits1,520.000000USDTTotaldebits170.000000USDTClosingbalance1,350.000000USDT');
    for (const running of ['1,400.000000', '1,350.000000', '1,330.000000']) expect(text).toContain(running);
    expect(await balanceMicros(harness, customer.id)).toBe(1_350_000_000n);
    expect(await ledgerBalanceBefore(harness, customer.id, new Date(Date.now() + 1000).toISOString())).toBe(1_350_000_000n);
  });

  it('opens with the balance at the start of the period and closes with the balance at its end, as the ledger sums them', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    await depositCreditedDaysAgo(customer, 250_000_000n, 10);
    await fundWallet(harness, admin, customer, '40.5');
    const recent = await statementPdfText(customer, indiaDateToday(-5), today());
    const startOfPeriod = new Date(`${indiaDateToday(-5)}T00:00:00+05:30`).toISOString();
    const opening = await ledgerBalanceBefore(harness, customer.id, startOfPeriod);
    expect(opening).toBe(250_000_000n);
    const closing = await balanceMicros(harness, customer.id);
    expect(closing).toBe(290_500_000n);
    expect(withoutSpaces(recent)).toContain(
      `Openingbalance${formatUsdtIndian(opening)}USDTTotalcredits40.500000USDTTotaldebits0.000000USDTClosingbalance${formatUsdtIndian(closing)}USDT`,
    );

    const past = await statementPdfText(customer, indiaDateToday(-10), indiaDateToday(-10));
    expect(withoutSpaces(past)).toContain('Openingbalance0.000000USDTTotalcredits250.000000USDTTotaldebits0.000000USDTClosingbalance250.000000USDT');
    const quiet = await statementPdfText(customer, indiaDateToday(-8), indiaDateToday(-6));
    expect(quiet).toContain('No movements in this period.');
    expect(withoutSpaces(quiet)).toContain('Openingbalance250.000000USDTTotalcredits0.000000USDTTotaldebits0.000000USDTClosingbalance250.000000USDT');
  });

  it('is in Hindi for a customer whose language is Hindi, drawn in a Devanagari font', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '75', { language: 'hi' });
    const flat = withoutSpaces(await statementPdfText(customer, today(), today()));
    for (const label of ['खाता विवरण', 'प्रारंभिक शेष', 'अंतिम शेष', 'कुल जमा', 'लेनदेन हैश', 'बनाया गया', 'पृष्ठ']) {
      expect(flat, label).toContain(await drawnHindi(label));
    }
    expect(flat).toContain('75.000000');
    expect(flat).not.toContain('Openingbalance');
  });
});

describe('the statement CSV', () => {
  it('lists the opening balance, each movement with its details and running balance, and the closing balance', async () => {
    const { customer, depositHash, paid, utr } = await customerWithHistory();
    const rows = await statementCsvRows(customer, today(), today());
    expect(rows[0]).toEqual([
      'Date (IST)',
      'Description',
      'Reference',
      'UTR',
      'INR to bank (INR)',
      'TDS (INR)',
      'Network',
      'Transaction hash',
      'Counterparty',
      'Credit (USDT)',
      'Debit (USDT)',
      'Balance (USDT)',
    ]);
    expect(rows[1]).toEqual([`${today()} 00:00:00`, 'Opening balance', '', '', '', '', '', '', '', '', '', '0.000000']);
    const movements = rows.slice(2, -1);
    expect(movements.map((row) => [row[1], row[9], row[10], row[11]])).toEqual([
      ['Deposit', '1500.000000', '', '1500.000000'],
      ['Withdrawal to bank', '', '100.000000', '1400.000000'],
      ['Transfer sent', '', '50.000000', '1350.000000'],
      ['Withdrawal to bank', '', '20.000000', '1330.000000'],
      ['Withdrawal returned', '20.000000', '', '1350.000000'],
    ]);
    expect(movements[0]?.[7]).toBe(depositHash);
    expect(movements[0]?.[6]).toBe('TRC20');
    expect(movements[1]?.slice(2, 6)).toEqual([paid.reference, utr, '8300.00', '0.00']);
    for (const row of movements) expect(row[0]).toMatch(new RegExp(`^${today()} \\d{2}:\\d{2}:\\d{2}$`));
    expect(rows.at(-1)).toEqual([`${today()} 23:59:59`, 'Closing balance', '', '', '', '', '', '', '', '', '', '1350.000000']);
  });

  it('never shows another customer’s movements, and each side of a transfer sees only its own', async () => {
    const { customer, recipient, depositHash, paid, utr } = await customerWithHistory();
    const recipientCsv = (await statementCsvRows(recipient, today(), today())).flat().join('|');
    const recipientPdf = withoutSpaces(await statementPdfText(recipient, today(), today()));
    for (const secret of [depositHash, paid.reference, utr, 'Meera Iyer'.replace(' ', '')]) {
      expect(recipientCsv).not.toContain(secret);
      expect(recipientPdf).not.toContain(secret);
    }
    expect(recipientCsv).toContain('Transfer received');
    expect(recipientCsv).toContain(customer.email);
    expect(recipientPdf).toContain('50.000000');
    const stranger = await signUpFundedCustomer(harness, admin, '10');
    const strangerCsv = (await statementCsvRows(stranger, today(), today())).flat().join('|');
    expect(strangerCsv).not.toContain(customer.email);
    expect(strangerCsv).not.toContain(depositHash);
  });

  it('shows a referral bonus with its own reference and level, never the referred customer’s deposit', async () => {
    const referrer = await signUpVerifiedUser(harness.app);
    const referred = await signUpVerifiedUser(harness.app, { fullName: 'Kiran Referred', referralCode: referrer.referralCode });
    const depositId = await fundWallet(harness, admin, referred, '1000');
    const hashRow = await harness.database.handle.db.execute<{ transaction_hash: string }>(
      sql`select transaction_hash from usdt_deposits where id = ${depositId}`,
    );
    const rewardRow = await harness.database.handle.db.execute<{ id: string; level: number }>(
      sql`select id, level from referral_rewards where deposit_id = ${depositId} and referrer_user_id = ${referrer.id}`,
    );
    const reward = rewardRow.rows[0];
    expect(reward).toBeDefined();
    const rows = await statementCsvRows(referrer, today(), today());
    const bonus = rows.slice(2, -1);
    expect(bonus.map((row) => [row[1], row[2]])).toEqual([[`Referral bonus (level ${reward?.level})`, reward?.id]]);
    const everything = rows.flat().join('|');
    for (const secret of [depositId, hashRow.rows[0]?.transaction_hash ?? 'no hash', referred.email, 'Kiran Referred'])
      expect(everything).not.toContain(secret);
    expect(withoutSpaces(await statementPdfText(referrer, today(), today()))).not.toContain(hashRow.rows[0]?.transaction_hash ?? 'no hash');
  });

  it('answers a period of more movements than a statement holds with a 4xx asking for a shorter period', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '10');
    const { db } = harness.database.handle;
    // Pairs of movements in and out that cancel out, so that the cached balance still equals the ledger's sum.
    await db.execute(sql`
      with wallet as (select id from ledger_accounts where kind = 'customer_wallet' and user_id = ${customer.id}),
      house as (select id from ledger_accounts where kind = 'deposits_received' and user_id is null)
      insert into ledger_transfers (from_account_id, to_account_id, amount_usdt_micros, reason)
      select case when n % 2 = 0 then house.id else wallet.id end, case when n % 2 = 0 then wallet.id else house.id end, 1, case when n % 2 = 0 then 'deposit_credit' else 'deposit_reversal' end
      from wallet, house, generate_series(1, ${STATEMENT_LIMITS.maxRows}) as n`);
    const response = await statement(customer, { from: today(), to: today(), format: 'csv' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { message: string } }>().error.message).toBe(STATEMENT_MESSAGES.tooManyRows);
  });
});

describe('who may download a statement, and for which periods', () => {
  it('refuses a caller without a session (401) and one whose PIN is not verified (403)', async () => {
    const anonymous = await statement(undefined, { from: today(), to: today(), format: 'pdf' });
    expect(anonymous.statusCode).toBe(401);
    const unverified = await signUpUser(harness.app);
    expect((await statement(unverified, { from: today(), to: today(), format: 'pdf' })).statusCode).toBe(403);
    const verified = await signUpPinVerifiedUser(harness.app);
    expect((await statement(verified, { from: today(), to: today(), format: 'pdf' })).statusCode).toBe(200);
  });

  it('answers bad periods and formats with a 400 and a clear message, and changes nothing', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '12');
    const transfersBefore = await ledgerTransferCount(harness);
    const balanceBefore = await balanceMicros(harness, customer.id);
    const cases: [Record<string, string>, string][] = [
      [{ from: indiaDateToday(-1), to: indiaDateToday(-2), format: 'pdf' }, STATEMENT_MESSAGES.order],
      [{ from: today(), to: indiaDateToday(1), format: 'pdf' }, STATEMENT_MESSAGES.future],
      [{ from: indiaDateToday(-STATEMENT_LIMITS.maxDays), to: today(), format: 'csv' }, STATEMENT_MESSAGES.tooLong],
      [{ from: '2026-02-30', to: today(), format: 'pdf' }, STATEMENT_MESSAGES.invalidDate],
      [{ from: 'yesterday', to: today(), format: 'pdf' }, STATEMENT_MESSAGES.invalidDate],
      [{ from: today(), to: today(), format: 'xlsx' }, STATEMENT_MESSAGES.format],
      [{ to: today(), format: 'pdf' }, STATEMENT_MESSAGES.invalidDate],
    ];
    for (const [query, message] of cases) {
      const response = await statement(customer, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message, JSON.stringify(query)).toBe(message);
    }
    // The longest period allowed is accepted.
    expect((await statement(customer, { from: indiaDateToday(-(STATEMENT_LIMITS.maxDays - 1)), to: today(), format: 'csv' })).statusCode).toBe(200);
    expect(await ledgerTransferCount(harness)).toBe(transfersBefore);
    expect(await balanceMicros(harness, customer.id)).toBe(balanceBefore);
  });

  it('limits how many statements one customer downloads in a window', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    for (let index = 0; index < STATEMENT_LIMITS.perAccountPerWindow; index += 1) {
      expectStatus(await statement(customer, { from: today(), to: today(), format: 'csv' }), 200);
    }
    expect((await statement(customer, { from: today(), to: today(), format: 'csv' })).statusCode).toBe(429);
  });
});
