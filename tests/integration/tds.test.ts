import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/server/features/payout-batches/csv.ts';
import { maskPan, tdsInrPaiseFor } from '#shared/contracts/withdrawal-rules';
import { currentSettingsBody } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { PAN_MESSAGES } from '#shared/contracts/kyc';
import { sharedCashfreeStandIn, uniquePersonPan } from '../fixtures/cashfree-stand-in.ts';
import { call, signUpPinVerifiedUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, balanceMicros, decide, expectStatus, fundWallet, ledgerTransferCount, requestWithdrawal, setRates } from '../fixtures/wallet.ts';

const { harness, admin } = useIntegrationFile();

const INVALID_PAN_MESSAGE = 'Enter a valid PAN: 5 letters, 4 digits and 1 letter, like ABCDE1234F.';
const KYC_PAN_MISSING_MESSAGE =
  'Withdrawals need KYC level 1. Still missing: verify your e-mail address; verify your mobile number; get your PAN verified in your name; declare your tax residence. Open the KYC page to finish.';

async function setTdsBasisPoints(basisPoints: number): Promise<void> {
  await harness.database.handle.db.execute(sql`update admin_settings set tds_basis_points = ${basisPoints} where id = 1`);
}

// Runs before the file's ledger check after each test.
afterEach(async () => {
  await setTdsBasisPoints(0);
  await setRates(harness, 8300n, 8325n);
});

function setPan(user: SignedUpUser, pan: unknown) {
  return call(harness.app, { method: 'PUT', url: '/api/me/pan', cookie: user.cookie, body: { pan } });
}

async function storedPan(userId: string): Promise<string | null> {
  const result = await harness.database.handle.db.execute<{ pan: string | null }>(sql`select pan from profiles where user_id = ${userId}`);
  return result.rows[0]?.pan ?? null;
}

/** A funded level 1 customer: every level 1 customer has a verified PAN (decision 042). */
async function customer(amount = '200'): Promise<{ user: SignedUpUser; bankAccountId: string; pan: string }> {
  const user = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, user, amount);
  const pan = await storedPan(user.id);
  if (pan === null) throw new Error('a level 1 customer has a PAN');
  return { user, bankAccountId: await addBankAccount(harness, user), pan };
}

async function withdraw(user: SignedUpUser, bankAccountId: string, amount: string, extra: Record<string, string> = {}) {
  const response = await requestWithdrawal(harness, user, { amount, bankAccountId, ...extra });
  expectStatus(response, 201);
  return response.json<{ withdrawal: { id: string; amountInr: string; tdsInr: string; netInr: string; tdsPercent: string } }>().withdrawal;
}

async function todayInIndia(offsetDays = 0): Promise<string> {
  const result = await harness.database.handle.db.execute<{ day: string }>(
    sql`select to_char((now() at time zone 'Asia/Kolkata')::date + ${offsetDays}::int, 'YYYY-MM-DD') as day`,
  );
  return result.rows[0]?.day ?? '';
}

describe('TDS arithmetic', () => {
  it('floors to the paisa in bigint', () => {
    expect(tdsInrPaiseFor(99n, 100n)).toBe(0n);
    expect(tdsInrPaiseFor(100n, 100n)).toBe(1n);
    expect(tdsInrPaiseFor(199n, 100n)).toBe(1n);
    expect(tdsInrPaiseFor(10_000n, 100n)).toBe(100n);
    expect(tdsInrPaiseFor(1_234_567n, 100n)).toBe(12_345n);
    expect(tdsInrPaiseFor(1_234_567n, 0n)).toBe(0n);
    expect(tdsInrPaiseFor(1_234_567n, 3000n)).toBe(370_370n);
    expect(tdsInrPaiseFor(1_234_567n, 1n)).toBe(123n);
    // Far beyond 2^53: no floating point anywhere.
    expect(tdsInrPaiseFor(9_007_199_254_740_993_123n, 100n)).toBe(90_071_992_547_409_931n);
  });
});

