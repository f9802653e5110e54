import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { currentSettingsForm, signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { addBankAccount, decide, fixtureAccountNumber, fundWallet, requestWithdrawal, setRates } from '../fixtures/wallet.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';

/* The bank file's layout picked in the settings (issue 31, section 2; decision 064). */

const { harness, admin } = useIntegrationFile();

const RAZORPAYX_DEBIT_ACCOUNT = '7878780080316316';

async function customerWithWithdrawal(amount: string, bankOverrides: Record<string, unknown> = {}): Promise<{ user: SignedUpUser; id: string }> {
  const user = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, user, '1000');
  const bankAccountId = await addBankAccount(harness, user, bankOverrides);
  const response = await requestWithdrawal(harness, user, { amount, bankAccountId });
  expect(response.statusCode).toBe(201);
  return { user, id: response.json().withdrawal.id };
}

/** One UPI payment (830.00 INR to asha@oksbi) and one IMPS payment (66,400.00 INR to an account, no UPI id) in a new batch. */
async function batchOfTwo() {
  const upi = await customerWithWithdrawal('10');
  const imps = await customerWithWithdrawal('800', { upiId: '' });
  const response = await call(harness.app, {
    method: 'POST',
    url: '/api/admin/payout-batches',
    cookie: admin.cookie,
    body: { withdrawalIds: [upi.id, imps.id] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return {
    batchId: response.json().batch.id as string,
    upi: { ...upi, reference: await referenceOf(upi.id) },
    imps: { ...imps, reference: await referenceOf(imps.id) },
  };
}

async function referenceOf(id: string): Promise<string> {
  const result = await harness.database.handle.db.execute<{ reference: string }>(sql`select reference from withdrawal_requests where id = ${id}`);
  return result.rows[0]?.reference ?? 'missing';
}

async function statusOf(id: string): Promise<string> {
  const result = await harness.database.handle.db.execute<{ status: string }>(sql`select status from withdrawal_requests where id = ${id}`);
  return result.rows[0]?.status ?? 'missing';
}

async function savePayoutFile(payoutFile: unknown, cookie = admin.cookie) {
  return call(harness.app, { method: 'PUT', url: '/api/admin/settings', cookie, body: await currentSettingsForm(harness.app, admin.cookie, { payoutFile }) });
}

async function storedPayoutFile() {
  const result = await harness.database.handle.db.execute<{ format: string; account: string; updated: Date }>(
    sql`select payout_file_format as format, payout_file_debit_account_number as account, updated_at as updated from admin_settings where id = 1`,
  );
  return result.rows[0];
}

function download(batchId: string) {
  return call(harness.app, { url: `/api/admin/payout-batches/${batchId}.csv`, cookie: admin.cookie });
}

function postResultsCsv(batchId: string, csv: string) {
  return harness.app.inject({
    method: 'POST',
    url: `/api/admin/payout-batches/${batchId}/results`,
    headers: { origin: 'http://localhost:3000', cookie: admin.cookie, 'content-type': 'text/csv' },
    payload: csv,
  });
}

let utrCounter = 0;
/** A fresh 12-digit UTR (the RRN of IMPS and UPI payments). */
function rrn(): string {
  utrCounter += 1;
  return `${String(Date.now()).slice(-7)}${String(utrCounter).padStart(5, '0')}`;
}

describe('the bank file layout setting', () => {
  it('is the generic CSV until an admin picks another; a bad layout or a RazorpayX layout without its account is refused and changes nothing', async () => {
    const settings = await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie });
    expect(settings.json().payoutFile).toEqual({ format: 'generic', debitAccountNumber: '' });
    const before = await storedPayoutFile();

    const unknown = await savePayoutFile({ format: 'hdfc_enet', debitAccountNumber: '' });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(unknown.json().error.fields['payoutFile.format']).toBe('The bank file layout must be one of: generic, razorpayx_bulk, plural_bulk');
    const withoutAccount = await savePayoutFile({ format: 'razorpayx_bulk', debitAccountNumber: '' });
    expect(withoutAccount.statusCode).toBe(400);
    expect(withoutAccount.json().error.fields['payoutFile.debitAccountNumber']).toBe(
      'The RazorpayX layout needs the RazorpayX account number the payouts are paid from',
    );
    const badAccount = await savePayoutFile({ format: 'razorpayx_bulk', debitAccountNumber: '12-34' });
    expect(badAccount.statusCode).toBe(400);
    expect(await storedPayoutFile()).toEqual(before);
  });

  it('is changed by admins only: a customer is refused and nothing changes', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const before = await storedPayoutFile();
    const refused = await savePayoutFile({ format: 'plural_bulk', debitAccountNumber: '' }, customer.cookie);
    expect(refused.statusCode).toBe(403);
    const anonymous = await call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      body: { payoutFile: { format: 'plural_bulk', debitAccountNumber: '' } },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await storedPayoutFile()).toEqual(before);
  });
});

