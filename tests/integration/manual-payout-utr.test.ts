import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, type SignedUpUser } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  decide,
  expectLedgerConsistent,
  expectStatus,
  ledgerTransferCount,
  requestWithdrawal,
  signUpFundedCustomer,
  utrFor,
} from '../fixtures/wallet.ts';

/*
 * Decision 049 (issue 31, "Not done if"): without a payout provider an admin's approve records a payment made by
 * hand, so it needs the payment's UTR, of its rail's form, on no other withdrawal. Also for the second admin's confirm.
 */

const { harness, admin } = useIntegrationFile();
const REQUIRED = 'Enter the UTR of the bank payment to mark this withdrawal paid.';

function db() {
  return harness.database.handle.db;
}

/** A pending withdrawal to a payee paid by IMPS, or by UPI when it has a UPI id. */
async function pendingWithdrawal(amount = '10', upiId?: string): Promise<{ customer: SignedUpUser; id: string }> {
  const customer = await signUpFundedCustomer(harness, admin, '3000');
  const bankAccountId = await addBankAccount(harness, customer, { upiId });
  const response = await requestWithdrawal(harness, customer, { amount, bankAccountId });
  expectStatus(response, 201);
  return { customer, id: response.json<{ withdrawal: { id: string } }>().withdrawal.id };
}

async function rowOf(id: string) {
  const result = await db().execute<{ status: string; payout_reference: string | null }>(
    sql`select status, payout_reference from withdrawal_requests where id = ${id}`,
  );
  return result.rows[0];
}

async function auditCount(id: string): Promise<number> {
  return (await db().execute(sql`select 1 from audit_log where target_id = ${id} and action = 'withdrawal.approve'`)).rows.length;
}

async function openFirstApprovals(id: string): Promise<number> {
  const result = await db().execute(sql`select 1 from pending_changes where kind = 'large_withdrawal_approval' and subject = ${id} and status = 'open'`);
  return result.rows.length;
}

function approve(by: SignedUpUser, id: string, payoutReference?: string) {
  return decide(harness, by, 'withdrawals', id, 'approve', payoutReference === undefined ? {} : { payoutReference });
}

/** Asserts the refusal changed nothing: still pending, no UTR, no money moved, no audit row. */
async function expectUnchanged(id: string, transfersBefore: bigint): Promise<void> {
  expect(await rowOf(id)).toEqual({ status: 'pending', payout_reference: null });
  expect(await ledgerTransferCount(harness)).toBe(transfersBefore);
  expect(await auditCount(id)).toBe(0);
}

describe('an admin marks a withdrawal paid by hand (no payout provider)', () => {
  it('refuses an approve without a UTR with a field message, and changes nothing', async () => {
    const { id } = await pendingWithdrawal();
    const transfers = await ledgerTransferCount(harness);
    for (const body of [undefined, {}, { payoutReference: '' }, { payoutReference: '   ' }]) {
      const response = await call(harness.app, {
        method: 'POST',
        url: `/api/admin/withdrawals/${id}/approve`,
        cookie: admin.cookie,
        ...(body === undefined ? {} : { body }),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message: REQUIRED, fields: { payoutReference: REQUIRED } });
    }
    await expectUnchanged(id, transfers);
    await expectLedgerConsistent(harness);
  });

  it('refuses a UTR not of its rail’s form (IMPS and UPI: 12 digits), with the rule the batch results use', async () => {
    const imps = await pendingWithdrawal();
    const upi = await pendingWithdrawal('10', 'meera@okaxis');
    const transfers = await ledgerTransferCount(harness);
    for (const utr of ['UTR-1', '12345678901', '1234567890123', 'ABCDEFGHIJKL']) {
      const response = await approve(admin, imps.id, utr);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.fields).toEqual({ payoutReference: 'An IMPS UTR (RRN) has 12 digits.' });
    }
    const wrongUpi = await approve(admin, upi.id, 'N123456789012345');
    expect(wrongUpi.json().error.fields).toEqual({ payoutReference: 'A UPI UTR (RRN) has 12 digits.' });
    await expectUnchanged(imps.id, transfers);
    await expectUnchanged(upi.id, transfers);
    const paid = await approve(admin, upi.id, '  402611270001 ');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await rowOf(upi.id)).toEqual({ status: 'approved', payout_reference: '402611270001' });
    await expectLedgerConsistent(harness);
  });

  it('refuses a UTR another withdrawal carries (409, naming it), and changes nothing', async () => {
    const first = await pendingWithdrawal();
    const other = await pendingWithdrawal();
    const utr = await utrFor(harness, first.id);
    expectStatus(await approve(admin, first.id, utr), 200);
    const transfers = await ledgerTransferCount(harness);
    const reused = await approve(admin, other.id, utr);
    expect(reused.statusCode, reused.body).toBe(409);
    const reference = (await db().execute<{ reference: string }>(sql`select reference from withdrawal_requests where id = ${first.id}`)).rows[0]?.reference;
    expect(reused.json().error.fields).toEqual({ payoutReference: `This UTR is already recorded for withdrawal ${reference}.` });
    await expectUnchanged(other.id, transfers);
    await expectLedgerConsistent(harness);
  });

  it('pays exactly one of two withdrawals approved at the same moment with one UTR', async () => {
    const second = await signUpAdminWithVerifiedPin(harness, { fullName: 'Racing Admin' });
    for (let round = 0; round < 3; round += 1) {
      const one = await pendingWithdrawal();
      const two = await pendingWithdrawal();
      const utr = await utrFor(harness, one.id);
      const answers = await Promise.all([approve(admin, one.id, utr), approve(second, two.id, utr)]);
      expect(answers.map((answer) => answer.statusCode).sort(), answers.map((answer) => answer.body).join('\n')).toEqual([200, 409]);
      const rows = [await rowOf(one.id), await rowOf(two.id)];
      expect(rows.filter((row) => row?.payout_reference === utr)).toHaveLength(1);
      expect(rows.filter((row) => row?.status === 'pending')).toHaveLength(1);
    }
    await db().execute(sql`update profiles set role = 'user' where user_id = ${second.id}`);
    await expectLedgerConsistent(harness);
  });

  it('does not let a customer approve a withdrawal, with or without a UTR', async () => {
    const { customer, id } = await pendingWithdrawal();
    const response = await approve(customer, id, await utrFor(harness, id));
    expect(response.statusCode).toBe(403);
    expect(await rowOf(id)).toEqual({ status: 'pending', payout_reference: null });
  });
});