describe('PAN', () => {
  it('is saved upper case through the KYC check, shown masked in /api/me and audited masked', async () => {
    const user = await signUpPinVerifiedUser(harness.app);
    const pan = uniquePersonPan();
    (await sharedCashfreeStandIn()).register(pan, { registeredName: 'ASHA RAO' });
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json().pan).toBeNull();
    const response = await setPan(user, ` ${pan.toLowerCase()} `);
    expectStatus(response, 200);
    expect(response.json()).toEqual({ message: PAN_MESSAGES.verified, pan: maskPan(pan) });
    expect(await storedPan(user.id)).toBe(pan);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).json().pan).toBe(maskPan(pan));
    expect(maskPan('ABCDE1234F')).toBe('XXXXX1234F');
    const audit = await harness.database.handle.db.execute<{ before: unknown; after: unknown }>(
      sql`select before, after from audit_log where action = 'kyc.pan_submit' and target_user_id = ${user.id}`,
    );
    expect(audit.rows).toEqual([{ before: { pan: null, status: 'none' }, after: { pan: maskPan(pan), status: 'pending_review' } }]);
    // A verified PAN is not replaced by the customer.
    expect((await setPan(user, uniquePersonPan())).statusCode).toBe(409);
    expect(await storedPan(user.id)).toBe(pan);
  });

  it.each([
    ['ABCD1234F', INVALID_PAN_MESSAGE],
    ['ABCDE12345', INVALID_PAN_MESSAGE],
    ['12345ABCDE', INVALID_PAN_MESSAGE],
    ['ABCDE1234', INVALID_PAN_MESSAGE],
    ['', INVALID_PAN_MESSAGE],
    ['ABCDE-1234F', PAN_MESSAGES.notPlain],
    ['ÄBCDE1234F', PAN_MESSAGES.notPlain],
    ['ABCDE1234F', PAN_MESSAGES.notPerson],
    ['A'.repeat(30), INVALID_PAN_MESSAGE],
    [1234, INVALID_PAN_MESSAGE],
  ])('refuses %j and keeps the PAN', async (pan, message) => {
    const { user, pan: kept } = await customer('10');
    const response = await setPan(user, pan);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    expect(await storedPan(user.id)).toBe(kept);
  });

  it('needs a signed-in customer', async () => {
    const response = await call(harness.app, { method: 'PUT', url: '/api/me/pan', body: { pan: 'ABCPE1234F' } });
    expect(response.statusCode).toBe(401);
  });

  it('is shown as required while TDS is on; a customer without one is below KYC level 1 and cannot withdraw at all', async () => {
    const user = await signUpPinVerifiedUser(harness.app);
    await fundWallet(harness, admin, user, '200');
    const bankAccountId = await addBankAccount(harness, user);
    await setTdsBasisPoints(100);
    const limits = await call(harness.app, { url: '/api/withdrawals/limits', cookie: user.cookie });
    expect(limits.json()).toMatchObject({ tdsPercent: '1.00', hasPan: false, panRequired: true });
    const balance = await balanceMicros(harness, user.id);
    const transfers = await ledgerTransferCount(harness);
    const refused = await requestWithdrawal(harness, user, { amount: '10', bankAccountId });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'KYC_LEVEL_REQUIRED', message: KYC_PAN_MISSING_MESSAGE });
    expect(await balanceMicros(harness, user.id)).toBe(balance);
    expect(await ledgerTransferCount(harness)).toBe(transfers);

    const { user: levelOne, bankAccountId: levelOneAccount } = await customer();
    await setTdsBasisPoints(0);
    expect(await withdraw(levelOne, levelOneAccount, '10')).toMatchObject({ amountInr: '830.00', tdsInr: '0.00', netInr: '830.00', tdsPercent: '0.00' });
    await setTdsBasisPoints(100);
    expect((await call(harness.app, { url: '/api/withdrawals/limits', cookie: levelOne.cookie })).json()).toMatchObject({ hasPan: true, panRequired: false });
    expect(await withdraw(levelOne, levelOneAccount, '10')).toMatchObject({ amountInr: '830.00', tdsInr: '8.30', netInr: '821.70', tdsPercent: '1.00' });
  });
});

