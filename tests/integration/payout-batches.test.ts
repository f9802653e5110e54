import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, balanceMicros, decide, fundWallet, requestWithdrawal } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness, admin } = useIntegrationFile();

/** A customer with a funded wallet, a bank account (overrides apply to it) and one pending withdrawal of `amount` USDT per entry. */
async function customerWithWithdrawals(amounts: string[], bankOverrides: Record<string, unknown> = {}): Promise<{ user: SignedUpUser; ids: string[] }> {
  const user = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, user, '1000');
  const bankAccountId = await addBankAccount(harness, user, bankOverrides);
  const ids: string[] = [];
  for (const amount of amounts) {
    const response = await requestWithdrawal(harness, user, { amount, bankAccountId });
    expect(response.statusCode).toBe(201);
    ids.push(response.json().withdrawal.id);
  }
  return { user, ids };
}

function createBatch(body?: unknown) {
  return call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: body ?? {} });
}

function postResults(batchId: string, rows: unknown[]) {
  return call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batchId}/results`, cookie: admin.cookie, body: { rows } });
}

async function statusOf(id: string): Promise<string> {
  const result = await harness.database.handle.db.execute<{ status: string }>(sql`select status from withdrawal_requests where id = ${id}`);
  return result.rows[0]?.status ?? 'missing';
}

async function auditCount(action: string, targetId: string): Promise<number> {
  const result = await harness.database.handle.db.execute(sql`select 1 from audit_log where action = ${action} and target_id = ${targetId}`);
  return result.rows.length;
}

describe('payout batch creation', () => {
  it('puts the named pending withdrawals into one batch, processing, with their INR total, and audits it', async () => {
    const { ids } = await customerWithWithdrawals(['10', '20']);
    const response = await createBatch({ withdrawalIds: ids });
    expect(response.statusCode).toBe(201);
    const { batch } = response.json();
    expect(batch).toMatchObject({ count: 2, totalInr: '2490.00', status: 'open', processingCount: 2, cancelledAt: null });
    for (const id of ids) expect(await statusOf(id)).toBe('processing');
    const detail = await call(harness.app, { url: `/api/admin/payout-batches/${batch.id}`, cookie: admin.cookie });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().withdrawals.map((row: { id: string; status: string; amountInr: string }) => [row.id, row.status, row.amountInr])).toEqual([
      [ids[0], 'processing', '830.00'],
      [ids[1], 'processing', '1660.00'],
    ]);
    expect(await auditCount('payout_batch.create', batch.id)).toBe(1);
    const list = await call(harness.app, { url: '/api/admin/payout-batches?limit=100', cookie: admin.cookie });
    expect(list.json().items.map((item: { id: string }) => item.id)).toContain(batch.id);
  });

  it('refuses a withdrawal that is already in a batch, names it, and creates nothing', async () => {
    const { ids } = await customerWithWithdrawals(['10', '11']);
    const first = await createBatch({ withdrawalIds: [ids[0]] });
    expect(first.statusCode).toBe(201);
    const batchesBefore = await harness.database.handle.db.execute(sql`select 1 from payout_batches`);
    const second = await createBatch({ withdrawalIds: ids });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toBe(`These withdrawals are not pending or are already in a payout batch: ${ids[0]}.`);
    expect(await statusOf(ids[1] ?? '')).toBe('pending');
    expect((await harness.database.handle.db.execute(sql`select 1 from payout_batches`)).rows.length).toBe(batchesBefore.rows.length);
  });

  it('puts each withdrawal into exactly one batch when two batches are created at once', async () => {
    const { ids } = await customerWithWithdrawals(['1', '2', '3', '4']);
    const [named, all] = await Promise.all([createBatch({ withdrawalIds: ids }), createBatch()]);
    for (const response of [named, all]) expect([201, 409]).toContain(response.statusCode);
    const created = [named, all].filter((response) => response.statusCode === 201).map((response) => response.json().batch as { id: string; count: number });
    expect(created.length).toBeGreaterThanOrEqual(1);
    const rows = await harness.database.handle.db.execute<{ id: string; payout_batch_id: string | null; status: string }>(
      sql`select id, payout_batch_id, status from withdrawal_requests where id in (${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`,
    );
    for (const row of rows.rows) {
      // Each withdrawal is either still pending (the losing batch rolled back) or in exactly one of the batches created.
      if (row.status === 'pending') expect(row.payout_batch_id).toBeNull();
      else expect(created.map((batch) => batch.id)).toContain(row.payout_batch_id);
    }
    for (const batch of created) {
      const members = await harness.database.handle.db.execute(sql`select 1 from withdrawal_requests where payout_batch_id = ${batch.id}`);
      expect(members.rows.length).toBe(batch.count);
    }
    // Leave nothing pending for the next test.
    await createBatch();
  });

  it('answers 409 when nothing is pending and for a single decision of a processing withdrawal', async () => {
    const { user, ids } = await customerWithWithdrawals(['10']);
    const batch = (await createBatch()).json().batch;
    expect(batch.count).toBeGreaterThanOrEqual(1);
    const again = await createBatch();
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('There are no pending withdrawals to put into a payout batch.');
    const id = ids[0] ?? '';
    for (const verb of ['approve', 'reject'] as const) {
      const single = await decide(harness, admin, 'withdrawals', id, verb);
      expect(single.statusCode).toBe(409);
      expect(single.json().error).toMatchObject({ code: 'DECIDED_ELSEWHERE', message: 'This withdrawal is in a payout batch. Record its result through the batch, or cancel the batch first.' });
    }
    expect(await statusOf(id)).toBe('processing');
    // The customer sees it as processing, in the withdrawal and in the history.
    expect((await call(harness.app, { url: `/api/withdrawals/${id}`, cookie: user.cookie })).json().withdrawal.status).toBe('processing');
    const history = await call(harness.app, { url: '/api/transactions', cookie: user.cookie });
    expect(history.statusCode).toBe(200);
    expect(history.json().items.find((item: { id: string }) => item.id === id).status).toBe('processing');
    expect((await call(harness.app, { url: '/api/withdrawals?status=processing', cookie: user.cookie })).json().items.map((item: { id: string }) => item.id)).toEqual([id]);
  });

  it('is for admins only', async () => {
    const { user, ids } = await customerWithWithdrawals(['5']);
    const response = await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: user.cookie, body: { withdrawalIds: ids } });
    expect(response.statusCode).toBe(403);
    expect(await statusOf(ids[0] ?? '')).toBe('pending');
    await createBatch({ withdrawalIds: ids });
  });
});

describe('payout batch file', () => {
  it('gives the same formula-safe bytes on every download, with mode by amount and UPI id', async () => {
    const upi = await customerWithWithdrawals(['10'], { accountHolderName: '=HYPERLINK("http://evil")' });
    const noUpi = await customerWithWithdrawals(['800'], { upiId: '' });
    const batch = (await createBatch({ withdrawalIds: [...upi.ids, ...noUpi.ids] })).json().batch;
    const first = await call(harness.app, { url: `/api/admin/payout-batches/${batch.id}.csv`, cookie: admin.cookie });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toContain('text/csv');
    const lines = first.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"Payment Mode","Beneficiary Name","Beneficiary Account Number","IFSC","Beneficiary UPI ID","Amount (INR)","Narration","Withdrawal ID"');
    expect(lines[1]).toBe(`"UPI","'=HYPERLINK(""http://evil"")","123456789012","SBIN0001234","asha@oksbi","830.00","Rupeedesk withdrawal ${upi.ids[0]}","${upi.ids[0]}"`);
    expect(lines[2]).toBe(`"IMPS","Asha Rao","123456789012","SBIN0001234","","66400.00","Rupeedesk withdrawal ${noUpi.ids[0]}","${noUpi.ids[0]}"`);
    for (const line of lines.slice(1)) expect(line).not.toMatch(/(^|,)"[=+\-@]/);
    // The old export of every pending withdrawal on every call is gone.
    expect((await call(harness.app, { url: '/api/admin/withdrawals.csv', cookie: admin.cookie })).statusCode).toBe(404);
    await postResults(batch.id, [{ withdrawalId: upi.ids[0], outcome: 'paid', utr: 'UTR1' }]);
    const second = await call(harness.app, { url: `/api/admin/payout-batches/${batch.id}.csv`, cookie: admin.cookie });
    expect(second.body).toBe(first.body);
    expect(await auditCount('payout_batch.download', batch.id)).toBe(2);
    await postResults(batch.id, [{ withdrawalId: noUpi.ids[0], outcome: 'paid', utr: 'UTR2' }]);
  });
});

describe('payout batch results', () => {
  it('approves paid rows with the UTR, rejects and refunds failed rows, and applies nothing twice', async () => {
    const { user, ids } = await customerWithWithdrawals(['10', '20']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    const balanceBefore = await balanceMicros(harness, user.id);
    const rows = [
      { withdrawalId: ids[0], outcome: 'paid', utr: 'UTR000123' },
      { withdrawalId: ids[1], outcome: 'failed', reason: 'Account closed' },
    ];
    const first = await postResults(batch.id, rows);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ applied: 2, alreadyApplied: 0, refused: 0, batch: { status: 'completed', processingCount: 0 } });
    expect(await balanceMicros(harness, user.id)).toBe(balanceBefore + 20_000_000n);
    const paid = (await call(harness.app, { url: `/api/withdrawals/${ids[0]}`, cookie: user.cookie })).json().withdrawal;
    expect(paid).toMatchObject({ status: 'approved', payoutReference: 'UTR000123' });
    const failed = (await call(harness.app, { url: `/api/withdrawals/${ids[1]}`, cookie: user.cookie })).json().withdrawal;
    expect(failed).toMatchObject({ status: 'rejected', rejectionReason: 'Account closed' });
    expect(await auditCount('withdrawal.approve', ids[0] ?? '')).toBe(1);

    const second = await postResults(batch.id, rows);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ applied: 0, alreadyApplied: 2, refused: 0 });
    expect(await balanceMicros(harness, user.id)).toBe(balanceBefore + 20_000_000n);
    expect(await auditCount('withdrawal.approve', ids[0] ?? '')).toBe(1);
    expect(await auditCount('withdrawal.reject', ids[1] ?? '')).toBe(1);

    const contrary = await postResults(batch.id, [{ withdrawalId: ids[0], outcome: 'failed', reason: 'x' }]);
    expect(contrary.json().results[0]).toMatchObject({ result: 'refused', message: 'This withdrawal has already been approved; the row was not applied.' });
    expect(await balanceMicros(harness, user.id)).toBe(balanceBefore + 20_000_000n);
  });

  it('takes the same rows as text/csv', async () => {
    const { ids } = await customerWithWithdrawals(['10', '20']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    const csv = `withdrawalId,outcome,utr,reason\r\n${ids[0]},paid,UTR9,\r\n"${ids[1]}",failed,,"Name mismatch, ""A"""\r\n`;
    const response = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/payout-batches/${batch.id}/results`,
      headers: { origin: 'http://localhost:3000', cookie: admin.cookie, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ applied: 2 });
    expect(await statusOf(ids[0] ?? '')).toBe('approved');
    const reason = await harness.database.handle.db.execute<{ reason: string }>(sql`select rejection_reason as reason from withdrawal_requests where id = ${ids[1]}`);
    expect(reason.rows[0]?.reason).toBe('Name mismatch, "A"');
    const bad = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/payout-batches/${batch.id}/results`,
      headers: { origin: 'http://localhost:3000', cookie: admin.cookie, 'content-type': 'text/csv' },
      payload: 'id,result\r\nx,y\r\n',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('The results file must be CSV with the columns withdrawalId, outcome, utr, reason.');
    // Only this route takes CSV.
    const elsewhere = await harness.app.inject({
      method: 'POST',
      url: '/api/admin/payout-batches',
      headers: { origin: 'http://localhost:3000', cookie: admin.cookie, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(elsewhere.statusCode).toBe(415);
  });

  it('refuses rows of another batch, rows without a UTR and unknown withdrawals, per row', async () => {
    const a = await customerWithWithdrawals(['10']);
    const b = await customerWithWithdrawals(['10']);
    const batchA = (await createBatch({ withdrawalIds: a.ids })).json().batch;
    const batchB = (await createBatch({ withdrawalIds: b.ids })).json().batch;
    const response = await postResults(batchA.id, [
      { withdrawalId: b.ids[0], outcome: 'paid', utr: 'UTR1' },
      { withdrawalId: a.ids[0], outcome: 'paid' },
      { withdrawalId: '00000000-0000-4000-8000-000000000000', outcome: 'failed' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json().results.map((row: { result: string; message: string }) => [row.result, row.message])).toEqual([
      ['refused', 'This withdrawal is not in this payout batch.'],
      ['refused', 'A paid row needs the UTR of the payment.'],
      ['refused', 'This withdrawal is not in this payout batch.'],
    ]);
    expect(await statusOf(a.ids[0] ?? '')).toBe('processing');
    expect(await statusOf(b.ids[0] ?? '')).toBe('processing');
    await postResults(batchA.id, [{ withdrawalId: a.ids[0], outcome: 'failed' }]);
    await postResults(batchB.id, [{ withdrawalId: b.ids[0], outcome: 'failed' }]);
  });
});

describe('payout batch cancel', () => {
  it('returns the withdrawals to pending while nothing is decided, and refuses afterwards', async () => {
    const { user, ids } = await customerWithWithdrawals(['10', '20']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    const cancelled = await call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batch.id}/cancel`, cookie: admin.cookie, body: {} });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().batch.status).toBe('cancelled');
    for (const id of ids) expect(await statusOf(id)).toBe('pending');
    expect(await auditCount('payout_batch.cancel', batch.id)).toBe(1);
    expect((await call(harness.app, { url: `/api/admin/payout-batches/${batch.id}.csv`, cookie: admin.cookie })).statusCode).toBe(409);
    const late = await postResults(batch.id, [{ withdrawalId: ids[0], outcome: 'paid', utr: 'UTR1' }]);
    expect(late.json().results[0]).toMatchObject({ result: 'refused', message: 'This payout batch was cancelled.' });
    expect(await statusOf(ids[0] ?? '')).toBe('pending');
    // Back in the queue: a single decision works again, and a new batch may take the other one.
    expect((await decide(harness, admin, 'withdrawals', ids[0] ?? '', 'reject')).statusCode).toBe(200);
    const next = (await createBatch({ withdrawalIds: [ids[1]] })).json().batch;
    await postResults(next.id, [{ withdrawalId: ids[1], outcome: 'paid', utr: 'UTR2' }]);
    const refused = await call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${next.id}/cancel`, cookie: admin.cookie, body: {} });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('This payout batch can no longer be cancelled: some of its withdrawals have been decided.');
    expect(await balanceMicros(harness, user.id)).toBe(1000_000_000n - 20_000_000n);
  });
});

describe('payout batch actions survive a lost answer (Idempotency-Key)', () => {
  const withKey = (key: string) => ({ 'idempotency-key': key });

  it('a retried create answers the first batch and makes no second one; the same key for another request is refused', async () => {
    const { ids } = await customerWithWithdrawals(['10', '20']);
    const [firstId, secondId] = ids;
    const post = (body: unknown, key: string) =>
      call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body, headers: withKey(key) });
    const first = await post({ withdrawalIds: [firstId] }, 'batch-key-1');
    expect(first.statusCode).toBe(201);
    const retry = await post({ withdrawalIds: [firstId] }, 'batch-key-1');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const batches = await harness.database.handle.db.execute(sql`select 1 from payout_batches`);
    const batchCountAfterRetry = batches.rows.length;

    const misuse = await post({ withdrawalIds: [secondId] }, 'batch-key-1');
    expect(misuse.statusCode).toBe(422);
    expect(misuse.json().error.code).toBe('IDEMPOTENCY_MISMATCH');
    expect(await statusOf(secondId ?? '')).toBe('pending');
    expect((await harness.database.handle.db.execute(sql`select 1 from payout_batches`)).rows.length).toBe(batchCountAfterRetry);
    expect(await auditCount('payout_batch.create', first.json().batch.id)).toBe(1);
  });

  it('a retried cancel answers the first cancel instead of 409', async () => {
    const { ids } = await customerWithWithdrawals(['10']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    const cancel = () =>
      call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batch.id}/cancel`, cookie: admin.cookie, body: {}, headers: withKey('cancel-key-1') });
    const first = await cancel();
    expect(first.statusCode).toBe(200);
    const retry = await cancel();
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await auditCount('payout_batch.cancel', batch.id)).toBe(1);
    // Without the key, the second cancel is the plain conflict it always was.
    const plain = await call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batch.id}/cancel`, cookie: admin.cookie, body: {} });
    expect(plain.statusCode).toBe(409);
  });
});

describe('an admin’s own withdrawal (four eyes)', () => {
  it('never enters a batch that admin makes: named, it is refused; the oldest-pending selection passes over it', async () => {
    const colleague = await signUpAdminWithVerifiedPin(harness, { fullName: 'Batch Colleague' });
    await fundWallet(harness, colleague, admin, '100');
    const bankAccountId = await addBankAccount(harness, admin);
    const own = await requestWithdrawal(harness, admin, { amount: '10', bankAccountId });
    expect(own.statusCode).toBe(201);
    const ownId: string = own.json().withdrawal.id;
    const { ids } = await customerWithWithdrawals(['7']);
    const customerWithdrawal = ids[0] ?? '';

    const named = await createBatch({ withdrawalIds: [customerWithdrawal, ownId] });
    expect(named.statusCode).toBe(403);
    const message = `These withdrawals are your own: another admin must put them into a payout batch: ${ownId}.`;
    expect(named.json().error).toMatchObject({ code: 'FORBIDDEN', message, fields: { withdrawalIds: message } });
    expect(await statusOf(ownId)).toBe('pending');
    expect(await statusOf(customerWithdrawal)).toBe('pending');

    const oldest = await createBatch();
    expect(oldest.statusCode).toBe(201);
    expect(await statusOf(customerWithdrawal)).toBe('processing');
    expect(await statusOf(ownId)).toBe('pending');
    const onlyOwnLeft = await createBatch();
    expect(onlyOwnLeft.statusCode).toBe(409);
    expect(onlyOwnLeft.json().error.message).toBe('There are no pending withdrawals to put into a payout batch.');

    // Another admin may put it into a batch, which then goes to the bank as any other.
    const byColleague = await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: colleague.cookie, body: {} });
    expect(byColleague.statusCode).toBe(201);
    expect(await statusOf(ownId)).toBe('processing');
  });
});
