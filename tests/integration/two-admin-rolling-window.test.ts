import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, decide, expectStatus, ledgerTransferCount, requestWithdrawal, signUpFundedCustomer } from '../fixtures/wallet.ts';

/*
 * Decision 038: the second approval applies to a customer's (and a payee account's) withdrawals
 * still to be paid plus those approved over a rolling 24 hours, not to one request.
 */

const { harness, admin } = useIntegrationFile();
let second: SignedUpUser;

function db() {
  return harness.database.handle.db;
}

async function withdraw(customer: SignedUpUser, bankAccountId: string, amount: string): Promise<string> {
  const response = await requestWithdrawal(harness, customer, { amount, bankAccountId });
  expectStatus(response, 201);
  return response.json<{ withdrawal: { id: string } }>().withdrawal.id;
}

async function statusOf(id: string): Promise<string | undefined> {
  return (await db().execute<{ status: string }>(sql`select status from withdrawal_requests where id = ${id}`)).rows[0]?.status;
}

let utrCounter = 0;
function rrn(): string {
  utrCounter += 1;
  return `${String(Date.now()).slice(-7)}${String(utrCounter).padStart(5, '0')}`;
}

beforeAll(async () => {
  // The numbers: a two-admin threshold of 2,00,000.00 INR at 83.00 INR per USDT.
  await db().execute(
    sql`update admin_settings set large_withdrawal_inr_paise = 20000000, rate_normal_inr_paise = 8300, rate_vip_inr_paise = 8325 where id = 1`,
  );
  second = await signUpAdminWithVerifiedPin(harness, { fullName: 'Second Admin' });
});