describe('withdrawals with TDS', () => {
  it('stores gross, TDS floored to the paisa and net, at the boundaries', async () => {
    const { user, bankAccountId, pan } = await customer('20000');
    await setTdsBasisPoints(100);
    await setRates(harness, 99n, 99n);
    expect(await withdraw(user, bankAccountId, '1')).toMatchObject({ amountInr: '0.99', tdsInr: '0.00', netInr: '0.99', tdsPercent: '1.00' });
    await setRates(harness, 100n, 100n);
    expect(await withdraw(user, bankAccountId, '100')).toMatchObject({ amountInr: '100.00', tdsInr: '1.00', netInr: '99.00' });
    const large = await withdraw(user, bankAccountId, '12345.67');
    expect(large).toMatchObject({ amountInr: '12345.67', tdsInr: '123.45', netInr: '12222.22' });
    const stored = await harness.database.handle.db.execute<{ amount: string; tds: string; basisPoints: number; pan: string }>(
      sql`select amount_inr_paise::text as amount, tds_inr_paise::text as tds, tds_basis_points as "basisPoints", pan from withdrawal_requests where id = ${large.id}`,
    );
    expect(stored.rows[0]).toEqual({ amount: '1234567', tds: '12345', basisPoints: 100, pan });
    // The USDT held is the whole amount: TDS is withheld from the rupees paid, not from the wallet.
    expect(await balanceMicros(harness, user.id)).toBe(20000_000_000n - 1_000_000n - 100_000_000n - 12345_670_000n);
  });

  it('shows the breakdown in the customer’s and the admin’s views; with TDS off TDS is 0.00 and net is gross', async () => {
    const { user, bankAccountId } = await customer('200');
    const off = await withdraw(user, bankAccountId, '10');
    await setTdsBasisPoints(250);
    const on = await withdraw(user, bankAccountId, '10');
    expect(on).toMatchObject({ amountInr: '830.00', tdsInr: '20.75', netInr: '809.25', tdsPercent: '2.50' });
    const detail = (await call(harness.app, { url: `/api/withdrawals/${on.id}`, cookie: user.cookie })).json().withdrawal;
    expect(detail).toMatchObject({ amountInr: '830.00', tdsInr: '20.75', netInr: '809.25' });
    const list = (await call(harness.app, { url: '/api/withdrawals', cookie: user.cookie })).json().items;
    expect(list.map((item: { id: string; tdsInr: string; netInr: string }) => [item.id, item.tdsInr, item.netInr])).toEqual([
      [on.id, '20.75', '809.25'],
      [off.id, '0.00', '830.00'],
    ]);
    const adminList = (await call(harness.app, { url: '/api/admin/withdrawals?limit=100', cookie: admin.cookie })).json().items;
    expect(adminList.find((item: { id: string }) => item.id === on.id)).toMatchObject({ amountInr: '830.00', tdsInr: '20.75', netInr: '809.25' });
    expect(adminList.find((item: { id: string }) => item.id === off.id)).toMatchObject({ tdsInr: '0.00', netInr: '830.00' });
    // The history line says what reaches the bank.
    const history = (await call(harness.app, { url: '/api/transactions?type=withdrawal', cookie: user.cookie })).json().items;
    expect(history.map((item: { id: string; amount: string; currency: string }) => [item.id, item.amount, item.currency])).toEqual([
      [on.id, '809.25', 'INR'],
      [off.id, '830.00', 'INR'],
    ]);
  });

  it('refuses with PRICE_CHANGED when the TDS changed after the customer saw the net amount', async () => {
    const { user, bankAccountId } = await customer('200');
    await setTdsBasisPoints(100);
    const transfers = await ledgerTransferCount(harness);
    const response = await requestWithdrawal(harness, user, { amount: '10', bankAccountId, expectedAmountInr: '830.00', expectedNetInr: '830.00' } as never);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('PRICE_CHANGED');
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    await withdraw(user, bankAccountId, '10', { expectedAmountInr: '830.00', expectedNetInr: '821.70' });
  });

  it('the payout file pays the net amount', async () => {
    const { user, bankAccountId } = await customer('200');
    await setTdsBasisPoints(100);
    const withdrawal = await withdraw(user, bankAccountId, '100');
    const batch = await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: { withdrawalIds: [withdrawal.id] } });
    expectStatus(batch, 201);
    const batchId = batch.json().batch.id;
    const csv = await call(harness.app, { url: `/api/admin/payout-batches/${batchId}.csv`, cookie: admin.cookie });
    expectStatus(csv, 200);
    const rows = parseCsv(csv.body) ?? [];
    const amountColumn = rows[0]?.indexOf('Amount (INR)') ?? -1;
    expect(rows[1]?.[amountColumn]).toBe('8217.00');
    const detail = (await call(harness.app, { url: `/api/admin/payout-batches/${batchId}`, cookie: admin.cookie })).json();
    expect(detail.withdrawals[0]).toMatchObject({ amountInr: '8300.00', tdsInr: '83.00', netInr: '8217.00' });
    expectStatus(
      await call(harness.app, {
        method: 'POST',
        url: `/api/admin/payout-batches/${batchId}/results`,
        cookie: admin.cookie,
        body: { rows: [{ withdrawalId: withdrawal.id, outcome: 'paid', utr: '777000777000' }] },
      }),
      200,
    );
    // The customer is told what reached the bank: the net amount.
    const notice = await harness.database.handle.db.execute<{ body: string }>(
      sql`select body from notifications where user_id = ${user.id} and kind = 'withdrawal_paid'`,
    );
    expect(notice.rows.map((row) => row.body)).toEqual(['₹8,217.00 was paid to State Bank of India ••••9012. Bank reference (UTR): 777000777000.']);
  });
});

