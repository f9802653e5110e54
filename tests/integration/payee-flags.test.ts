import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, balanceMicros, expectStatus, ledgerTransferCount, requestWithdrawal, signUpFundedCustomer } from '../fixtures/wallet.ts';

/* Decision 044: a payee whose payout failed for a reason of the account is flagged and not selectable until edited. */

const { harness, admin } = useIntegrationFile();

async function referenceOf(id: string): Promise<string> {
  return (
    (await harness.database.handle.db.execute<{ reference: string }>(sql`select reference from withdrawal_requests where id = ${id}`)).rows[0]?.reference ?? ''
  );
}

async function withdrawalFailedWith(customer: SignedUpUser, bankAccountId: string, reason: string): Promise<void> {
  const response = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId });
  expectStatus(response, 201);
  const id = response.json<{ withdrawal: { id: string } }>().withdrawal.id;
  const batch = await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: { withdrawalIds: [id] } });
  expectStatus(batch, 201);
  const batchId = batch.json<{ batch: { id: string } }>().batch.id;
  const results = await call(harness.app, {
    method: 'POST',
    url: `/api/admin/payout-batches/${batchId}/results`,
    cookie: admin.cookie,
    body: { rows: [{ reference: await referenceOf(id), outcome: 'failed', reason }] },
  });
  expectStatus(results, 200);
}

async function accountOf(customer: SignedUpUser, id: string): Promise<{ flaggedAt: string | null; flagReason: string | null }> {
  const list = await call(harness.app, { url: '/api/bank-accounts', cookie: customer.cookie });
  return (
    list.json<{ items: { id: string; flaggedAt: string | null; flagReason: string | null }[] }>().items.find((item) => item.id === id) ?? {
      flaggedAt: 'missing',
      flagReason: null,
    }
  );
}

describe('payee flags', () => {
  it('flags an account whose payout failed "Account closed", refuses withdrawals to it, and an edit clears the flag and restarts the cooling-off', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const bankAccountId = await addBankAccount(harness, customer);
    await withdrawalFailedWith(customer, bankAccountId, 'A/C CLOSED');
    expect(await balanceMicros(harness, customer.id)).toBe(100_000_000n);
    const flagged = await accountOf(customer, bankAccountId);
    expect(flagged.flaggedAt).not.toBeNull();
    expect(flagged.flagReason).toBe('Account closed');

    const transfers = await ledgerTransferCount(harness);
    const refused = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId });
    const message = 'A payout to this bank account failed (Account closed). Check its details and edit the account before you withdraw to it.';
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ message, fields: { bankAccountId: message } });
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    expect(await balanceMicros(harness, customer.id)).toBe(100_000_000n);

    const changedAt = async () =>
      BigInt(
        (
          await harness.database.handle.db.execute<{ changed: string }>(
            sql`select (extract(epoch from details_changed_at) * 1000000)::bigint::text as changed from bank_accounts where id = ${bankAccountId}`,
          )
        ).rows[0]?.changed ?? '0',
      );
    const before = await changedAt();
    const edit = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${bankAccountId}`,
      cookie: customer.cookie,
      body: { accountNumber: '123456789012', accountNumberConfirmation: '123456789012' },
    });
    expectStatus(edit, 200);
    expect(edit.json().bankAccount).toMatchObject({ flaggedAt: null, flagReason: null });
    expect(await changedAt()).toBeGreaterThan(before);
    // The test app has no cooling-off hours, so the edited account takes a withdrawal at once.
    expectStatus(await requestWithdrawal(harness, customer, { amount: '10', bankAccountId }), 201);
  });

  it.each(['Invalid account number', 'Account frozen by bank', 'Beneficiary account dormant', 'ACCOUNT DOES NOT EXIST'])('flags on "%s"', async (reason) => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const bankAccountId = await addBankAccount(harness, customer);
    await withdrawalFailedWith(customer, bankAccountId, reason);
    expect((await accountOf(customer, bankAccountId)).flaggedAt).not.toBeNull();
  });

  it('does not flag an account for a failure that is not about the account, nor when the customer changed it since', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const bankAccountId = await addBankAccount(harness, customer);
    await withdrawalFailedWith(customer, bankAccountId, 'Bank server timeout, please retry');
    expect(await accountOf(customer, bankAccountId)).toMatchObject({ flaggedAt: null, flagReason: null });
    expectStatus(await requestWithdrawal(harness, customer, { amount: '10', bankAccountId }), 201);

    // Pending when the details change: the failure was of the old details, so the edited account is not flagged.
    const other = await addBankAccount(harness, customer);
    const pending = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: other });
    expectStatus(pending, 201);
    const id = pending.json<{ withdrawal: { id: string } }>().withdrawal.id;
    expectStatus(
      await call(harness.app, {
        method: 'PATCH',
        url: `/api/bank-accounts/${other}`,
        cookie: customer.cookie,
        body: { accountNumber: '223456789012', accountNumberConfirmation: '223456789012' },
      }),
      200,
    );
    expectStatus(
      await call(harness.app, { method: 'POST', url: `/api/admin/withdrawals/${id}/reject`, cookie: admin.cookie, body: { reason: 'Account closed' } }),
      200,
    );
    expect((await accountOf(customer, other)).flaggedAt).toBeNull();
  });
});