describe('a batch file in the RazorpayX Bulk Payouts layout', () => {
  it('has the template’s columns, the amount in rupees, UPI to a vpa and IMPS to a bank account, our reference as the payout reference id', async () => {
    const saved = await savePayoutFile({ format: 'razorpayx_bulk', debitAccountNumber: RAZORPAYX_DEBIT_ACCOUNT });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().settings.payoutFile).toEqual({ format: 'razorpayx_bulk', debitAccountNumber: RAZORPAYX_DEBIT_ACCOUNT });
    const { batchId, upi, imps } = await batchOfTwo();
    const batchView = async () => (await call(harness.app, { url: `/api/admin/payout-batches/${batchId}`, cookie: admin.cookie })).json().batch;
    expect((await batchView()).fileFormat).toBeNull();

    const file = await download(batchId);
    expect((await batchView()).fileFormat).toBe('razorpayx_bulk');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="razorpayx-bulk-payouts-${batchId}.csv"`);
    expect(file.headers['x-file-sha256']).toBe(createHash('sha256').update(file.body).digest('hex'));
    const lines = file.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      '"RazorpayX Account Number","Payout Amount (in Rupees)","Payout Currency","Payout Mode","Payout Purpose","Fund Account Id","Fund Account Type",' +
        '"Fund Account Name","Fund Account Ifsc","Fund Account Number","Fund Account Vpa","Fund Account Phone Number","Contact Name","Payout Narration",' +
        '"Payout Reference Id","Fund Account Email","Contact Type","Contact Email","Contact Mobile","Contact Reference Id"',
    );
    expect(lines[1]).toBe(
      `"${RAZORPAYX_DEBIT_ACCOUNT}","830.00","INR","UPI","payout","","vpa","","","","asha@oksbi","","Asha Rao","Rupeedesk ${upi.reference}","${upi.reference}","","customer","","",""`,
    );
    expect(lines[2]).toBe(
      `"${RAZORPAYX_DEBIT_ACCOUNT}","66400.00","INR","IMPS","payout","","bank_account","Asha Rao","SBIN0001234","${fixtureAccountNumber(imps.user.id)}","","","Asha Rao","Rupeedesk ${imps.reference}","${imps.reference}","","customer","","",""`,
    );

    // The batch keeps the layout it was issued in: a later change of the setting does not change its bytes.
    expect((await savePayoutFile({ format: 'plural_bulk', debitAccountNumber: '' })).statusCode).toBe(200);
    const again = await download(batchId);
    expect(again.body).toBe(file.body);
    expect(again.headers['content-disposition']).toBe(`attachment; filename="razorpayx-bulk-payouts-${batchId}.csv"`);
    const issued = await harness.database.handle.db.execute<{ format: string; sha: string }>(
      sql`select file_format as format, file_sha256 as sha from payout_batches where id = ${batchId}`,
    );
    expect(issued.rows[0]).toEqual({ format: 'razorpayx_bulk', sha: file.headers['x-file-sha256'] });

    // Results still apply by our reference: the provider's payout report columns (Payout Reference Id, Status, UTR).
    const [upiUtr, impsUtr] = [rrn(), rrn()];
    const results = await postResultsCsv(
      batchId,
      `Payout Reference Id,Payout Amount (in Rupees),Status,UTR\r\n${upi.reference},830.00,processed,${upiUtr}\r\n${imps.reference},66400.00,processed,${impsUtr}\r\n`,
    );
    expect(results.statusCode, results.body).toBe(200);
    expect(results.json()).toMatchObject({ applied: 2 });
    expect(await statusOf(upi.id)).toBe('approved');
    expect(await statusOf(imps.id)).toBe('approved');
  });
});

describe('a batch file in the Plural bulk payouts layout', () => {
  it('has the published columns, the amount in paise, the UPI id or the account by mode, our reference as the client reference id and in the remarks', async () => {
    expect((await savePayoutFile({ format: 'plural_bulk', debitAccountNumber: '' })).statusCode).toBe(200);
    const { batchId, upi, imps } = await batchOfTwo();
    const file = await download(batchId);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="plural-bulk-payouts-${batchId}.csv"`);
    const lines = file.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      '"clientReferenceId","beneficiaryId","payeeName","accountNumber","branchCode","vpa","email","phone","amountCurrency","amountValue","mode","dateTime","remarks","saveBeneficiary","validate"',
    );
    expect(lines[1]).toBe(`"${upi.reference}","","Asha Rao","","","asha@oksbi","","","INR","83000","UPI","","Rupeedesk ${upi.reference}","",""`);
    expect(lines[2]).toBe(
      `"${imps.reference}","","Asha Rao","${fixtureAccountNumber(imps.user.id)}","SBIN0001234","","","","INR","6640000","IMPS","","Rupeedesk ${imps.reference}","",""`,
    );

    // Our results CSV applies by reference to a batch issued in this layout: one paid, one failed and refunded.
    const utr = rrn();
    const results = await postResultsCsv(
      batchId,
      `reference,outcome,utr,reason\r\n${upi.reference},paid,${utr},\r\n${imps.reference},failed,,Account closed\r\n`,
    );
    expect(results.statusCode, results.body).toBe(200);
    expect(results.json()).toMatchObject({ applied: 2 });
    expect(await statusOf(upi.id)).toBe('approved');
    expect(await statusOf(imps.id)).toBe('rejected');
  });

  it('is refused at its first download, naming them, when a row is over Plural’s ₹10 lakh per payout; nothing is issued and one admin cancels it', async () => {
    expect((await savePayoutFile({ format: 'plural_bulk', debitAccountNumber: '' })).statusCode).toBe(200);
    const { db } = harness.database.handle;
    const rates = await db.execute<{ normal: string; vip: string }>(
      sql`select rate_normal_inr_paise as normal, rate_vip_inr_paise as vip from admin_settings where id = 1`,
    );
    const saved = rates.rows[0];
    if (!saved) throw new Error('no settings row');
    // ₹1,00,000 per USDT, so 11 USDT is a payout over Plural's cap and 1 USDT one well under it.
    await setRates(harness, 10_000_000n, 10_000_000n);
    let over: { id: string };
    let under: { id: string };
    try {
      over = await customerWithWithdrawal('11');
      under = await customerWithWithdrawal('1');
    } finally {
      await setRates(harness, BigInt(saved.normal), BigInt(saved.vip));
    }
    const created = await call(harness.app, {
      method: 'POST',
      url: '/api/admin/payout-batches',
      cookie: admin.cookie,
      body: { withdrawalIds: [over.id, under.id] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const batchId = created.json().batch.id as string;
    const overReference = await referenceOf(over.id);
    const underReference = await referenceOf(under.id);

    // The batch page is told before anyone clicks: the refusal the first download would give, in the layout the settings name now.
    const before = await call(harness.app, { url: `/api/admin/payout-batches/${batchId}`, cookie: admin.cookie });
    const fileRefusal = before.json().fileRefusal as string;
    const refused = await download(batchId);
    expect(refused.statusCode).toBe(409);
    const message = refused.json().error.message as string;
    expect(message).toMatch(/^The Plural \(Pine Labs\) bulk payouts file takes ₹1\.00 to ₹10,00,000\.00 per payout; these withdrawals are outside it: /);
    expect(message).toContain(`${overReference} (₹`);
    expect(message).not.toContain(underReference);
    expect(fileRefusal).toBe(message);
    // Nothing was issued or recorded, so the batch is still one admin's to cancel, and its withdrawals go back to pending.
    const batch = await call(harness.app, { url: `/api/admin/payout-batches/${batchId}`, cookie: admin.cookie });
    expect(batch.json().batch).toMatchObject({ issuedAt: null, fileSha256: null, fileFormat: null });
    // Another layout would take the file as it is.
    expect((await savePayoutFile({ format: 'generic', debitAccountNumber: '' })).statusCode).toBe(200);
    expect((await call(harness.app, { url: `/api/admin/payout-batches/${batchId}`, cookie: admin.cookie })).json().fileRefusal).toBeNull();
    const downloads = await db.execute(sql`select 1 from payout_batch_downloads where payout_batch_id = ${batchId}`);
    expect(downloads.rows).toEqual([]);
    const cancelled = await call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batchId}/cancel`, cookie: admin.cookie, body: {} });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect([await statusOf(over.id), await statusOf(under.id)]).toEqual(['pending', 'pending']);
    // Rejected so the next tests' batches do not meet them.
    for (const id of [over.id, under.id]) {
      expect((await decide(harness, admin, 'withdrawals', id, 'reject', { reason: 'Test over' })).statusCode).toBe(200);
    }
  });

  it('is changed by one admin while two admins exist (a layout does not move money), recorded in the settings history', async () => {
    await signUpAdminWithVerifiedPin(harness);
    const saved = await savePayoutFile({ format: 'generic', debitAccountNumber: '' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().settings.payoutFile).toEqual({ format: 'generic', debitAccountNumber: '' });
    const history = await harness.database.handle.db.execute<{ after: Record<string, unknown> }>(
      sql`select after from admin_settings_history order by id desc limit 1`,
    );
    expect(history.rows[0]?.after).toMatchObject({ payoutFileFormat: 'generic' });
    const { batchId } = await batchOfTwo();
    const file = await download(batchId);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="payout-batch-${batchId}.csv"`);
    expect(file.body.split('\r\n')[0]).toBe(
      '"Payment Mode","Beneficiary Name","Beneficiary Account Number","IFSC","Beneficiary UPI ID","Amount (INR)","Narration","Reference"',
    );
    await postResultsCsv(batchId, `reference,outcome,reason\r\n${await referenceOf((await batchRows(batchId))[0] ?? '')},failed,Test over\r\n`);
  });
});

async function batchRows(batchId: string): Promise<string[]> {
  const result = await harness.database.handle.db.execute<{ id: string }>(sql`select id from withdrawal_requests where payout_batch_id = ${batchId}`);
  return result.rows.map((row) => row.id);
}
