import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { WalletSummary } from '#shared/contracts/wallet';
import { quoteWithdrawal } from '#shared/contracts/withdrawals';
import { inrPaiseFromWire, inrPaiseToWire, parseUsdtMicros } from '#shared/money';
import { KNOWN_ERC20_ADDRESS, KNOWN_TRON_ADDRESS } from '../fixtures/addresses.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { call, signUpUser, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  approveWithdrawalPaid,
  decide,
  expectLedgerConsistent,
  fixtureAccountNumber,
  fundWallet,
  ledgerTransferCount,
  requestWithdrawal,
  setRates,
  setVipLevel,
} from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness, admin } = useIntegrationFile();
// Runs before the file's ledger check after each test (after-each hooks run in reverse order of registration).
afterEach(async () => setRates(harness, 8300n, 8325n));

/** A PIN-verified customer with a funded wallet and one saved bank account. */
async function fundedCustomer(amount = '100'): Promise<{ user: SignedUpUser; bankAccountId: string }> {
  const user = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, user, amount);
  return { user, bankAccountId: await addBankAccount(harness, user) };
}

async function houseBalance(kind: string): Promise<bigint> {
  const result = await harness.database.handle.db.execute<{ balance: bigint }>(
    sql`select balance_usdt_micros as balance from ledger_accounts where kind = ${kind} and user_id is null`,
  );
  return result.rows[0]?.balance ?? 0n;
}

