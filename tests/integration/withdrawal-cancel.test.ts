import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, type SignedUpUser } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  approveWithdrawalPaid,
  decide,
  expectLedgerConsistent,
  utrFor,
  expectStatus,
  ledgerTransferCount,
  requestWithdrawal,
  signUpFundedCustomer,
} from '../fixtures/wallet.ts';

/* Decision 044: a customer cancels their own pending withdrawal; the USDT comes back through the ledger. */

const { harness, admin } = useIntegrationFile();

function db() {
  return harness.database.handle.db;
}

async function customerWithWithdrawal(amount = '10', funded = '100'): Promise<{ customer: SignedUpUser; withdrawalId: string }> {
  const customer = await signUpFundedCustomer(harness, admin, funded);
  const bankAccountId = await addBankAccount(harness, customer);
  const response = await requestWithdrawal(harness, customer, { amount, bankAccountId });
  expectStatus(response, 201);
  return { customer, withdrawalId: response.json<{ withdrawal: { id: string } }>().withdrawal.id };
}

function cancel(user: SignedUpUser, withdrawalId: string) {
  return call(harness.app, { method: 'POST', url: `/api/withdrawals/${withdrawalId}/cancel`, cookie: user.cookie, body: {} });
}

async function statusOf(id: string): Promise<string | undefined> {
  return (await db().execute<{ status: string }>(sql`select status from withdrawal_requests where id = ${id}`)).rows[0]?.status;
}

async function houseBalance(kind: string): Promise<bigint> {
  const result = await db().execute<{ balance: bigint }>(
    sql`select balance_usdt_micros as balance from ledger_accounts where kind = ${kind} and user_id is null`,
  );
  return result.rows[0]?.balance ?? 0n;
}

async function refundCount(withdrawalId: string): Promise<number> {
  const result = await db().execute(sql`select 1 from ledger_transfers where reason = 'withdrawal_refund' and reference_id = ${withdrawalId}`);
  return result.rows.length;
}

describe('a customer cancels a pending withdrawal', () => {
  it('returns the USDT at once through the ledger, audits it, notifies the customer and shows admins who cancelled it', async () => {
    const { customer, withdrawalId } = await customerWithWithdrawal('40');
    expect(await balanceMicros(harness, customer.id)).toBe(60_000_000n);
    const pendingBefore = await houseBalance('withdrawals_pending');

    const response = await cancel(customer, withdrawalId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Withdrawal cancelled. The USDT is back in your wallet.',
      withdrawal: { id: withdrawalId, status: 'cancelled', amountUsdt: '40.000000' },
    });
    expect(response.json().withdrawal.decidedAt).not.toBeNull();
    expect(await balanceMicros(harness, customer.id)).toBe(100_000_000n);
    expect(pendingBefore - (await houseBalance('withdrawals_pending'))).toBe(40_000_000n);
    expect(await refundCount(withdrawalId)).toBe(1);

    const audit = await db().execute<{ actor: string; after: { status: string; cancelledBy: string } }>(
      sql`select actor_user_id as actor, after from audit_log where action = 'withdrawal.cancel' and target_id = ${withdrawalId}`,
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ actor: customer.id, after: { status: 'cancelled', cancelledBy: 'customer' } });

    const notifications = await call(harness.app, { url: '/api/notifications', cookie: customer.cookie });
    expect(notifications.json().items[0]).toMatchObject({ kind: 'withdrawal_cancelled', title: 'Withdrawal cancelled' });

    const detail = await call(harness.app, { url: `/api/withdrawals/${withdrawalId}`, cookie: customer.cookie });
    expect(detail.json().withdrawal.status).toBe('cancelled');
    const history = await call(harness.app, { url: '/api/transactions?type=withdrawal', cookie: customer.cookie });
    expect(history.json().items[0]).toMatchObject({ id: withdrawalId, status: 'cancelled' });

    const adminList = await call(harness.app, { url: '/api/admin/withdrawals?status=cancelled&limit=100', cookie: admin.cookie });
    expect(adminList.statusCode).toBe(200);
    const row = adminList.json().items.find((item: { id: string }) => item.id === withdrawalId);
    expect(row).toMatchObject({ status: 'cancelled', user: { id: customer.id } });

    // An admin can no longer decide it.
    const approve = await approveWithdrawalPaid(harness, admin, withdrawalId);
    expect(approve.statusCode).toBe(409);
    expect(await balanceMicros(harness, customer.id)).toBe(100_000_000n);
  });

  it('refuses a second cancel (409) and moves nothing', async () => {
    const { customer, withdrawalId } = await customerWithWithdrawal();
    expectStatus(await cancel(customer, withdrawalId), 200);
    const transfers = await ledgerTransferCount(harness);
    const again = await cancel(customer, withdrawalId);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'ALREADY_DECIDED', message: 'This withdrawal has already been decided and can no longer be cancelled.' });
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    expect(await balanceMicros(harness, customer.id)).toBe(100_000_000n);
  });

  it('answers 404 to another customer and to an admin on the customer route, and changes nothing', async () => {
    const { customer, withdrawalId } = await customerWithWithdrawal();
    const stranger = await signUpFundedCustomer(harness, admin, '10');
    const transfers = await ledgerTransferCount(harness);
    for (const other of [stranger, admin]) {
      const response = await cancel(other, withdrawalId);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({ code: 'NOT_FOUND', message: 'Withdrawal not found' });
    }
    expect((await call(harness.app, { method: 'POST', url: `/api/withdrawals/${withdrawalId}/cancel`, body: {} })).statusCode).toBe(401);
    expect(await statusOf(withdrawalId)).toBe('pending');
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    expect(await balanceMicros(harness, customer.id)).toBe(90_000_000n);
    expect(await balanceMicros(harness, stranger.id)).toBe(10_000_000n);
  });

  it('refuses a withdrawal that is approved, rejected or in a payout batch', async () => {
    const approved = await customerWithWithdrawal();
    expectStatus(await approveWithdrawalPaid(harness, admin, approved.withdrawalId), 200);
    expect((await cancel(approved.customer, approved.withdrawalId)).json().error.code).toBe('ALREADY_DECIDED');
    expect(await statusOf(approved.withdrawalId)).toBe('approved');

    const rejected = await customerWithWithdrawal();
    expectStatus(await decide(harness, admin, 'withdrawals', rejected.withdrawalId, 'reject', { reason: 'Test' }), 200);
    expect((await cancel(rejected.customer, rejected.withdrawalId)).statusCode).toBe(409);
    expect(await balanceMicros(harness, rejected.customer.id)).toBe(100_000_000n);

    const batched = await customerWithWithdrawal();
    expectStatus(
      await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: { withdrawalIds: [batched.withdrawalId] } }),
      201,
    );
    const response = await cancel(batched.customer, batched.withdrawalId);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'DECIDED_ELSEWHERE',
      message: 'This withdrawal is already being paid to your bank and can no longer be cancelled.',
    });
    expect(await statusOf(batched.withdrawalId)).toBe('processing');
    expect(await balanceMicros(harness, batched.customer.id)).toBe(90_000_000n);
  });
});