describe('the TDS percent setting', () => {
  it('saves a percentage with up to 2 decimals; empty means 0', async () => {
    const save = async (tdsPercent: unknown) =>
      call(harness.app, {
        method: 'PUT',
        url: '/api/admin/settings',
        cookie: admin.cookie,
        body: await currentSettingsBody(harness.app, admin.cookie, { tdsPercent }),
      });
    const saved = await save('1');
    expectStatus(saved, 200);
    expect(saved.json().settings.tdsPercent).toBe('1.00');
    expect((await save('30')).json().settings.tdsPercent).toBe('30.00');
    expect((await save('')).json().settings.tdsPercent).toBe('0.00');
    for (const [value, message] of [
      ['30.01', 'TDS percent must be a number from 0 to 30'],
      ['-1', 'TDS percent must be a number from 0 to 30'],
      ['1.005', 'TDS percent can have at most 2 decimal places'],
      ['one', 'TDS percent must be a number from 0 to 30'],
    ] as const) {
      const response = await save(value);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(message);
    }
    expect((await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json().tdsPercent).toBe('0.00');
  });
});

describe('the TDS report', () => {
  it('lists withdrawals with TDS that were not rejected, by India date, formula-safe, for admins only', async () => {
    const { user, bankAccountId, pan } = await customer('500');
    // A name the sign-up form refuses, so written directly; the PAN is accepted for it, so the customer stays at KYC level 1.
    await harness.database.handle.db.execute(sql`update profiles set name = ${'=HYPERLINK("http://evil")'} where user_id = ${user.id}`);
    await harness.database.handle.db.execute(sql`update kyc_records set pan_name_accepted = ${'=HYPERLINK("http://evil")'} where user_id = ${user.id}`);
    const noTds = await withdraw(user, bankAccountId, '10');
    await setTdsBasisPoints(100);
    const today = await withdraw(user, bankAccountId, '10');
    const rejected = await withdraw(user, bankAccountId, '20');
    expectStatus(await decide(harness, admin, 'withdrawals', rejected.id, 'reject', {}), 200);
    const earlier = await withdraw(user, bankAccountId, '30');
    // Two days ago in India time.
    await harness.database.handle.db.execute(sql`update withdrawal_requests set created_at = now() - interval '2 days' where id = ${earlier.id}`);
    const [twoDaysAgo, yesterday, todayDate] = [await todayInIndia(-2), await todayInIndia(-1), await todayInIndia()];

    const report = async (from: string, to: string, cookie = admin.cookie) =>
      call(harness.app, { url: `/api/admin/reports/tds.csv?from=${from}&to=${to}`, cookie });
    const todays = await report(todayDate, todayDate);
    expectStatus(todays, 200);
    expect(todays.headers['content-type']).toContain('text/csv');
    expect(todays.headers['content-disposition']).toBe(`attachment; filename="tds-${todayDate}-to-${todayDate}.csv"`);
    const rows = parseCsv(todays.body) ?? [];
    expect(rows[0]).toEqual(['PAN', 'Name', 'Email', 'Withdrawal reference', 'Gross INR', 'TDS INR', 'Net INR', 'TDS %', 'Date (IST)', 'Status']);
    const ours = rows.slice(1).filter((row) => row[2] === user.email);
    expect(ours).toEqual([[pan, `'=HYPERLINK("http://evil")`, user.email, today.id, '830.00', '8.30', '821.70', '1.00', todayDate, 'pending']]);
    for (const line of todays.body.trimEnd().split('\r\n').slice(1)) expect(line).not.toMatch(/(^|,)"[=+\-@]/);
    expect(todays.body).not.toContain(noTds.id);
    expect(todays.body).not.toContain(rejected.id);

    const wider = parseCsv((await report(twoDaysAgo, todayDate)).body) ?? [];
    expect(wider.filter((row) => row[2] === user.email).map((row) => row[3])).toEqual([earlier.id, today.id]);
    const onlyEarlier = parseCsv((await report(twoDaysAgo, yesterday)).body) ?? [];
    expect(onlyEarlier.filter((row) => row[2] === user.email).map((row) => [row[3], row[8]])).toEqual([[earlier.id, twoDaysAgo]]);

    const audit = await harness.database.handle.db.execute<{ count: string }>(
      sql`select count(*)::text as count from audit_log where action = 'reports.tds_export'`,
    );
    expect(Number(audit.rows[0]?.count)).toBeGreaterThanOrEqual(3);

    // Customers cannot read it; bad dates are refused.
    expect((await report(todayDate, todayDate, user.cookie)).statusCode).toBe(403);
    expect((await call(harness.app, { url: `/api/admin/reports/tds.csv?from=${todayDate}&to=${todayDate}` })).statusCode).toBe(401);
    for (const [from, to, message] of [
      ['2026-02-30', '2026-03-01', 'Dates must be real calendar dates (YYYY-MM-DD)'],
      ['26-01-01', '2026-03-01', 'Dates must be YYYY-MM-DD'],
      ['2026-03-02', '2026-03-01', 'The start date must not be after the end date'],
      ['2020-01-01', '2026-03-01', 'The report covers at most 400 days'],
    ] as const) {
      const response = await report(from, to);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe(message);
    }
    expect((await call(harness.app, { url: '/api/admin/reports/tds.csv', cookie: admin.cookie })).statusCode).toBe(400);
  });
});
