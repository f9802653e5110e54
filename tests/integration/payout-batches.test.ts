import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, balanceMicros, fixtureAccountNumber, decide, fundWallet, requestWithdrawal } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

const { harness, admin } = useIntegrationFile();

/** A customer with a funded wallet, a bank account (overrides apply to it) and one pending withdrawal of `amount` USDT per entry. */
async function customerWithWithdrawals(amounts: string[], bankOverrides: Record<string, unknown> = {}): Promise<{ user: SignedUpUser; ids: string[] }> {
  const user = await signUpVerifiedUser(harness.app);
  const needed = amounts.reduce((sum, amount) => sum + Number(amount), 0);
  await fundWallet(harness, admin, user, needed > 1000 ? String(needed) : '1000');
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

function postResults(batchId: string, rows: unknown[], user: SignedUpUser = admin) {
  return call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batchId}/results`, cookie: user.cookie, body: { rows } });
}

let utrCounter = 0;
/** A fresh 12-digit UTR (the RRN of IMPS and UPI payments). */
function rrn(): string {
  utrCounter += 1;
  return `${String(Date.now()).slice(-7)}${String(utrCounter).padStart(5, '0')}`;
}

async function referenceOf(id: string): Promise<string> {
  const result = await harness.database.handle.db.execute<{ reference: string }>(sql`select reference from withdrawal_requests where id = ${id}`);
  return result.rows[0]?.reference ?? 'missing';
}

function download(batchId: string, user: SignedUpUser = admin) {
  return call(harness.app, { url: `/api/admin/payout-batches/${batchId}.csv`, cookie: user.cookie });
}

function cancelBatch(batchId: string, user: SignedUpUser = admin) {
  return call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batchId}/cancel`, cookie: user.cookie, body: {} });
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
      sql`select id, payout_batch_id, status from withdrawal_requests where id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
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
      expect(single.json().error).toMatchObject({
        code: 'DECIDED_ELSEWHERE',
        message: 'This withdrawal is in a payout batch. Record its result through the batch, or cancel the batch first.',
      });
    }
    expect(await statusOf(id)).toBe('processing');
    // The customer sees it as processing, in the withdrawal and in the history.
    expect((await call(harness.app, { url: `/api/withdrawals/${id}`, cookie: user.cookie })).json().withdrawal.status).toBe('processing');
    const history = await call(harness.app, { url: '/api/transactions', cookie: user.cookie });
    expect(history.statusCode).toBe(200);
    expect(history.json().items.find((item: { id: string }) => item.id === id).status).toBe('processing');
    expect(
      (await call(harness.app, { url: '/api/withdrawals?status=processing', cookie: user.cookie })).json().items.map((item: { id: string }) => item.id),
    ).toEqual([id]);
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
  it('gives the same formula-safe bytes on every download, with mode by amount and UPI id, and our short reference in the narration', async () => {
    const upi = await customerWithWithdrawals(['10'], { accountHolderName: '=HYPERLINK("http://evil")' });
    const noUpi = await customerWithWithdrawals(['800'], { upiId: '' });
    const batch = (await createBatch({ withdrawalIds: [...upi.ids, ...noUpi.ids] })).json().batch;
    const upiReference = await referenceOf(upi.ids[0] ?? '');
    const noUpiReference = await referenceOf(noUpi.ids[0] ?? '');
    expect(upiReference).toMatch(/^RD[A-HJ-NP-Z2-9]{8}$/);
    const first = await download(batch.id);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toContain('text/csv');
    const lines = first.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"Payment Mode","Beneficiary Name","Beneficiary Account Number","IFSC","Beneficiary UPI ID","Amount (INR)","Narration","Reference"');
    expect(lines[1]).toBe(
      `"UPI","'=HYPERLINK(""http://evil"")","${fixtureAccountNumber(upi.user.id)}","SBIN0001234","asha@oksbi","830.00","Rupeedesk ${upiReference}","${upiReference}"`,
    );
    expect(lines[2]).toBe(
      `"IMPS","Asha Rao","${fixtureAccountNumber(noUpi.user.id)}","SBIN0001234","","66400.00","Rupeedesk ${noUpiReference}","${noUpiReference}"`,
    );
    for (const line of lines.slice(1)) expect(line).not.toMatch(/(^|,)"[=+\-@]/);
    // No UUID of ours goes to the bank.
    expect(first.body).not.toContain(upi.ids[0]);
    // The old export of every pending withdrawal on every call is gone.
    expect((await call(harness.app, { url: '/api/admin/withdrawals.csv', cookie: admin.cookie })).statusCode).toBe(404);
    await postResults(batch.id, [{ reference: upiReference, outcome: 'paid', utr: rrn() }]);
    const second = await download(batch.id);
    expect(second.body).toBe(first.body);
    expect(await auditCount('payout_batch.download', batch.id)).toBe(2);
    await postResults(batch.id, [{ reference: noUpiReference, outcome: 'paid', utr: rrn() }]);
  });

  it('is issued by its first download (who, when, SHA-256); every later download is recorded and says when and by whom it was first', async () => {
    const { ids } = await customerWithWithdrawals(['10']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    expect(batch).toMatchObject({ issuedAt: null, issuedBy: null, fileSha256: null, downloadCount: 0 });
    const first = await download(batch.id);
    expect(first.statusCode).toBe(200);
    const sha256 = createHash('sha256').update(first.body).digest('hex');
    expect(first.headers['x-file-sha256']).toBe(sha256);
    expect(first.headers['x-already-downloaded']).toBeUndefined();
    const issued = (await call(harness.app, { url: `/api/admin/payout-batches/${batch.id}`, cookie: admin.cookie })).json().batch;
    expect(issued).toMatchObject({ fileSha256: sha256, downloadCount: 1, issuedBy: { id: admin.id } });
    expect(issued.issuedAt).not.toBeNull();
    const again = await download(batch.id);
    expect(again.headers['x-already-downloaded']).toMatch(/^Already downloaded at .+ \(India time\) by .+ \(.+@.+\)\.$/);
    const rows = await harness.database.handle.db.execute<{ by: string; sha: string }>(
      sql`select downloaded_by_user_id as by, file_sha256 as sha from payout_batch_downloads where payout_batch_id = ${batch.id} order by downloaded_at`,
    );
    expect(rows.rows).toEqual([
      { by: admin.id, sha: sha256 },
      { by: admin.id, sha: sha256 },
    ]);
    const after = (await call(harness.app, { url: `/api/admin/payout-batches/${batch.id}`, cookie: admin.cookie })).json().batch;
    expect(after).toMatchObject({ issuedAt: issued.issuedAt, downloadCount: 2 });
    await postResults(batch.id, [{ reference: await referenceOf(ids[0] ?? ''), outcome: 'failed', reason: 'Test over' }]);
  });
});

describe('payout batch results', () => {
  it('approves paid rows with the UTR, rejects and refunds failed rows, and applies nothing twice', async () => {
    const { user, ids } = await customerWithWithdrawals(['10', '20']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    const balanceBefore = await balanceMicros(harness, user.id);
    const utr = rrn();
    const rows = [
      { reference: await referenceOf(ids[0] ?? ''), outcome: 'paid', utr },
      { reference: await referenceOf(ids[1] ?? ''), outcome: 'failed', reason: 'Account closed' },
    ];
    const first = await postResults(batch.id, rows);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ applied: 2, alreadyApplied: 0, refused: 0, batch: { status: 'completed', processingCount: 0 } });
    expect(await balanceMicros(harness, user.id)).toBe(balanceBefore + 20_000_000n);
    const paid = (await call(harness.app, { url: `/api/withdrawals/${ids[0]}`, cookie: user.cookie })).json().withdrawal;
    expect(paid).toMatchObject({ status: 'approved', payoutReference: utr, reference: rows[0]?.reference });
    const failed = (await call(harness.app, { url: `/api/withdrawals/${ids[1]}`, cookie: user.cookie })).json().withdrawal;
    expect(failed).toMatchObject({ status: 'rejected', rejectionReason: 'Account closed' });
    expect(await auditCount('withdrawal.approve', ids[0] ?? '')).toBe(1);

    const second = await postResults(batch.id, rows);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ applied: 0, alreadyApplied: 2, refused: 0 });
    expect(await balanceMicros(harness, user.id)).toBe(balanceBefore + 20_000_000n);
    expect(await auditCount('withdrawal.approve', ids[0] ?? '')).toBe(1);
    expect(await auditCount('withdrawal.reject', ids[1] ?? '')).toBe(1);

    const contrary = await postResults(batch.id, [{ reference: rows[0]?.reference, outcome: 'failed', reason: 'x' }]);
    expect(contrary.statusCode).toBe(400);
    expect(contrary.json().error.fields).toEqual({ 'rows.1': 'This withdrawal has already been approved; the row was not applied.' });
    expect(await balanceMicros(harness, user.id)).toBe(balanceBefore + 20_000_000n);
  });

  it('takes the same rows as text/csv, under our column names or a bank’s, matched on the reference in the narration', async () => {
    const { ids } = await customerWithWithdrawals(['10', '20']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    const [first, second] = [await referenceOf(ids[0] ?? ''), await referenceOf(ids[1] ?? '')];
    const utr = rrn();
    // A bank's status file: its own column names and status words, our narration echoed back, amounts with commas.
    const csv = `Narration,Transaction Status,UTR Number,Failure Reason,Amount\r\nRupeedesk ${first},SUCCESS,${utr},,830.00\r\n"Rupeedesk ${second}",Rejected,,"Name mismatch, ""A""","1,660.00"\r\n`;
    const post = (url: string, payload: string) =>
      harness.app.inject({ method: 'POST', url, headers: { origin: 'http://localhost:3000', cookie: admin.cookie, 'content-type': 'text/csv' }, payload });
    const preview = await post(`/api/admin/payout-batches/${batch.id}/results/preview`, csv);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().rows.map((row: { reference: string; verdict: string }) => [row.reference, row.verdict])).toEqual([
      [first, 'paid'],
      [second, 'failed'],
    ]);
    const response = await post(`/api/admin/payout-batches/${batch.id}/results`, csv);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ applied: 2 });
    expect(await statusOf(ids[0] ?? '')).toBe('approved');
    const reason = await harness.database.handle.db.execute<{ reason: string }>(
      sql`select rejection_reason as reason from withdrawal_requests where id = ${ids[1]}`,
    );
    expect(reason.rows[0]?.reason).toBe('Name mismatch, "A"');
    const bad = await post(`/api/admin/payout-batches/${batch.id}/results`, 'id,result\r\nx,y\r\n');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(
      'The results file must be CSV with a reference (or withdrawalId) column and an outcome column; utr, reason and amount are optional.',
    );
    // Only these routes take CSV.
    const elsewhere = await post('/api/admin/payout-batches', csv);
    expect(elsewhere.statusCode).toBe(415);
  });

  it('refuses the whole file, with row numbers, for rows of another batch, unknown references, a paid row without a UTR or with one of the wrong form', async () => {
    const a = await customerWithWithdrawals(['10', '20']);
    const b = await customerWithWithdrawals(['10']);
    const batchA = (await createBatch({ withdrawalIds: a.ids })).json().batch;
    const batchB = (await createBatch({ withdrawalIds: b.ids })).json().batch;
    const balance = await balanceMicros(harness, a.user.id);
    const response = await postResults(batchA.id, [
      { reference: await referenceOf(a.ids[1] ?? ''), outcome: 'failed', reason: 'Fine row' },
      { reference: await referenceOf(b.ids[0] ?? ''), outcome: 'paid', utr: rrn() },
      { reference: await referenceOf(a.ids[0] ?? ''), outcome: 'paid' },
      { reference: 'RDZZZZZZZZ', outcome: 'failed' },
      { withdrawalId: a.ids[0], outcome: 'paid', utr: 'UTR1' },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({
      'rows.2': 'This withdrawal is not in this payout batch.',
      'rows.3': 'A paid row needs the UTR of the payment.',
      'rows.4': 'No withdrawal has this reference.',
      'rows.5': 'This withdrawal is already on row 3 of the file.',
    });
    expect(response.json().error.message).toMatch(/^The results file was not applied; fix these rows and upload it again: row 2: /);
    // One transaction: the fine first row was not applied either.
    for (const id of [...a.ids, ...b.ids]) expect(await statusOf(id)).toBe('processing');
    expect(await balanceMicros(harness, a.user.id)).toBe(balance);

    const malformed = await postResults(batchA.id, [{ reference: await referenceOf(a.ids[0] ?? ''), outcome: 'paid', utr: 'UTR000123' }]);
    expect(malformed.json().error.fields).toEqual({ 'rows.1': 'A UPI UTR (RRN) has 12 digits.' });
    await postResults(
      batchA.id,
      a.ids.map((id) => ({ withdrawalId: id, outcome: 'failed' })),
    );
    await postResults(batchB.id, [{ withdrawalId: b.ids[0], outcome: 'failed' }]);
  });

  it('holds a UTR to one withdrawal: twice in a file, or already recorded for another, is refused; the database refuses it too', async () => {
    const { ids } = await customerWithWithdrawals(['10', '20', '30']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    const [first, second, third] = await Promise.all(ids.map((id) => referenceOf(id)));
    const utr = rrn();
    const twice = await postResults(batch.id, [
      { reference: first, outcome: 'paid', utr },
      { reference: second, outcome: 'paid', utr },
    ]);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.fields).toEqual({ 'rows.2': 'This UTR is already on row 1 of the file.' });
    expect(await statusOf(ids[0] ?? '')).toBe('processing');
    expect((await postResults(batch.id, [{ reference: first, outcome: 'paid', utr }])).statusCode).toBe(200);
    const reused = await postResults(batch.id, [{ reference: second, outcome: 'paid', utr }]);
    expect(reused.json().error.fields).toEqual({ 'rows.1': `This UTR is already recorded for withdrawal ${first}.` });
    await expect(harness.database.handle.db.execute(sql`update withdrawal_requests set payout_reference = ${utr} where id = ${ids[2]}`)).rejects.toThrow();
    // A UPI payment's UTR is its 12-digit RRN, not a NEFT UTR.
    expect((await postResults(batch.id, [{ reference: second, outcome: 'paid', utr: 'SBINN52026112700' }])).json().error.fields).toEqual({
      'rows.1': 'A UPI UTR (RRN) has 12 digits.',
    });
    await postResults(batch.id, [
      { reference: second, outcome: 'failed' },
      { reference: third, outcome: 'failed' },
    ]);
  });

  it('takes a 16-character UTR for a NEFT payment (above the IMPS ceiling) and refuses a 12-digit one', async () => {
    const { ids } = await customerWithWithdrawals(['7000'], { upiId: '' });
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    const reference = await referenceOf(ids[0] ?? '');
    expect((await postResults(batch.id, [{ reference, outcome: 'paid', utr: rrn() }])).json().error.fields).toEqual({
      'rows.1': 'A NEFT UTR has 16 letters or digits.',
    });
    const neft = `sbinn${String(Date.now()).slice(-11)}`;
    const paid = await postResults(batch.id, [{ reference, outcome: 'paid', utr: neft }]);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(
      (await harness.database.handle.db.execute<{ utr: string }>(sql`select payout_reference as utr from withdrawal_requests where id = ${ids[0]}`)).rows[0]
        ?.utr,
    ).toBe(neft.toUpperCase());
  });

  it('previews a file (paid, failed, not sent, totals, problems, the batch’s rows the file leaves out) and changes nothing', async () => {
    const { ids } = await customerWithWithdrawals(['10', '20', '30']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    const [first, second, third] = await Promise.all(ids.map((id) => referenceOf(id)));
    const preview = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/payout-batches/${batch.id}/results/preview`,
      cookie: admin.cookie,
      body: {
        rows: [
          { reference: first, outcome: 'paid', utr: rrn() },
          { reference: second, outcome: 'failed', reason: 'Account closed', amountInr: '1000.00' },
          { reference: 'RDQQQQQQQQ', outcome: 'paid', utr: rrn() },
        ],
      },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      totals: { paid: { count: 1, netInr: '830.00' }, failed: { count: 0, netInr: '0.00' }, notSent: { count: 0 }, alreadyApplied: 0, problems: 2 },
      notInFile: [{ reference: third, netInr: '2490.00' }],
      canApply: false,
    });
    expect(preview.json().rows.map((row: { verdict: string; message: string | null }) => [row.verdict, row.message])).toEqual([
      ['paid', null],
      ['problem', 'The amount 1000.00 does not match the 1660.00 INR the file paid.'],
      ['problem', 'No withdrawal has this reference.'],
    ]);
    for (const id of ids) expect(await statusOf(id)).toBe('processing');
    await postResults(
      batch.id,
      ids.map((id) => ({ withdrawalId: id, outcome: 'not_sent' })),
    );
    for (const id of ids) expect(await statusOf(id)).toBe('pending');
    const next = (await createBatch({ withdrawalIds: ids })).json().batch;
    await postResults(
      next.id,
      ids.map((id) => ({ withdrawalId: id, outcome: 'failed' })),
    );
  });
});