describe('races: exactly one wins', () => {
  it('two cancels at once: one 200, one 409, the USDT back once', async () => {
    for (let round = 0; round < 4; round += 1) {
      const { customer, withdrawalId } = await customerWithWithdrawal();
      const answers = await Promise.all([cancel(customer, withdrawalId), cancel(customer, withdrawalId)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(await refundCount(withdrawalId)).toBe(1);
      expect(await balanceMicros(harness, customer.id)).toBe(100_000_000n);
    }
    await expectLedgerConsistent(harness);
  });

  it('a cancel against an admin approving or rejecting it at once', async () => {
    for (const [round, decision] of (['approve', 'reject', 'approve', 'reject'] as const).entries()) {
      const { customer, withdrawalId } = await customerWithWithdrawal();
      const details = decision === 'reject' ? { reason: 'Race' } : { payoutReference: await utrFor(harness, withdrawalId) };
      const decisionCall = () => decide(harness, admin, 'withdrawals', withdrawalId, decision, details);
      let cancelled, decided;
      if (round < 2) [cancelled, decided] = await Promise.all([cancel(customer, withdrawalId), decisionCall()]);
      else [decided, cancelled] = await Promise.all([decisionCall(), cancel(customer, withdrawalId)]);
      expect([cancelled.statusCode, decided.statusCode].sort()).toEqual([200, 409]);
      const status = await statusOf(withdrawalId);
      expect(status).toBe(cancelled.statusCode === 200 ? 'cancelled' : decision === 'approve' ? 'approved' : 'rejected');
      const expected = status === 'approved' ? 90_000_000n : 100_000_000n;
      expect(await balanceMicros(harness, customer.id)).toBe(expected);
      expect(await refundCount(withdrawalId)).toBe(status === 'approved' ? 0 : 1);
    }
    await expectLedgerConsistent(harness);
  });

  it('a cancel against a payout batch being made of it', async () => {
    for (let round = 0; round < 4; round += 1) {
      const { customer, withdrawalId } = await customerWithWithdrawal();
      const [cancelled, batch] = await Promise.all([
        cancel(customer, withdrawalId),
        call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: { withdrawalIds: [withdrawalId] } }),
      ]);
      const status = await statusOf(withdrawalId);
      if (cancelled.statusCode === 200) {
        expect(status).toBe('cancelled');
        expect(batch.statusCode).not.toBe(201);
      } else {
        expect(cancelled.statusCode).toBe(409);
        expect(batch.statusCode).toBe(201);
        expect(status).toBe('processing');
      }
      expect(await balanceMicros(harness, customer.id)).toBe(status === 'cancelled' ? 100_000_000n : 90_000_000n);
    }
    await expectLedgerConsistent(harness);
  });
});

describe('a large withdrawal with a first approval', () => {
  // Last in the file: a second admin makes every later approval of a large withdrawal need two.
  it('cannot be cancelled once an admin gave the first approval', async () => {
    await signUpAdminWithVerifiedPin(harness, { fullName: 'Second Admin' });
    await db().execute(sql`update admin_settings set large_withdrawal_inr_paise = 50000 where id = 1`);
    const { customer, withdrawalId } = await customerWithWithdrawal('10');
    expect((await approveWithdrawalPaid(harness, admin, withdrawalId)).statusCode).toBe(202);
    const response = await cancel(customer, withdrawalId);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'DECIDED_ELSEWHERE',
      message: 'An admin has already approved this withdrawal; it can no longer be cancelled.',
    });
    expect(await statusOf(withdrawalId)).toBe('pending');
    expect(await balanceMicros(harness, customer.id)).toBe(90_000_000n);
  });
});