describe('the second approval over a rolling 24 hours', () => {
  it('is not beaten by splitting: three withdrawals just under the threshold each need a second admin', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '8000');
    const bankAccountId = await addBankAccount(harness, customer);
    // 2400 USDT is 1,99,800.00 INR at the better rate a large withdrawal gets: each under 2,00,000 alone.
    const ids = [
      await withdraw(customer, bankAccountId, '2400'),
      await withdraw(customer, bankAccountId, '2400'),
      await withdraw(customer, bankAccountId, '2400'),
    ];
    const transfers = await ledgerTransferCount(harness);
    for (const id of ids) {
      const first = await decide(harness, admin, 'withdrawals', id, 'approve', { payoutReference: rrn() });
      expect(first.statusCode, first.body).toBe(202);
      expect(first.json().pendingChange.kind).toBe('large_withdrawal_approval');
      expect(await statusOf(id)).toBe('pending');
    }
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    // The second admin's approval pays them; an approved one still counts for the next 24 hours.
    for (const id of ids.slice(0, 2)) expectStatus(await decide(harness, second, 'withdrawals', id, 'approve'), 200);
    expectStatus(await decide(harness, admin, 'withdrawals', ids[2] ?? '', 'reject', { reason: 'Test over' }), 200);
    const small = await withdraw(customer, bankAccountId, '10');
    expect((await decide(harness, admin, 'withdrawals', small, 'approve', { payoutReference: rrn() })).statusCode).toBe(202);
    expectStatus(await decide(harness, admin, 'withdrawals', small, 'reject', { reason: 'Test over' }), 200);
  });

  it('lets one admin approve while the customer’s window stays under the threshold, and counts rejected ones out', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '5000');
    const bankAccountId = await addBankAccount(harness, customer, { accountNumber: '555566667777' });
    const rejected = await withdraw(customer, bankAccountId, '2400');
    expectStatus(await decide(harness, admin, 'withdrawals', rejected, 'reject', { reason: 'Test' }), 200);
    const alone = await withdraw(customer, bankAccountId, '2400');
    expectStatus(await decide(harness, admin, 'withdrawals', alone, 'approve', { payoutReference: rrn() }), 200);
    expect(await statusOf(alone)).toBe('approved');
  });

  it('adds up a payee account’s withdrawals across customers', async () => {
    const accountNumber = '987654321098';
    const first = await signUpFundedCustomer(harness, admin, '2000');
    const other = await signUpFundedCustomer(harness, admin, '2000');
    const firstId = await withdraw(first, await addBankAccount(harness, first, { accountNumber }), '1500');
    const otherId = await withdraw(other, await addBankAccount(harness, other, { accountNumber }), '1500');
    // 1,24,500.00 INR each, 2,49,000.00 INR to one account.
    expect((await decide(harness, admin, 'withdrawals', firstId, 'approve', { payoutReference: rrn() })).statusCode).toBe(202);
    expect((await decide(harness, admin, 'withdrawals', otherId, 'approve', { payoutReference: rrn() })).statusCode).toBe(202);
    for (const id of [firstId, otherId]) expectStatus(await decide(harness, admin, 'withdrawals', id, 'reject', { reason: 'Test over' }), 200);
  });

  it('holds a payout batch’s paid rows for a second admin when the customer’s window is over the threshold', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '5000');
    const bankAccountId = await addBankAccount(harness, customer, { accountNumber: '111122223333', upiId: '' });
    const ids = [await withdraw(customer, bankAccountId, '2000'), await withdraw(customer, bankAccountId, '2000')];
    const created = await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: { withdrawalIds: ids } });
    expectStatus(created, 201);
    const batchId = created.json<{ batch: { id: string } }>().batch.id;
    const results = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/payout-batches/${batchId}/results`,
      cookie: admin.cookie,
      body: { rows: ids.map((id) => ({ withdrawalId: id, outcome: 'paid', utr: rrn() })) },
    });
    expect(results.statusCode, results.body).toBe(200);
    expect(results.json()).toMatchObject({ applied: 0, awaitingSecondApproval: 2 });
    for (const id of ids) expect(await statusOf(id)).toBe('processing');
    await call(harness.app, {
      method: 'POST',
      url: `/api/admin/payout-batches/${batchId}/results`,
      cookie: admin.cookie,
      body: { rows: ids.map((id) => ({ withdrawalId: id, outcome: 'failed', reason: 'Test over' })) },
    });
  });
});

describe('a UTR pays one withdrawal', () => {
  it('refuses an approval naming a UTR another withdrawal carries, and moves nothing', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const bankAccountId = await addBankAccount(harness, customer, { accountNumber: '444455556666' });
    const [first, other] = [await withdraw(customer, bankAccountId, '5'), await withdraw(customer, bankAccountId, '5')];
    const utr = rrn();
    expectStatus(await decide(harness, admin, 'withdrawals', first, 'approve', { payoutReference: utr }), 200);
    const transfers = await ledgerTransferCount(harness);
    const reused = await decide(harness, admin, 'withdrawals', other, 'approve', { payoutReference: utr });
    expect(reused.statusCode).toBe(409);
    const reference = (await db().execute<{ reference: string }>(sql`select reference from withdrawal_requests where id = ${first}`)).rows[0]?.reference;
    expect(reused.json().error).toMatchObject({
      message: `This UTR is already recorded for withdrawal ${reference}.`,
      fields: { payoutReference: `This UTR is already recorded for withdrawal ${reference}.` },
    });
    expect(await statusOf(other)).toBe('pending');
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    expectStatus(await decide(harness, admin, 'withdrawals', other, 'reject', { reason: 'Test over' }), 200);
  });

  it('refuses with 409 a second approval whose first approval’s UTR another withdrawal took meanwhile, and moves nothing', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '3000');
    const large = await withdraw(customer, await addBankAccount(harness, customer, { accountNumber: '777788889999' }), '2500');
    const utr = rrn();
    expect((await decide(harness, admin, 'withdrawals', large, 'approve', { payoutReference: utr })).statusCode).toBe(202);
    // The first approval keeps its UTR in the pending change; meanwhile another withdrawal is paid with it.
    const otherCustomer = await signUpFundedCustomer(harness, admin, '100');
    const small = await withdraw(otherCustomer, await addBankAccount(harness, otherCustomer, { accountNumber: '777788880000' }), '5');
    expectStatus(await decide(harness, admin, 'withdrawals', small, 'approve', { payoutReference: utr }), 200);
    const transfers = await ledgerTransferCount(harness);
    const secondApproval = await decide(harness, second, 'withdrawals', large, 'approve');
    expect(secondApproval.statusCode, secondApproval.body).toBe(409);
    expect(secondApproval.json().error).toMatchObject({ code: 'CONFLICT', message: 'This UTR is already recorded for another withdrawal.' });
    expect(await statusOf(large)).toBe('pending');
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    expectStatus(await decide(harness, second, 'withdrawals', large, 'reject', { reason: 'Test over' }), 200);
  });
});