describe('payout batch cancel', () => {
  it('returns the withdrawals to pending while the file was never downloaded, and refuses once something is decided', async () => {
    const { user, ids } = await customerWithWithdrawals(['10', '20']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    const cancelled = await cancelBatch(batch.id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().batch.status).toBe('cancelled');
    for (const id of ids) expect(await statusOf(id)).toBe('pending');
    expect(await auditCount('payout_batch.cancel', batch.id)).toBe(1);
    expect((await download(batch.id)).statusCode).toBe(409);
    const late = await postResults(batch.id, [{ withdrawalId: ids[0], outcome: 'paid', utr: rrn() }]);
    expect(late.json().error.fields).toEqual({ 'rows.1': 'This payout batch was cancelled.' });
    expect(await statusOf(ids[0] ?? '')).toBe('pending');
    // Back in the queue: a single decision works again, and a new batch may take the other one.
    expect((await decide(harness, admin, 'withdrawals', ids[0] ?? '', 'reject')).statusCode).toBe(200);
    const next = (await createBatch({ withdrawalIds: [ids[1]] })).json().batch;
    await postResults(next.id, [{ withdrawalId: ids[1], outcome: 'paid', utr: rrn() }]);
    const refused = await cancelBatch(next.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe('This payout batch can no longer be cancelled: some of its withdrawals have been decided.');
    expect(await balanceMicros(harness, user.id)).toBe(1000_000_000n - 20_000_000n);
  });

  it('leaves the withdrawals of a downloaded file in doubt: out of every new batch until the bank’s results settle each one', async () => {
    const { user, ids } = await customerWithWithdrawals(['10', '20', '30']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    expect((await download(batch.id)).statusCode).toBe(200);
    const cancelled = await cancelBatch(batch.id);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({
      message:
        'Payout batch cancelled. Its file was already downloaded, so its withdrawals are in doubt: they stay out of every batch until the bank’s results mark each one paid, failed or not sent.',
      batch: { status: 'cancelled', inDoubtCount: 3 },
    });
    for (const id of ids) expect(await statusOf(id)).toBe('processing');
    // The attack of issue 31: a second file with the same withdrawals. Named, they are refused; the oldest-pending selection passes over them.
    const named = await createBatch({ withdrawalIds: ids });
    expect(named.statusCode).toBe(409);
    const oldest = await createBatch();
    if (oldest.statusCode === 201) {
      const other = await call(harness.app, { url: `/api/admin/payout-batches/${oldest.json().batch.id}`, cookie: admin.cookie });
      for (const row of other.json().withdrawals as { id: string }[]) expect(ids).not.toContain(row.id);
    }
    const detail = (await call(harness.app, { url: `/api/admin/payout-batches/${batch.id}`, cookie: admin.cookie })).json();
    expect(detail.withdrawals.map((row: { inDoubt: boolean }) => row.inDoubt)).toEqual([true, true, true]);
    expect((await download(batch.id)).statusCode).toBe(409);
    for (const verb of ['approve', 'reject'] as const) expect((await decide(harness, admin, 'withdrawals', ids[0] ?? '', verb)).statusCode).toBe(409);

    // The bank's results settle them: one paid after all, one failed (refunded), one not sent (pending again, free for a new batch).
    const balance = await balanceMicros(harness, user.id);
    const [paid, failed, notSent] = await Promise.all(ids.map((id) => referenceOf(id)));
    const settled = await postResults(batch.id, [
      { reference: paid, outcome: 'paid', utr: rrn() },
      { reference: failed, outcome: 'failed', reason: 'Not paid: batch withdrawn' },
      { reference: notSent, outcome: 'not_sent' },
    ]);
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json()).toMatchObject({ applied: 3, batch: { status: 'cancelled', inDoubtCount: 0 } });
    expect([await statusOf(ids[0] ?? ''), await statusOf(ids[1] ?? ''), await statusOf(ids[2] ?? '')]).toEqual(['approved', 'rejected', 'pending']);
    expect(await balanceMicros(harness, user.id)).toBe(balance + 20_000_000n);
    const again = await createBatch({ withdrawalIds: [ids[2]] });
    expect(again.statusCode).toBe(201);
    await postResults(again.json().batch.id, [{ withdrawalId: ids[2], outcome: 'failed' }]);
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
      call(harness.app, {
        method: 'POST',
        url: `/api/admin/payout-batches/${batch.id}/cancel`,
        cookie: admin.cookie,
        body: {},
        headers: withKey('cancel-key-1'),
      });
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

describe('cancelling a downloaded file while two admins exist', () => {
  it('needs a second admin: the first cancel waits (202) and moves nothing; the same admin again is refused; another admin’s cancel applies it', async () => {
    const colleague = await signUpAdminWithVerifiedPin(harness, { fullName: 'Cancel Colleague' });
    const { ids } = await customerWithWithdrawals(['10', '20']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    expect((await download(batch.id)).statusCode).toBe(200);
    const first = await cancelBatch(batch.id);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toMatchObject({
      message:
        'This batch’s file was already downloaded: cancelling it needs a second admin. Your request waits for another admin to confirm it (or cancel the batch too).',
      pendingChange: { kind: 'payout_batch_cancel', status: 'open', requestedBy: { id: admin.id } },
    });
    const detail = (await call(harness.app, { url: `/api/admin/payout-batches/${batch.id}`, cookie: admin.cookie })).json();
    expect(detail.batch).toMatchObject({ status: 'open', inDoubtCount: 0 });
    const again = await cancelBatch(batch.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('You already asked to cancel this batch: a second admin must confirm it.');
    const confirmOwn = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/pending-changes/${first.json().pendingChange.id}/confirm`,
      cookie: admin.cookie,
      body: {},
    });
    expect(confirmOwn.statusCode).toBe(403);

    const second = await cancelBatch(batch.id, colleague);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().batch).toMatchObject({ status: 'cancelled', inDoubtCount: 2 });
    for (const id of ids) expect(await statusOf(id)).toBe('processing');
    const change = await harness.database.handle.db.execute<{ status: string; decided: string }>(
      sql`select status, decided_by_user_id as decided from pending_changes where id = ${first.json().pendingChange.id}`,
    );
    expect(change.rows[0]).toEqual({ status: 'confirmed', decided: colleague.id });
    await postResults(
      batch.id,
      ids.map((id) => ({ withdrawalId: id, outcome: 'not_sent' })),
    );
    for (const id of ids) expect(await statusOf(id)).toBe('pending');
    const next = (await createBatch({ withdrawalIds: ids })).json().batch;
    await postResults(
      next.id,
      ids.map((id) => ({ withdrawalId: id, outcome: 'failed' })),
    );
  });

  it('applies through the pending change’s confirm too, and a file never downloaded is still cancelled by one admin', async () => {
    const colleague = await signUpAdminWithVerifiedPin(harness, { fullName: 'Confirm Colleague' });
    const { ids } = await customerWithWithdrawals(['10']);
    const batch = (await createBatch({ withdrawalIds: ids })).json().batch;
    await download(batch.id, colleague);
    const first = await cancelBatch(batch.id);
    expect(first.statusCode).toBe(202);
    const confirmed = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/pending-changes/${first.json().pendingChange.id}/confirm`,
      cookie: colleague.cookie,
      body: {},
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const detail = (await call(harness.app, { url: `/api/admin/payout-batches/${batch.id}`, cookie: admin.cookie })).json();
    expect(detail.batch).toMatchObject({ status: 'cancelled', inDoubtCount: 1, issuedBy: { id: colleague.id } });
    await postResults(batch.id, [{ withdrawalId: ids[0], outcome: 'failed' }]);

    const { ids: fresh } = await customerWithWithdrawals(['10']);
    const untouched = (await createBatch({ withdrawalIds: fresh })).json().batch;
    expect((await cancelBatch(untouched.id)).statusCode).toBe(200);
    expect(await statusOf(fresh[0] ?? '')).toBe('pending');
    await decide(harness, admin, 'withdrawals', fresh[0] ?? '', 'reject');
  });
});