describe('a large withdrawal’s two approvals (no payout provider)', () => {
  let second: SignedUpUser;

  beforeAll(async () => {
    second = await signUpAdminWithVerifiedPin(harness, { fullName: 'Second Admin' });
    // 100 USDT at 83.00 is 8,300.00 INR: over 8,000.00 it needs two admins.
    await db().execute(sql`update admin_settings set large_withdrawal_inr_paise = 800000, rate_normal_inr_paise = 8300 where id = 1`);
  });

  it('refuses a first approval without a UTR (there would be nothing for the confirm to record), then confirms one with it', async () => {
    const { id } = await pendingWithdrawal('100');
    const transfers = await ledgerTransferCount(harness);
    const bare = await approve(admin, id);
    expect(bare.statusCode, bare.body).toBe(400);
    expect(bare.json().error.fields).toEqual({ payoutReference: REQUIRED });
    const malformed = await approve(admin, id, 'UTR-FIRST');
    expect(malformed.json().error.fields).toEqual({ payoutReference: 'An IMPS UTR (RRN) has 12 digits.' });
    expect(await openFirstApprovals(id)).toBe(0);
    await expectUnchanged(id, transfers);

    const utr = await utrFor(harness, id);
    const first = await approve(admin, id, utr);
    expect(first.statusCode, first.body).toBe(202);
    const confirmed = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/pending-changes/${first.json().pendingChange.id}/confirm`,
      cookie: second.cookie,
      body: {},
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await rowOf(id)).toEqual({ status: 'approved', payout_reference: utr });
    await expectLedgerConsistent(harness);
  });

  it('refuses the confirm of a first approval that has no UTR (given while a payout provider was configured), and changes nothing', async () => {
    const { id } = await pendingWithdrawal('100');
    const first = await approve(admin, id, await utrFor(harness, id));
    expectStatus(first, 202);
    const changeId = first.json().pendingChange.id as string;
    await db().execute(sql`update pending_changes set payload = jsonb_set(payload, '{payoutReference}', 'null') where id = ${changeId}`);
    const transfers = await ledgerTransferCount(harness);
    const confirmed = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: second.cookie, body: {} });
    expect(confirmed.statusCode, confirmed.body).toBe(400);
    expect(confirmed.json().error.message).toBe(REQUIRED);
    await expectUnchanged(id, transfers);
    expect(await openFirstApprovals(id)).toBe(1);
    // The second admin's own approve with the UTR pays it.
    const utr = await utrFor(harness, id);
    const paid = await approve(second, id, utr);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await rowOf(id)).toEqual({ status: 'approved', payout_reference: utr });
    expect(await openFirstApprovals(id)).toBe(0);
    await expectLedgerConsistent(harness);
  });
});

describe('the payouts overview', () => {
  it('tells admins that no payout provider is configured, and no one else', async () => {
    const answer = await call(harness.app, { url: '/api/admin/payouts/overview', cookie: admin.cookie });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ provider: null, stuckAfterMinutes: null, stuck: [] });
    const { customer } = await pendingWithdrawal();
    expect((await call(harness.app, { url: '/api/admin/payouts/overview', cookie: customer.cookie })).statusCode).toBe(403);
  });
});
