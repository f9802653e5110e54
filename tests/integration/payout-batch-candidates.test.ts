import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PayoutBatchCandidates } from '#shared/contracts/payout-batches';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, expectStatus, fundWallet, requestWithdrawal } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

/*
 * "New batch" lets the admin choose rows (issue 31): the pending withdrawals a batch may take, filtered by amount,
 * age and bank, oldest first; the chosen ones then make the batch.
 */

const { harness, admin } = useIntegrationFile();

async function customerWithWithdrawals(amounts: string[], bankOverrides: Record<string, unknown> = {}): Promise<{ user: SignedUpUser; ids: string[] }> {
  const user = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, user, '1000');
  const bankAccountId = await addBankAccount(harness, user, bankOverrides);
  const ids: string[] = [];
  for (const amount of amounts) {
    const response = await requestWithdrawal(harness, user, { amount, bankAccountId });
    expectStatus(response, 201);
    ids.push(response.json<{ withdrawal: { id: string } }>().withdrawal.id);
  }
  return { user, ids };
}

function candidates(query = '', cookie = admin.cookie) {
  return call(harness.app, { url: `/api/admin/payout-batches/candidates${query}`, cookie });
}

async function candidateIds(query = ''): Promise<string[]> {
  const response = await candidates(query);
  expectStatus(response, 200);
  return response.json<PayoutBatchCandidates>().items.map((item) => item.id);
}

describe('GET /api/admin/payout-batches/candidates', () => {
  it('lists the pending withdrawals oldest first, filters them by amount, age and bank, and a batch of the chosen ones takes exactly those', async () => {
    const sbi = await customerWithWithdrawals(['100', '300']);
    const hdfc = await customerWithWithdrawals(['200'], { ifscCode: 'HDFC0001234', upiId: null });
    const [small, large] = sbi.ids;
    const [middle] = hdfc.ids;

    const all = await candidates();
    expectStatus(all, 200);
    const answer = all.json<PayoutBatchCandidates>();
    expect(answer.items.map((item) => item.id)).toEqual([small, large, middle]);
    expect(answer.totalMatching).toBe(3);
    expect(answer.ceiling).toBe(500);
    const middleRow = answer.items.find((item) => item.id === middle);
    expect(middleRow).toMatchObject({ bankName: 'HDFC Bank', upiId: null, customerEmail: hdfc.user.email });
    expect(middleRow?.reference).toMatch(/^RD[A-Z0-9]{8}$/);
    expect(middleRow?.accountNumberLast4).toMatch(/^\d{4}$/);

    const amountOf = (id: string | undefined) => answer.items.find((item) => item.id === id)?.amountInr ?? '';
    expect(await candidateIds(`?minInr=${amountOf(middle)}`)).toEqual([large, middle]);
    expect(await candidateIds(`?maxInr=${amountOf(middle)}`)).toEqual([small, middle]);
    expect(await candidateIds(`?minInr=${amountOf(middle)}&maxInr=${amountOf(middle)}`)).toEqual([middle]);
    expect(await candidateIds('?bank=hdfc')).toEqual([middle]);
    expect(await candidateIds('?bank=State%20Bank')).toEqual([small, large]);
    expect(await candidateIds('?bank=%25')).toEqual([]);

    expect(await candidateIds('?olderThanHours=2')).toEqual([]);
    await harness.database.handle.db.execute(sql`update withdrawal_requests set created_at = now() - interval '3 hours' where id = ${large}`);
    expect(await candidateIds('?olderThanHours=2')).toEqual([large]);

    const batch = await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: { withdrawalIds: [middle] } });
    expectStatus(batch, 201);
    expect(batch.json<{ batch: { count: number } }>().batch.count).toBe(1);
    expect(await candidateIds()).toEqual([large, small]);
  });

  it('refuses bad filters with 400 at the field', async () => {
    for (const [query, field] of [
      ['?minInr=abc', 'minInr'],
      ['?maxInr=-5', 'maxInr'],
      ['?minInr=1.234', 'minInr'],
      ['?olderThanHours=-1', 'olderThanHours'],
      ['?olderThanHours=1.5', 'olderThanHours'],
      [`?bank=${'x'.repeat(101)}`, 'bank'],
    ] as const) {
      const response = await candidates(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ error: { fields: Record<string, string> } }>().error.fields[field], query).toBeTruthy();
    }
  });

  it('is for admins only', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    expect((await candidates('', customer.cookie)).statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/admin/payout-batches/candidates' })).statusCode).toBe(401);
  });
});
