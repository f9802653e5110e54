import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import type { SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, balanceMicros, expectStatus, ledgerTransferCount, requestWithdrawal, signUpFundedCustomer } from '../fixtures/wallet.ts';

// A withdrawal request checks the PIN before its money transaction, as a transfer does (decision 022):
// these tests show that what the PIN check records stays recorded when the withdrawal after it is
// refused. How many statements a request sends is a speed figure: `npm run bench` prints it beside
// its budget.
const { harness, admin } = useIntegrationFile();

/** A PIN that is not the user's. */
function wrongPinOf(user: SignedUpUser): string {
  return user.pin === '0000' ? '1111' : '0000';
}

async function failedAttempts(user: SignedUpUser): Promise<number> {
  const result = await harness.database.handle.db.execute<{ failed_attempts: number }>(sql`select failed_attempts from user_pins where user_id = ${user.id}`);
  return Number(result.rows[0]?.failed_attempts);
}

/** The attempts counted under the PIN's rate-limit key of the address app.inject sends from. */
async function pinAttemptsFromTestAddress(): Promise<number> {
  const result = await harness.database.handle.db.execute<{ hits: number }>(sql`select hits from rate_limit_buckets where key = 'pin:ip:127.0.0.1'`);
  return Number(result.rows[0]?.hits ?? 0);
}

describe('withdrawal request round trips', () => {
  it('makes a withdrawal with the PIN checked, moving its amount once', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const bankAccountId = await addBankAccount(harness, customer);
    expectStatus(await requestWithdrawal(harness, customer, { amount: '1', bankAccountId }), 201);
    expectStatus(await requestWithdrawal(harness, customer, { amount: '1', bankAccountId }), 201);
    expect(await balanceMicros(harness, customer.id)).toBe(98_000_000n);
  });

  it("refuses a bank account that is not the customer's before the PIN, counting no attempt", async () => {
    const customer = await signUpFundedCustomer(harness, admin, '10');
    const stranger = await signUpFundedCustomer(harness, admin, '10');
    const strangersAccount = await addBankAccount(harness, stranger);
    const attemptsBefore = await pinAttemptsFromTestAddress();
    const answer = await requestWithdrawal(harness, customer, { amount: '1', bankAccountId: strangersAccount, pin: wrongPinOf(customer) });
    expect(answer.statusCode).toBe(404);
    expect(answer.json().error).toMatchObject({ code: 'NOT_FOUND', message: 'Bank account not found' });
    expect(await failedAttempts(customer)).toBe(0);
    expect(await pinAttemptsFromTestAddress()).toBe(attemptsBefore);
    expect(await balanceMicros(harness, customer.id)).toBe(10_000_000n);
  });

  it('keeps the wrong-PIN count cleared by a right PIN when the withdrawal after it is refused', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '10');
    const bankAccountId = await addBankAccount(harness, customer);
    const wrong = await requestWithdrawal(harness, customer, { amount: '1', bankAccountId, pin: wrongPinOf(customer) });
    expect(wrong.json().error).toMatchObject({ code: 'PIN_INCORRECT', remainingAttempts: 2 });
    expect(await failedAttempts(customer)).toBe(1);
    const before = await ledgerTransferCount(harness);

    const refused = await requestWithdrawal(harness, customer, { amount: '50', bankAccountId });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('INSUFFICIENT_BALANCE');
    // The right PIN cleared the count although the withdrawal moved nothing.
    expect(await failedAttempts(customer)).toBe(0);
    expect(await ledgerTransferCount(harness)).toBe(before);
    expect(await balanceMicros(harness, customer.id)).toBe(10_000_000n);
  });

  it('refuses a wrong PIN before the money transaction and counts it, with nothing moved', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '10');
    const bankAccountId = await addBankAccount(harness, customer);
    const before = await ledgerTransferCount(harness);
    const wrong = await requestWithdrawal(harness, customer, { amount: '1', bankAccountId, pin: wrongPinOf(customer) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'PIN_INCORRECT', message: 'Incorrect PIN. Please try again.', remainingAttempts: 2 });
    expect(await failedAttempts(customer)).toBe(1);
    expect(await ledgerTransferCount(harness)).toBe(before);
    expect(await balanceMicros(harness, customer.id)).toBe(10_000_000n);
  });

  it('replays an answered Idempotency-Key only after the right PIN, and after a cleared wrong-PIN count too', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '10');
    const bankAccountId = await addBankAccount(harness, customer);
    const headers = { 'idempotency-key': 'round-trips-replay-0001' };
    const first = await requestWithdrawal(harness, customer, { amount: '2', bankAccountId }, headers);
    expectStatus(first, 201);
    const wrongPin = wrongPinOf(customer);
    const wrong = await requestWithdrawal(harness, customer, { amount: '2', bankAccountId, pin: wrongPin }, headers);
    expect(wrong.json().error.code).toBe('PIN_INCORRECT');
    // A wrong PIN is waiting to be cleared: the right PIN's check commits on its own, then the answer is replayed.
    const replayed = await requestWithdrawal(harness, customer, { amount: '2', bankAccountId }, headers);
    expect(replayed.statusCode).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json().withdrawal.id).toBe(first.json().withdrawal.id);
    expect(await failedAttempts(customer)).toBe(0);
    // And without a wrong PIN before it, in the withdrawal's own transaction.
    const again = await requestWithdrawal(harness, customer, { amount: '2', bankAccountId }, headers);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().withdrawal.id).toBe(first.json().withdrawal.id);
    expect(await balanceMicros(harness, customer.id)).toBe(8_000_000n);
  });

  it('serves many customers withdrawing at once, each once, with the books balanced', async () => {
    const customers = await Promise.all([1, 2, 3, 4].map(() => signUpFundedCustomer(harness, admin, '10')));
    const accounts = await Promise.all(customers.map((customer) => addBankAccount(harness, customer)));
    const answers = await Promise.all(
      customers.flatMap((customer, index) =>
        [1, 2, 3].map(() => requestWithdrawal(harness, customer, { amount: '3', bankAccountId: accounts[index] as string })),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(12).fill(201));
    for (const customer of customers) expect(await balanceMicros(harness, customer.id)).toBe(1_000_000n);
  });
});