describe('withdrawal request', () => {
  it('holds the USDT, prices it at the stored normal rate and snapshots the bank details', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const pendingBefore = await houseBalance('withdrawals_pending');
    const response = await requestWithdrawal(harness, user, { amount: '40.5', bankAccountId });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.message).toBe('Withdrawal request submitted successfully');
    expect(body.withdrawal).toMatchObject({
      amountUsdt: '40.500000',
      amountInr: '3361.50',
      rateInr: '83.00',
      rateTier: 'normal',
      status: 'pending',
      bankAccountId,
      bank: { accountHolderName: 'Asha Rao', bankName: 'State Bank of India', accountNumberLast4: '9012', ifscCode: 'SBIN0001234', upiId: 'asha@oksbi' },
      approvedAt: null,
    });
    expect(JSON.stringify(body)).not.toContain(fixtureAccountNumber(user.id));
    expect(await balanceMicros(harness, user.id)).toBe(59_500_000n);
    expect((await houseBalance('withdrawals_pending')) - pendingBefore).toBe(40_500_000n);

    const pending = await call(harness.app, { url: '/api/withdrawals?status=pending', cookie: user.cookie });
    expect(pending.statusCode).toBe(200);
    expect(pending.json().items.map((item: { id: string }) => item.id)).toEqual([body.withdrawal.id]);
    const approved = await call(harness.app, { url: '/api/withdrawals?status=approved', cookie: user.cookie });
    expect(approved.json().items).toEqual([]);

    // Editing the saved account later does not change where this payout goes.
    await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${bankAccountId}`,
      cookie: user.cookie,
      body: { accountNumber: '999999999999', accountNumberConfirmation: '999999999999' },
    });
    const detail = await call(harness.app, { url: `/api/withdrawals/${body.withdrawal.id}`, cookie: user.cookie });
    expect(detail.json().withdrawal.bank.accountNumberLast4).toBe('9012');
  });

  it('gives VIP-level customers the VIP rate', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    await setVipLevel(harness, user, 'vip2');
    const response = await requestWithdrawal(harness, user, { amount: '10', bankAccountId });
    expect(response.json().withdrawal).toMatchObject({ rateTier: 'vip', rateInr: '83.25', amountInr: '832.50' });
  });

  it('gives the VIP rate from 1,00,000 INR at the normal rate, and not below', async () => {
    await setRates(harness, 10_000n, 10_050n);
    const { user, bankAccountId } = await fundedCustomer('3000');
    const below = await requestWithdrawal(harness, user, { amount: '999.99', bankAccountId });
    expect(below.json().withdrawal).toMatchObject({ rateTier: 'normal', rateInr: '100.00', amountInr: '99999.00' });
    const atThreshold = await requestWithdrawal(harness, user, { amount: '1000', bankAccountId });
    expect(atThreshold.json().withdrawal).toMatchObject({ rateTier: 'vip', rateInr: '100.50', amountInr: '100500.00' });
  });

  it.each([
    [{ amount: '10.123' }, 'amount', 'Amount can have at most 2 decimal places.'],
    [{ amount: '0.99' }, 'amount', 'Minimum withdrawal is 1.00 USDT'],
    [{ amount: '0' }, 'amount', 'Please enter a valid amount'],
    [{ amount: 'ten' }, 'amount', 'Please enter a valid amount'],
    [{ amount: '' }, 'amount', 'Please enter a valid amount'],
    [{ amount: '5', bankAccountId: '' }, 'bankAccountId', 'Please select a bank account'],
    [{ amount: '5', bankAccountId: undefined }, 'bankAccountId', 'Please select a bank account'],
    [{ amount: '5', pin: '12' }, 'pin', 'PIN must be exactly 4 digits'],
    [{ amount: '5', pin: '' }, 'pin', 'Please enter your 4-digit PIN'],
  ])('refuses %j with a clear message and moves nothing', async (override, field, message) => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const before = await ledgerTransferCount(harness);
    const response = await requestWithdrawal(harness, user, { bankAccountId, ...override } as { amount: string; bankAccountId: string });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { [field]: message } });
    expect(await ledgerTransferCount(harness)).toBe(before);
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);
  });

  it('refuses more than the balance with "Insufficient balance"', async () => {
    const { user, bankAccountId } = await fundedCustomer('50');
    const response = await requestWithdrawal(harness, user, { amount: '50.01', bankAccountId });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', message: 'Insufficient balance' });
    expect(await balanceMicros(harness, user.id)).toBe(50_000_000n);
    const rows = await harness.database.handle.db.execute(sql`select 1 from withdrawal_requests where user_id = ${user.id}`);
    expect(rows.rows).toHaveLength(0);
    expect((await requestWithdrawal(harness, user, { amount: '50', bankAccountId })).statusCode).toBe(201);
  });

  it('checks the PIN in the same request, counts wrong ones and ends the sessions at the third', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const first = await requestWithdrawal(harness, user, { amount: '10', bankAccountId, pin: '0000' });
    expect(first.statusCode).toBe(400);
    expect(first.json().error).toMatchObject({ code: 'PIN_INCORRECT', message: 'Incorrect PIN. Please try again.', remainingAttempts: 2 });
    await requestWithdrawal(harness, user, { amount: '10', bankAccountId, pin: '0001' });
    const third = await requestWithdrawal(harness, user, { amount: '10', bankAccountId, pin: '0002' });
    expect(third.statusCode).toBe(401);
    expect(third.json().error.code).toBe('PIN_LOCKED');
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);
    expect((await call(harness.app, { url: '/api/me', cookie: user.cookie })).statusCode).toBe(401);
  });

  it("refuses another customer's bank account as not found", async () => {
    const { user } = await fundedCustomer('100');
    const stranger = await signUpVerifiedUser(harness.app);
    const strangersAccount = await addBankAccount(harness, stranger);
    const response = await requestWithdrawal(harness, user, { amount: '10', bankAccountId: strangersAccount });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatchObject({ code: 'NOT_FOUND', message: 'Bank account not found' });
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);
  });

  it('needs a PIN-verified session', async () => {
    const user = await signUpUser(harness.app);
    const response = await requestWithdrawal(harness, user, { amount: '10', bankAccountId: '00000000-0000-4000-8000-000000000000' });
    expect(response.statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/withdrawals', cookie: user.cookie })).statusCode).toBe(403);
  });

  it('lets exactly one of 20 concurrent withdrawals of the whole balance through', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const answers = await Promise.all(Array.from({ length: 20 }, () => requestWithdrawal(harness, user, { amount: '100', bankAccountId })));
    const created = answers.filter((answer) => answer.statusCode === 201);
    expect(created).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.statusCode !== 201)) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error.code).toBe('INSUFFICIENT_BALANCE');
    }
    expect(await balanceMicros(harness, user.id)).toBe(0n);
    const rows = await harness.database.handle.db.execute(sql`select 1 from withdrawal_requests where user_id = ${user.id}`);
    expect(rows.rows).toHaveLength(1);
  });

  it("answers 404 for another customer's withdrawal", async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const stranger = await signUpVerifiedUser(harness.app);
    const id = (await requestWithdrawal(harness, user, { amount: '10', bankAccountId })).json().withdrawal.id;
    const response = await call(harness.app, { url: `/api/withdrawals/${id}`, cookie: stranger.cookie });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toBe('Withdrawal not found');
    expect((await call(harness.app, { url: '/api/withdrawals', cookie: stranger.cookie })).json().items).toEqual([]);
  });
});

describe('the INR amount the customer confirmed', () => {
  const PRICE_CHANGED = 'The exchange rate has changed. Please review the new amount and confirm again.';

  async function withdrawalRowCount(userId: string): Promise<number> {
    const rows = await harness.database.handle.db.execute(sql`select 1 from withdrawal_requests where user_id = ${userId}`);
    return rows.rows.length;
  }

  /** What /wallet/withdraw previews: the summary's rates and tier through the shared quote rule. */
  async function previewInr(user: SignedUpUser, amount: string): Promise<string> {
    const summary = await call(harness.app, { url: '/api/wallet/summary', cookie: user.cookie });
    expect(summary.statusCode).toBe(200);
    const { rates, rateTier } = summary.json<WalletSummary>();
    const micros = parseUsdtMicros(amount, 2);
    if (!micros.ok) throw new Error(`bad test amount ${amount}`);
    const quote = quoteWithdrawal(
      micros.value,
      { rateNormalInrPaise: inrPaiseFromWire(rates.normalInr), rateVipInrPaise: inrPaiseFromWire(rates.vipInr) },
      rateTier,
    );
    return inrPaiseToWire(quote.amountInrPaise);
  }

  /** Changes the normal rate as an admin does on the settings page: GET the settings, PUT them back with the new rate. */
  async function adminSetsNormalRate(normalRate: string): Promise<void> {
    const current = await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie });
    expect(current.statusCode).toBe(200);
    const { vipRate, whatsappSupportNumber, websiteUrl, minDeposit, updatedAt } = current.json();
    const saved = await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: admin.cookie,
      body: {
        normalRate,
        vipRate,
        // The save verifies address checksums, which the deposit fixture's TRON address does not pass.
        trc20Address: KNOWN_TRON_ADDRESS,
        erc20Address: KNOWN_ERC20_ADDRESS,
        whatsappSupportNumber,
        websiteUrl,
        minDeposit,
        // The version being edited, for the settings save's optimistic lock.
        expectedUpdatedAt: updatedAt,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }

  it('makes the withdrawal when the confirmed amount is the computed one, in any decimal form', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const exact = await requestWithdrawal(harness, user, { amount: '40.5', bankAccountId, expectedAmountInr: '3361.50' });
    expect(exact.statusCode).toBe(201);
    expect(exact.json().withdrawal).toMatchObject({ amountUsdt: '40.500000', amountInr: '3361.50', rateInr: '83.00' });
    const shortForm = await requestWithdrawal(harness, user, { amount: '40.5', bankAccountId, expectedAmountInr: '3361.5' });
    expect(shortForm.statusCode).toBe(201);
    expect(await balanceMicros(harness, user.id)).toBe(19_000_000n);
  });

  it.each(['3361.49', '3361.51', '0', '3361'])('refuses a confirmed amount of %s with 409, creating and moving nothing', async (expectedAmountInr) => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const transfersBefore = await ledgerTransferCount(harness);
    const response = await requestWithdrawal(harness, user, { amount: '40.5', bankAccountId, expectedAmountInr });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({ code: 'PRICE_CHANGED', message: PRICE_CHANGED });
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);
    expect(await withdrawalRowCount(user.id)).toBe(0);
    expect(await ledgerTransferCount(harness)).toBe(transfersBefore);
    await expectLedgerConsistent(harness);
  });

  it('refuses the previewed amount when an admin changes the rate before the submit, then takes the new one', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const previewed = await previewInr(user, '10');
    expect(previewed).toBe('830.00');

    await adminSetsNormalRate('82.50');
    const headers = { 'idempotency-key': 'withdraw-price-changed' };
    const refused = await requestWithdrawal(harness, user, { amount: '10', bankAccountId, expectedAmountInr: previewed }, headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toEqual({ code: 'PRICE_CHANGED', message: PRICE_CHANGED });
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);
    expect(await withdrawalRowCount(user.id)).toBe(0);
    await expectLedgerConsistent(harness);

    // The refusal keeps no answer for the key: the customer confirms the new amount with the same one.
    const repreviewed = await previewInr(user, '10');
    expect(repreviewed).toBe('825.00');
    const confirmed = await requestWithdrawal(harness, user, { amount: '10', bankAccountId, expectedAmountInr: repreviewed }, headers);
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json().withdrawal).toMatchObject({ amountInr: '825.00', rateInr: '82.50', rateTier: 'normal' });
    expect(await balanceMicros(harness, user.id)).toBe(90_000_000n);
  });

  it('checks VIP-level customers against the VIP rate', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    await setVipLevel(harness, user, 'vip1');
    const previewed = await previewInr(user, '10');
    expect(previewed).toBe('832.50');
    expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId, expectedAmountInr: '830.00' })).statusCode).toBe(409);
    expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId, expectedAmountInr: previewed })).statusCode).toBe(201);
  });

  it('replays a withdrawal already made when its retry confirms another amount, and never makes a second one', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const headers = { 'idempotency-key': 'withdraw-lost-answer' };
    const first = await requestWithdrawal(harness, user, { amount: '10', bankAccountId, expectedAmountInr: '830.00' }, headers);
    expect(first.statusCode).toBe(201);
    await setRates(harness, 8250n, 8275n);
    const retry = await requestWithdrawal(harness, user, { amount: '10', bankAccountId, expectedAmountInr: '825.00' }, headers);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await balanceMicros(harness, user.id)).toBe(90_000_000n);
    expect(await withdrawalRowCount(user.id)).toBe(1);
  });

  it('without a confirmed amount, prices the withdrawal at the stored rate as before', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    await adminSetsNormalRate('82.50');
    const response = await requestWithdrawal(harness, user, { amount: '10', bankAccountId });
    expect(response.statusCode).toBe(201);
    expect(response.json().withdrawal).toMatchObject({ amountInr: '825.00', rateInr: '82.50' });
  });

  it.each(['12.345', 'ten', '-830.00', '', '1'.repeat(25)])('refuses a malformed confirmed amount %j with a clear message', async (expectedAmountInr) => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const response = await requestWithdrawal(harness, user, { amount: '10', bankAccountId, expectedAmountInr });
    expect(response.statusCode).toBe(400);
    const message = 'The confirmed INR amount is not valid.';
    expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message, fields: { expectedAmountInr: message } });
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);
  });
});

describe('Idempotency-Key on withdrawals', () => {
  it('makes one withdrawal of a retried request and replays the first answer', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const headers = { 'idempotency-key': 'withdraw-7f3a' };
    const first = await requestWithdrawal(harness, user, { amount: '30', bankAccountId }, headers);
    const retry = await requestWithdrawal(harness, user, { amount: '30', bankAccountId }, headers);
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await balanceMicros(harness, user.id)).toBe(70_000_000n);
  });

  it('makes one withdrawal when the same key arrives many times at once', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const headers = { 'idempotency-key': 'withdraw-concurrent' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => requestWithdrawal(harness, user, { amount: '10', bankAccountId }, headers)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array<number>(6).fill(201));
    expect(new Set(answers.map((answer) => answer.json().withdrawal.id)).size).toBe(1);
    expect(await balanceMicros(harness, user.id)).toBe(90_000_000n);
  });

  it('refuses the same key with a different request', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const headers = { 'idempotency-key': 'withdraw-reused' };
    expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId }, headers)).statusCode).toBe(201);
    const different = await requestWithdrawal(harness, user, { amount: '20', bankAccountId }, headers);
    expect(different.statusCode).toBe(422);
    expect(different.json().error).toMatchObject({
      code: 'IDEMPOTENCY_MISMATCH',
      message: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
    });
    expect(await balanceMicros(harness, user.id)).toBe(90_000_000n);
  });

  it('runs a retry again when the first attempt failed, and keeps keys per customer', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const headers = { 'idempotency-key': 'withdraw-after-failure' };
    expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId, pin: '0000' }, headers)).statusCode).toBe(400);
    expect((await requestWithdrawal(harness, user, { amount: '10', bankAccountId }, headers)).statusCode).toBe(201);
    const other = await fundedCustomer('100');
    expect((await requestWithdrawal(harness, other.user, { amount: '10', bankAccountId: other.bankAccountId }, headers)).statusCode).toBe(201);
    expect(await balanceMicros(harness, other.user.id)).toBe(90_000_000n);
  });

  it('refuses a malformed key', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const response = await requestWithdrawal(harness, user, { amount: '10', bankAccountId }, { 'idempotency-key': 'x'.repeat(101) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('The Idempotency-Key header can have at most 100 characters.');
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);
  });
});

describe('withdrawal decisions', () => {
  it('approves: the held USDT moves to withdrawals paid, with the UTR, once', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const id = (await requestWithdrawal(harness, user, { amount: '25', bankAccountId })).json().withdrawal.id;
    const paidBefore = await houseBalance('withdrawals_paid');
    const response = await decide(harness, admin, 'withdrawals', id, 'approve', { payoutReference: ' 123456789012 ' });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Withdrawal approved successfully');
    expect(response.json().withdrawal).toMatchObject({ status: 'approved', payoutReference: '123456789012' });
    expect(response.json().withdrawal.approvedAt).not.toBeNull();
    expect((await houseBalance('withdrawals_paid')) - paidBefore).toBe(25_000_000n);
    expect(await balanceMicros(harness, user.id)).toBe(75_000_000n);

    const again = await decide(harness, admin, 'withdrawals', id, 'reject');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'ALREADY_DECIDED', message: 'This withdrawal has already been approved.' });
    expect(await balanceMicros(harness, user.id)).toBe(75_000_000n);
    const audit = await harness.database.handle.db.execute<{ action: string }>(sql`select action from audit_log where target_id = ${id}`);
    expect(audit.rows).toEqual([{ action: 'withdrawal.approve' }]);
  });

  it('rejects: refunds exactly the USDT held (not the INR amount)', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const id = (await requestWithdrawal(harness, user, { amount: '12.34', bankAccountId })).json().withdrawal.id;
    expect(await balanceMicros(harness, user.id)).toBe(87_660_000n);
    const response = await decide(harness, admin, 'withdrawals', id, 'reject', { reason: 'Bank details do not match' });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Withdrawal rejected and funds returned to user');
    expect(response.json().withdrawal).toMatchObject({ status: 'rejected', rejectionReason: 'Bank details do not match', approvedAt: null });
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);
    expect((await decide(harness, admin, 'withdrawals', id, 'reject')).statusCode).toBe(409);
    expect(await balanceMicros(harness, user.id)).toBe(100_000_000n);
  });

  it('lets exactly one of a racing approve and reject win', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    for (let round = 0; round < 5; round += 1) {
      const id = (await requestWithdrawal(harness, user, { amount: '10', bankAccountId })).json().withdrawal.id;
      const answers = await Promise.all([
        approveWithdrawalPaid(harness, admin, id),
        decide(harness, admin, 'withdrawals', id, 'reject'),
        approveWithdrawalPaid(harness, admin, id),
        decide(harness, admin, 'withdrawals', id, 'reject'),
      ]);
      expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.statusCode === 409)).toHaveLength(3);
    }
    await expectLedgerConsistent(harness);
  });

  it('refuses a bad payout reference and changes nothing', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const id = (await requestWithdrawal(harness, user, { amount: '10', bankAccountId })).json().withdrawal.id;
    const tooLong = await decide(harness, admin, 'withdrawals', id, 'approve', { payoutReference: 'A'.repeat(65) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toBe('The payout reference (UTR) can have at most 64 characters.');
    const formula = await decide(harness, admin, 'withdrawals', id, 'approve', { payoutReference: '=cmd()' });
    expect(formula.statusCode).toBe(400);
    const detail = await call(harness.app, { url: `/api/withdrawals/${id}`, cookie: user.cookie });
    expect(detail.json().withdrawal.status).toBe('pending');
  });

  it('is for admins only', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const id = (await requestWithdrawal(harness, user, { amount: '10', bankAccountId })).json().withdrawal.id;
    expect((await decide(harness, user, 'withdrawals', id, 'approve')).statusCode).toBe(403);
    expect((await decide(harness, user, 'withdrawals', id, 'reject')).statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/admin/withdrawals', cookie: user.cookie })).statusCode).toBe(403);
    expect(await balanceMicros(harness, user.id)).toBe(90_000_000n);
  });
});

describe('four eyes on withdrawals', () => {
  it('does not let an admin decide their own withdrawal', async () => {
    const selfAdmin = await signUpAdminWithVerifiedPin(harness);
    await fundWallet(harness, admin, selfAdmin, '50');
    const bankAccountId = await addBankAccount(harness, selfAdmin);
    const id = (await requestWithdrawal(harness, selfAdmin, { amount: '10', bankAccountId })).json().withdrawal.id;
    const response = await decide(harness, selfAdmin, 'withdrawals', id, 'approve');
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe('You cannot approve or reject your own withdrawal. Another admin must decide it.');
    expect((await approveWithdrawalPaid(harness, admin, id)).statusCode).toBe(200);
  });
});

describe('admin withdrawal queue', () => {
  it('shows admins the full bank details and the customer', async () => {
    const { user, bankAccountId } = await fundedCustomer('100');
    const id = (await requestWithdrawal(harness, user, { amount: '10', bankAccountId })).json().withdrawal.id;
    const response = await call(harness.app, { url: '/api/admin/withdrawals?status=pending&limit=100', cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    const item = response.json().items.find((candidate: { id: string }) => candidate.id === id);
    expect(item).toMatchObject({
      user: { id: user.id, email: user.email, name: 'Asha Rao' },
      bank: {
        accountHolderName: 'Asha Rao',
        accountNumber: fixtureAccountNumber(user.id),
        ifscCode: 'SBIN0001234',
        bankName: 'State Bank of India',
        upiId: 'asha@oksbi',
      },
      amountInr: '830.00',
    });
  });
});
