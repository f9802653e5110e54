import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomErc20Address, randomTronAddress } from '../fixtures/addresses.ts';
import { currentSettingsForm, fileBytes, signUpAdminWithVerifiedPin, signUpVipCustomer, uploadFile } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { waitForMail } from '../fixtures/mail-server.ts';
import { qrPng } from '../fixtures/qr-images.ts';
import { call, type SignedUpUser } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  approveWithdrawalPaid,
  decide,
  expectStatus,
  fundWallet,
  ledgerTransferCount,
  requestWithdrawal,
  signUpFundedCustomer,
} from '../fixtures/wallet.ts';

const { harness, admin, mail } = useIntegrationFile({ mailServer: true });

const OWN_CHANGE = 'You asked for this change: a second admin must confirm it.';
const SINGLE_ADMIN_MARK = 'single admin: applied at once; every admin and the support address were e-mailed';

function db() {
  return harness.database.handle.db;
}

async function saveSettings(user: SignedUpUser, overrides: Record<string, unknown>) {
  return call(harness.app, {
    method: 'PUT',
    url: '/api/admin/settings',
    cookie: user.cookie,
    body: await currentSettingsForm(harness.app, user.cookie, overrides),
  });
}

async function publicAddresses(): Promise<{ TRC20: string; ERC20: string }> {
  return (await harness.app.inject({ method: 'GET', url: '/api/settings/public' })).json().addresses;
}

function confirm(user: SignedUpUser, id: string) {
  return call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${id}/confirm`, cookie: user.cookie, body: {} });
}

function discard(user: SignedUpUser, id: string) {
  return call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${id}/discard`, cookie: user.cookie, body: {} });
}

/** Uploads a QR image of the network's public address as it stands, and answers the file's id. */
async function uploadQrOfPublicAddress(user: SignedUpUser, network: 'TRC20' | 'ERC20'): Promise<string> {
  const response = await uploadFile(harness.app, `/api/admin/files/qr/${network}`, {
    cookie: user.cookie,
    bytes: await qrPng((await publicAddresses())[network]),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ file: { id: string } }>().file.id;
}

/** The ids of the stored files of a purpose (uploads kept in the database). */
async function fileIdsOf(purpose: 'qr_trc20' | 'qr_erc20' | 'apk'): Promise<string[]> {
  const result = await db().execute<{ id: string }>(sql`select id from stored_files where purpose = ${purpose}`);
  return result.rows.map((row) => row.id);
}

/** What customers are offered as the network's QR image: the public settings' entry and the image route's status. */
async function publicQrImage(network: 'TRC20' | 'ERC20'): Promise<{ exists: boolean; imageStatus: number }> {
  const settings = (await harness.app.inject({ method: 'GET', url: '/api/settings/public' })).json<{ qrImages: Record<string, { exists: boolean }> }>();
  const image = await harness.app.inject({ method: 'GET', url: `/api/files/qr/${network}` });
  return { exists: settings.qrImages[network]?.exists ?? false, imageStatus: image.statusCode };
}

async function openChanges(user: SignedUpUser) {
  const response = await call(harness.app, { url: '/api/admin/pending-changes', cookie: user.cookie });
  expectStatus(response, 200);
  return response.json<{ items: { id: string; kind: string; from: string; to: string; withdrawal: { id: string } | null }[] }>().items;
}

async function changeStatus(id: string): Promise<string | undefined> {
  const result = await db().execute<{ status: string }>(sql`select status from pending_changes where id = ${id}`);
  return result.rows[0]?.status;
}

async function withdrawalRow(id: string) {
  const result = await db().execute<{ status: string; decided_by_user_id: string | null; payout_reference: string | null }>(
    sql`select status, decided_by_user_id, payout_reference from withdrawal_requests where id = ${id}`,
  );
  return result.rows[0];
}

async function auditActions(targetId: string): Promise<{ action: string; actor: string | null; after: Record<string, unknown> }[]> {
  const result = await db().execute<{ action: string; actor: string | null; after: Record<string, unknown> }>(
    sql`select action, actor_user_id as actor, after from audit_log where target_id = ${targetId} order by id`,
  );
  return result.rows;
}

/** Withdrawals are checked against 8,300.00 INR: 100.00 USDT at the normal rate of 83.00 is at the boundary, 100.01 over it. */
async function setLargeWithdrawalBoundary(): Promise<void> {
  await db().execute(sql`update admin_settings set large_withdrawal_inr_paise = 830000, rate_normal_inr_paise = 8300, rate_vip_inr_paise = 8325 where id = 1`);
}

let customer: SignedUpUser;
let bankAccountId: string;

async function withdraw(amount: string, by: { customer: SignedUpUser; bankAccountId: string } = { customer, bankAccountId }): Promise<string> {
  const response = await requestWithdrawal(harness, by.customer, { amount, bankAccountId: by.bankAccountId });
  expectStatus(response, 201);
  return response.json<{ withdrawal: { id: string } }>().withdrawal.id;
}

let accountsMade = 0;
/**
 * A customer of their own with a payee account of their own: the second approval adds up a customer's
 * and a payee account's withdrawals over 24 hours (decision 038), so a test of one withdrawal's own
 * amount needs a customer and an account with nothing else in their window.
 */
async function freshCustomer(): Promise<{ customer: SignedUpUser; bankAccountId: string }> {
  accountsMade += 1;
  const fresh = await signUpFundedCustomer(harness, admin, '500');
  return { customer: fresh, bankAccountId: await addBankAccount(harness, fresh, { accountNumber: `7000${String(accountsMade).padStart(8, '0')}` }) };
}

let utrsMade = 0;
/** A fresh 12-digit UTR (the RRN of an IMPS or UPI payment), as results files must carry. */
function rrn(): string {
  utrsMade += 1;
  return `${String(Date.now()).slice(-7)}${String(utrsMade).padStart(5, '0')}`;
}

beforeAll(async () => {
  customer = await signUpFundedCustomer(harness, admin, '5000', { fullName: 'Meera Iyer' });
  bankAccountId = await addBankAccount(harness, customer);
  await setLargeWithdrawalBoundary();
});

describe('with a single admin', () => {
  it('applies an address change at once, e-mails every admin and the support address, and marks the audit entry', async () => {
    // A VIP-level reader may open the admin area but is no admin: it does not count as a second one.
    await signUpVipCustomer(harness);
    const newTrc20 = randomTronAddress();
    const response = await saveSettings(admin, { trc20Address: newTrc20 });
    expect(response.statusCode, response.body).toBe(200);
    expect((await publicAddresses()).TRC20).toBe(newTrc20);
    expect(await openChanges(admin)).toEqual([]);

    const toAdmin = await waitForMail(mail, admin.email, 'Deposit address changed');
    expect(toAdmin).toContain(newTrc20);
    expect(toAdmin).toContain('only one admin');
    const toSupport = await waitForMail(mail, 'no-reply@rupeedesk.local', 'Deposit address changed');
    expect(toSupport).toContain(newTrc20);

    const audit = (await call(harness.app, { url: '/api/admin/audit-log?action=settings.update&limit=1', cookie: admin.cookie })).json().items[0];
    expect(audit.after).toMatchObject({ trc20Address: newTrc20, addressChangeControl: SINGLE_ADMIN_MARK });
  });

  it('sets the network’s QR image aside with the address change, so no customer is shown a picture of the old address', async () => {
    await uploadQrOfPublicAddress(admin, 'TRC20');
    await uploadQrOfPublicAddress(admin, 'ERC20');
    expect(await publicQrImage('TRC20')).toEqual({ exists: true, imageStatus: 200 });
    const response = await saveSettings(admin, { trc20Address: randomTronAddress() });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().settings.files.trc20Qr).toBeNull();
    expect(await publicQrImage('TRC20')).toEqual({ exists: false, imageStatus: 404 });
    // The other network's address did not change, nor did its image.
    expect(await publicQrImage('ERC20')).toEqual({ exists: true, imageStatus: 200 });
    // The next picture of the address takes the set-aside one's place in storage too.
    const fileId = await uploadQrOfPublicAddress(admin, 'TRC20');
    expect(await fileIdsOf('qr_trc20')).toEqual([fileId]);
  });

  it('approves a large withdrawal on one admin’s word', async () => {
    const id = await withdraw('150');
    const response = await approveWithdrawalPaid(harness, admin, id);
    expect(response.statusCode, response.body).toBe(200);
    expect((await withdrawalRow(id))?.status).toBe('approved');
  });
});

describe('with two or more admins', () => {
  let second: SignedUpUser;
  let third: SignedUpUser;

  beforeAll(async () => {
    second = await signUpAdminWithVerifiedPin(harness, { fullName: 'Second Admin' });
    third = await signUpAdminWithVerifiedPin(harness, { fullName: 'Third Admin' });
  });

  describe('deposit address changes', () => {
    it('answers 202 with the pending change, keeps the public address, and saves the rest of the form', async () => {
      const before = await publicAddresses();
      const newTrc20 = randomTronAddress();
      const mailsBefore = mail.messages.length;
      const response = await saveSettings(admin, { trc20Address: newTrc20, websiteUrl: 'https://saved-now.example.com' });
      expect(response.statusCode, response.body).toBe(202);
      const body = response.json();
      expect(body.message).toBe(
        'Settings saved. The deposit address change waits for a second admin to confirm it; the public address stays as it is until then.',
      );
      expect(body.pendingChange).toMatchObject({
        kind: 'deposit_address',
        status: 'open',
        network: 'TRC20',
        from: before.TRC20,
        to: newTrc20,
        requestedBy: { id: admin.id, name: 'Admin Person', email: admin.email },
      });
      expect(body.pendingChanges).toHaveLength(1);
      expect(body.settings).toMatchObject({ trc20Address: before.TRC20, websiteUrl: 'https://saved-now.example.com' });
      expect(await publicAddresses()).toEqual(before);
      // Only about the address: the e-mail that tells the customer of the withdrawal approved just
      // before may still be on its way.
      const addressMails = mail.messages.slice(mailsBefore).filter((message) => /^Subject: .*deposit address/im.test(message.decoded));
      expect(addressMails).toEqual([]);

      // Every admin sees it, with who asked and when.
      const listed = (await call(harness.app, { url: '/api/admin/pending-changes', cookie: second.cookie })).json().items;
      expect(listed).toEqual([expect.objectContaining({ id: body.pendingChange.id, from: before.TRC20, to: newTrc20, requestedAt: expect.any(String) })]);
      await discard(admin, body.pendingChange.id);
    });

    it('does not let the requester confirm their own change', async () => {
      const before = await publicAddresses();
      const change = (await saveSettings(admin, { trc20Address: randomTronAddress() })).json().pendingChange;
      const own = await confirm(admin, change.id);
      expect(own.statusCode).toBe(403);
      expect(own.json().error).toMatchObject({ code: 'FORBIDDEN', message: OWN_CHANGE });
      expect(await changeStatus(change.id)).toBe('open');
      expect(await publicAddresses()).toEqual(before);
      await discard(admin, change.id);
    });

    it('refuses a second change of the same network while one waits, and saves nothing of that request', async () => {
      const change = (await saveSettings(admin, { trc20Address: randomTronAddress() })).json().pendingChange;
      const again = await saveSettings(second, { trc20Address: randomTronAddress(), websiteUrl: 'https://not-saved.example.com' });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({
        code: 'CHANGE_ALREADY_WAITING',
        message: 'A change of the TRC20 address is already waiting for a second admin: confirm or discard it first.',
      });
      expect((await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json().websiteUrl).not.toBe('https://not-saved.example.com');
      await discard(second, change.id);
    });

    it('changes the public address when a second admin confirms, exactly once, with every step in the audit log', async () => {
      const newErc20 = randomErc20Address();
      const change = (await saveSettings(admin, { erc20Address: newErc20 })).json().pendingChange;
      const confirmed = await confirm(second, change.id);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(confirmed.json()).toMatchObject({
        message: 'Change confirmed and applied.',
        pendingChange: { id: change.id, status: 'confirmed', decidedBy: { id: second.id, email: second.email } },
      });
      expect((await publicAddresses()).ERC20).toBe(change.to);
      expect(await openChanges(admin)).toEqual([]);

      const again = await confirm(third, change.id);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({ code: 'ALREADY_DECIDED', message: 'This change has already been confirmed.' });
      expect((await discard(admin, change.id)).statusCode).toBe(409);

      const steps = await auditActions(change.id);
      expect(steps.map((step) => [step.action, step.actor])).toEqual([
        ['pending_change.request', admin.id],
        ['pending_change.confirm', second.id],
      ]);
      const settingsAudit = (await call(harness.app, { url: '/api/admin/audit-log?action=settings.update&limit=1', cookie: admin.cookie })).json().items[0];
      expect(settingsAudit).toMatchObject({ actor: { id: second.id }, after: { erc20Address: change.to } });
    });

    it('keeps the QR image while a change waits, and sets it aside when a second admin confirms the change', async () => {
      const fileId = await uploadQrOfPublicAddress(admin, 'ERC20');
      const requested = await saveSettings(admin, { erc20Address: randomErc20Address() });
      expect(requested.statusCode, requested.body).toBe(202);
      // Until the change is confirmed, customers still pay to the old address, and its picture still shows it.
      expect(await publicQrImage('ERC20')).toEqual({ exists: true, imageStatus: 200 });
      const confirmed = await confirm(second, requested.json().pendingChange.id);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(await publicQrImage('ERC20')).toEqual({ exists: false, imageStatus: 404 });
      const settings = (await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json();
      expect(settings.files.erc20Qr).toBeNull();
      const audit = (await call(harness.app, { url: '/api/admin/audit-log?action=settings.update&limit=1', cookie: admin.cookie })).json().items[0];
      expect(audit.before).toMatchObject({ erc20QrFileId: fileId });
      expect(audit.after).toMatchObject({ erc20QrFileId: null });
    });

    it('makes one pending change per network when both addresses change', async () => {
      const before = await publicAddresses();
      const response = await saveSettings(second, { trc20Address: randomTronAddress(), erc20Address: randomErc20Address() });
      expect(response.statusCode).toBe(202);
      const changes = response.json().pendingChanges as { id: string; network: string }[];
      expect(changes.map((change) => change.network)).toEqual(['TRC20', 'ERC20']);
      // Confirming one does not make the other stale.
      for (const change of changes) expectStatus(await confirm(admin, change.id), 200);
      const after = await publicAddresses();
      expect(after.TRC20).not.toBe(before.TRC20);
      expect(after.ERC20).not.toBe(before.ERC20);
    });

    it('lets anyone discard, the requester included; a discarded change cannot be confirmed', async () => {
      const before = await publicAddresses();
      const change = (await saveSettings(admin, { trc20Address: randomTronAddress() })).json().pendingChange;
      const discarded = await discard(admin, change.id);
      expect(discarded.statusCode).toBe(200);
      expect(discarded.json().pendingChange).toMatchObject({ status: 'discarded', decidedBy: { id: admin.id } });
      const late = await confirm(second, change.id);
      expect(late.statusCode).toBe(409);
      expect(late.json().error.message).toBe('This change has already been discarded.');
      expect(await publicAddresses()).toEqual(before);
      expect((await auditActions(change.id)).map((step) => step.action)).toEqual(['pending_change.request', 'pending_change.discard']);
    });

    it('refuses a stale confirm (the address changed since it was asked for) with 409 and changes nothing', async () => {
      const change = (await saveSettings(admin, { trc20Address: randomTronAddress() })).json().pendingChange;
      const meanwhile = randomTronAddress();
      await db().execute(sql`update admin_settings set trc20_address = ${meanwhile} where id = 1`);
      const stale = await confirm(second, change.id);
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error).toMatchObject({
        code: 'STALE_CHANGE',
        message: 'The deposit address changed since this change was asked for: discard it and ask again.',
      });
      expect((await publicAddresses()).TRC20).toBe(meanwhile);
      expect(await changeStatus(change.id)).toBe('open');
      expectStatus(await discard(second, change.id), 200);
    });

    it('decides concurrent confirms once', async () => {
      const change = (await saveSettings(admin, { trc20Address: randomTronAddress() })).json().pendingChange;
      const answers = await Promise.all([confirm(second, change.id), confirm(third, change.id)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect((await auditActions(change.id)).map((step) => step.action)).toEqual(['pending_change.request', 'pending_change.confirm']);
      expect((await publicAddresses()).TRC20).toBe(change.to);
    });

    it('refuses customers and VIP readers', async () => {
      const change = (await saveSettings(admin, { trc20Address: randomTronAddress() })).json().pendingChange;
      const vip = await signUpVipCustomer(harness);
      expect((await call(harness.app, { url: '/api/admin/pending-changes', cookie: vip.cookie })).statusCode).toBe(403);
      expect((await confirm(customer, change.id)).statusCode).toBe(403);
      expect((await discard(customer, change.id)).statusCode).toBe(403);
      expect(await changeStatus(change.id)).toBe('open');
      await discard(admin, change.id);
    });

    it('refuses an admin demoted since their session started, to confirm and to discard, and changes nothing', async () => {
      const change = (await saveSettings(admin, { trc20Address: randomTronAddress() })).json().pendingChange;
      const demoted = await signUpAdminWithVerifiedPin(harness, { fullName: 'Demoted Admin' });
      await db().execute(sql`update profiles set role = 'user' where user_id = ${demoted.id}`);
      for (const answer of [await confirm(demoted, change.id), await discard(demoted, change.id)]) {
        expect(answer.statusCode).toBe(403);
        expect(answer.json().error).toEqual({ code: 'FORBIDDEN', message: 'Access denied' });
      }
      expect(await changeStatus(change.id)).toBe('open');
      expect((await auditActions(change.id)).map((step) => step.action)).toEqual(['pending_change.request']);
      await discard(admin, change.id);
    });

    it('refuses the requester’s confirm before telling whether the change was decided, as every decision does', async () => {
      const change = (await saveSettings(admin, { trc20Address: randomTronAddress() })).json().pendingChange;
      expectStatus(await discard(second, change.id), 200);
      const own = await confirm(admin, change.id);
      expect(own.statusCode).toBe(403);
      expect(own.json().error).toMatchObject({ code: 'FORBIDDEN', message: OWN_CHANGE });
      expect(await changeStatus(change.id)).toBe('discarded');
    });
  });

  describe('large withdrawals', () => {
    it('needs a second admin over the boundary: the first approve answers 202 and moves nothing', async () => {
      const id = await withdraw('100.01');
      const transfers = await ledgerTransferCount(harness);
      const firstUtr = rrn();
      const first = await decide(harness, admin, 'withdrawals', id, 'approve', { payoutReference: firstUtr });
      expect(first.statusCode, first.body).toBe(202);
      expect(first.json()).toMatchObject({
        message: 'First approval recorded. A second admin must confirm this withdrawal before it is approved.',
        pendingChange: {
          kind: 'large_withdrawal_approval',
          from: 'Pending',
          withdrawal: { id, amountInr: '8300.83', customer: { id: customer.id, name: 'Meera Iyer' }, payoutReference: firstUtr },
          requestedBy: { id: admin.id },
        },
      });
      expect((await withdrawalRow(id))?.status).toBe('pending');
      expect(await ledgerTransferCount(harness)).toBe(transfers);

      const again = await approveWithdrawalPaid(harness, admin, id);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe('You already gave the first approval of this withdrawal: a second admin must confirm it.');
      const change = first.json().pendingChange;
      expect((await confirm(admin, change.id)).json().error.message).toBe(OWN_CHANGE);

      const confirmed = await confirm(second, change.id);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(await withdrawalRow(id)).toEqual({ status: 'approved', decided_by_user_id: second.id, payout_reference: firstUtr });
      expect(await ledgerTransferCount(harness)).toBe(transfers + 1n);
      expect((await auditActions(id)).map((step) => [step.action, step.actor])).toEqual([['withdrawal.approve', second.id]]);
    });

    it('approves at the boundary on one admin’s word', async () => {
      const id = await withdraw('100.00', await freshCustomer());
      const response = await approveWithdrawalPaid(harness, admin, id);
      expect(response.statusCode, response.body).toBe(200);
      expect((await withdrawalRow(id))?.status).toBe('approved');
      expect(await openChanges(admin)).toEqual([]);
    });

    it('takes another admin’s approve as the second approval', async () => {
      const id = await withdraw('120');
      expectStatus(await approveWithdrawalPaid(harness, admin, id), 202);
      const secondUtr = rrn();
      const second_ = await decide(harness, second, 'withdrawals', id, 'approve', { payoutReference: secondUtr });
      expect(second_.statusCode, second_.body).toBe(200);
      expect(await withdrawalRow(id)).toEqual({ status: 'approved', decided_by_user_id: second.id, payout_reference: secondUtr });
      expect(await openChanges(admin)).toEqual([]);
    });

    it('lets any admin reject at once, refunding the USDT and discarding the first approval', async () => {
      const id = await withdraw('110');
      const first = await approveWithdrawalPaid(harness, admin, id);
      expectStatus(first, 202);
      const balance = await balanceMicros(harness, customer.id);
      const rejected = await decide(harness, admin, 'withdrawals', id, 'reject', { reason: 'Name does not match' });
      expect(rejected.statusCode, rejected.body).toBe(200);
      expect((await withdrawalRow(id))?.status).toBe('rejected');
      expect(await balanceMicros(harness, customer.id)).toBe(balance + 110_000_000n);
      expect(await changeStatus(first.json().pendingChange.id)).toBe('discarded');
      const late = await confirm(second, first.json().pendingChange.id);
      expect(late.statusCode).toBe(409);
      expect((await withdrawalRow(id))?.status).toBe('rejected');
    });

    it('decides concurrent confirms once and pays once', async () => {
      const id = await withdraw('130');
      const change = (await approveWithdrawalPaid(harness, admin, id)).json().pendingChange;
      const transfers = await ledgerTransferCount(harness);
      const answers = await Promise.all([confirm(second, change.id), confirm(third, change.id)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(await ledgerTransferCount(harness)).toBe(transfers + 1n);
      expect((await withdrawalRow(id))?.status).toBe('approved');
    });

    it('decides once when one admin confirms the first approval while another approves the withdrawal itself', async () => {
      for (let round = 0; round < 3; round += 1) {
        const id = await withdraw('125');
        const change = (await approveWithdrawalPaid(harness, admin, id)).json().pendingChange;
        const transfers = await ledgerTransferCount(harness);
        const answers = await Promise.all([confirm(second, change.id), approveWithdrawalPaid(harness, third, id)]);
        expect(answers.map((answer) => answer.statusCode).sort(), answers.map((answer) => answer.body).join('\n')).toEqual([200, 409]);
        expect(await ledgerTransferCount(harness)).toBe(transfers + 1n);
        expect((await withdrawalRow(id))?.status).toBe('approved');
      }
    });

    it('serves two admins approving at the same moment one after the other: a first approval, then the second', async () => {
      const id = await withdraw('140');
      const transfers = await ledgerTransferCount(harness);
      const answers = await Promise.all([approveWithdrawalPaid(harness, admin, id), approveWithdrawalPaid(harness, second, id)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 202]);
      expect((await withdrawalRow(id))?.status).toBe('approved');
      expect(await ledgerTransferCount(harness)).toBe(transfers + 1n);
    });

    it('does not let an admin who is the customer give either approval', async () => {
      const adminCustomer = await signUpAdminWithVerifiedPin(harness, { fullName: 'Admin Customer' });
      await fundWallet(harness, admin, adminCustomer, '500');
      const ownBank = await addBankAccount(harness, adminCustomer);
      const request = await requestWithdrawal(harness, adminCustomer, { amount: '150', bankAccountId: ownBank });
      expectStatus(request, 201);
      const id = request.json<{ withdrawal: { id: string } }>().withdrawal.id;
      expect((await approveWithdrawalPaid(harness, adminCustomer, id)).statusCode).toBe(403);
      expect(await openChanges(admin)).toEqual([]);
      const change = (await approveWithdrawalPaid(harness, admin, id)).json().pendingChange;
      const own = await confirm(adminCustomer, change.id);
      expect(own.statusCode).toBe(403);
      expect((await withdrawalRow(id))?.status).toBe('pending');
      expect(await changeStatus(change.id)).toBe('open');
      expectStatus(await decide(harness, second, 'withdrawals', id, 'reject'), 200);
      await db().execute(sql`update profiles set role = 'user' where user_id = ${adminCustomer.id}`);
    });

    describe('in a payout batch', () => {
      function createBatch(body: unknown) {
        return call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body });
      }

      /**
       * A batch made while the withdrawals were not large (the setting was higher then, or a single
       * admin existed): the results path is the backstop for those.
       */
      async function batchMadeEarlier(withdrawalIds: string[]): Promise<string> {
        await db().execute(sql`update admin_settings set large_withdrawal_inr_paise = 100000000000 where id = 1`);
        try {
          const response = await createBatch({ withdrawalIds });
          expectStatus(response, 201);
          return response.json<{ batch: { id: string } }>().batch.id;
        } finally {
          await setLargeWithdrawalBoundary();
        }
      }
      const batchOf = (withdrawalId: string) => batchMadeEarlier([withdrawalId]);

      it('keeps large withdrawals out of new batches: named ones are refused, the oldest-pending selection passes over them', async () => {
        const small = await withdraw('100.00');
        const large = await withdraw('100.01');
        const named = await createBatch({ withdrawalIds: [small, large] });
        expect(named.statusCode).toBe(409);
        expect(named.json().error.message).toBe(
          `These withdrawals are over the large-withdrawal amount: they need two admins' approval and are paid one by one, not in a batch: ${large}.`,
        );
        expect((await withdrawalRow(small))?.status).toBe('pending');

        const oldest = await createBatch({});
        expectStatus(oldest, 201);
        const batchId = oldest.json<{ batch: { id: string } }>().batch.id;
        const detail = await call(harness.app, { url: `/api/admin/payout-batches/${batchId}`, cookie: admin.cookie });
        const batched = detail.json<{ withdrawals: { id: string }[] }>().withdrawals.map((row) => row.id);
        expect(batched).toContain(small);
        expect(batched).not.toContain(large);
        expect((await withdrawalRow(large))?.status).toBe('pending');
        expectStatus(await call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batchId}/cancel`, cookie: admin.cookie, body: {} }), 200);
        expectStatus(await decide(harness, admin, 'withdrawals', large, 'reject', { reason: 'Test over' }), 200);
        expectStatus(await decide(harness, admin, 'withdrawals', small, 'reject', { reason: 'Test over' }), 200);
      });
      function postResults(user: SignedUpUser, batchId: string, rows: unknown[]) {
        return call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batchId}/results`, cookie: user.cookie, body: { rows } });
      }

      it('does not mark a large withdrawal paid from the results file until a second admin confirms', async () => {
        const id = await withdraw('150');
        const batchId = await batchOf(id);
        const transfers = await ledgerTransferCount(harness);
        const utr = rrn();
        const results = await postResults(admin, batchId, [{ withdrawalId: id, outcome: 'paid', utr }]);
        expect(results.statusCode, results.body).toBe(200);
        expect(results.json()).toMatchObject({
          applied: 0,
          awaitingSecondApproval: 1,
          results: [{ withdrawalId: id, result: 'awaiting_second_approval' }],
        });
        expect((await withdrawalRow(id))?.status).toBe('processing');
        expect(await ledgerTransferCount(harness)).toBe(transfers);

        // The same file again: still waiting, no second pending change.
        const again = await postResults(admin, batchId, [{ withdrawalId: id, outcome: 'paid', utr }]);
        expect(again.json().results[0].result).toBe('awaiting_second_approval');
        const waiting = (await openChanges(second)).filter((change) => change.withdrawal?.id === id);
        expect(waiting).toHaveLength(1);
        expect(waiting[0]?.from).toBe('Processing (in a payout batch)');

        expectStatus(await confirm(second, waiting[0]?.id as string), 200);
        expect(await withdrawalRow(id)).toEqual({ status: 'approved', decided_by_user_id: second.id, payout_reference: utr });
        expect(await ledgerTransferCount(harness)).toBe(transfers + 1n);
        const posted = await postResults(admin, batchId, [{ withdrawalId: id, outcome: 'paid', utr }]);
        expect(posted.json().results[0].result).toBe('already_applied');
      });

      it('applies a small withdrawal’s paid row and a large one’s failed row at once', async () => {
        const small = await withdraw('50', await freshCustomer());
        const large = await withdraw('160');
        const batchId = await batchMadeEarlier([small, large]);
        const balance = await balanceMicros(harness, customer.id);
        const results = await postResults(admin, batchId, [
          { withdrawalId: small, outcome: 'paid', utr: rrn() },
          { withdrawalId: large, outcome: 'failed', reason: 'Beneficiary bank not reachable' },
        ]);
        expect(results.json()).toMatchObject({ applied: 2, awaitingSecondApproval: 0 });
        expect((await withdrawalRow(small))?.status).toBe('approved');
        expect((await withdrawalRow(large))?.status).toBe('rejected');
        expect(await balanceMicros(harness, customer.id)).toBe(balance + 160_000_000n);
      });

      it('refuses a confirm that became stale when the batch was cancelled', async () => {
        const id = await withdraw('170');
        const batchId = await batchOf(id);
        await postResults(admin, batchId, [{ withdrawalId: id, outcome: 'paid', utr: rrn() }]);
        const change = (await openChanges(admin)).find((item) => item.withdrawal?.id === id);
        expectStatus(await call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batchId}/cancel`, cookie: admin.cookie, body: {} }), 200);
        const stale = await confirm(second, change?.id as string);
        expect(stale.statusCode).toBe(409);
        expect(stale.json().error).toMatchObject({
          code: 'STALE_CHANGE',
          message: 'This withdrawal is no longer waiting for this approval: discard this change.',
        });
        expect((await withdrawalRow(id))?.status).toBe('pending');
        // A fresh approve replaces the stale first approval.
        const first = await approveWithdrawalPaid(harness, admin, id);
        expect(first.statusCode, first.body).toBe(202);
        expect(await changeStatus(change?.id as string)).toBe('discarded');
        expectStatus(await approveWithdrawalPaid(harness, second, id), 200);
      });
    });

    describe('exchange rates and the large-withdrawal amount', () => {
      async function publicRates(): Promise<{ normalRate: string; vipRate: string }> {
        return (await harness.app.inject({ method: 'GET', url: '/api/rates' })).json();
      }

      it('keeps the rates while a change waits, and applies it when a second admin confirms', async () => {
        const requested = await saveSettings(admin, {
          normalRate: '99999.00',
          vipRate: '99999.00',
          confirmedLargeRateChange: true,
          websiteUrl: 'https://rates.example.com',
        });
        expect(requested.statusCode, requested.body).toBe(202);
        expect(requested.json()).toMatchObject({
          message: 'Settings saved. The exchange rates: this change waits for a second admin to confirm; until then the current values stay.',
          settings: { normalRate: '83.00', vipRate: '83.25', websiteUrl: 'https://rates.example.com' },
          pendingChange: {
            kind: 'exchange_rates',
            summary: 'Exchange rates',
            from: 'Standard ₹83.00, VIP ₹83.25 per USDT',
            to: 'Standard ₹99,999.00, VIP ₹99,999.00 per USDT',
            requestedBy: { id: admin.id },
          },
        });
        expect(await publicRates()).toMatchObject({ normalRate: '83.00', vipRate: '83.25' });
        // A withdrawal made meanwhile is priced at the rates in force, not the ones asked for.
        const id = await withdraw('1.5');
        expect((await call(harness.app, { url: `/api/withdrawals/${id}`, cookie: customer.cookie })).json().withdrawal.amountInr).toBe('124.50');
        await decide(harness, second, 'withdrawals', id, 'reject', { reason: 'Test of the rates' });

        const changeId = requested.json().pendingChange.id as string;
        const another = await saveSettings(second, { vipRate: '83.40' });
        expect(another.statusCode).toBe(409);
        expect(another.json().error).toMatchObject({
          code: 'CHANGE_ALREADY_WAITING',
          message: 'A change of the exchange rates already waits for a second admin: confirm or discard it first.',
        });
        expect((await confirm(admin, changeId)).json().error.message).toBe(OWN_CHANGE);

        const confirmed = await confirm(second, changeId);
        expect(confirmed.statusCode, confirmed.body).toBe(200);
        expect(await publicRates()).toMatchObject({ normalRate: '99999.00', vipRate: '99999.00' });
        const audit = (await call(harness.app, { url: '/api/admin/audit-log?action=settings.update&limit=1', cookie: admin.cookie })).json().items[0];
        expect(audit).toMatchObject({
          actor: { id: second.id },
          before: { normalRate: '83.00' },
          after: { normalRate: '99999.00', twoPersonControl: `confirmed by a second admin (pending change ${changeId})` },
        });
        await setLargeWithdrawalBoundary();
      });

      it('refuses a stale confirm: the rates changed since the change was asked for', async () => {
        const requested = await saveSettings(admin, { vipRate: '84.00' });
        expect(requested.statusCode, requested.body).toBe(202);
        await db().execute(sql`update admin_settings set rate_vip_inr_paise = 8330 where id = 1`);
        const stale = await confirm(second, requested.json().pendingChange.id);
        expect(stale.statusCode).toBe(409);
        expect(stale.json().error).toMatchObject({
          code: 'STALE_CHANGE',
          message: 'The exchange rates changed since this change was asked for: discard it and ask again.',
        });
        expect(await publicRates()).toMatchObject({ vipRate: '83.30' });
        await discard(admin, requested.json().pendingChange.id);
        await setLargeWithdrawalBoundary();
      });

      it('raises the large-withdrawal amount only when a second admin confirms; lowering it applies at once', async () => {
        const raised = await saveSettings(admin, { largeWithdrawalInr: '100000000.00' });
        expect(raised.statusCode, raised.body).toBe(202);
        expect(raised.json()).toMatchObject({
          settings: { largeWithdrawalInr: '8300.00' },
          pendingChange: { kind: 'large_withdrawal_limit', from: '₹8,300.00', to: '₹10,00,00,000.00' },
        });
        // Still large: the same admin cannot approve it alone.
        const id = await withdraw('100.01');
        expect((await approveWithdrawalPaid(harness, admin, id)).statusCode).toBe(202);
        await discard(admin, raised.json().pendingChange.id);

        const lowered = await saveSettings(admin, { largeWithdrawalInr: '8000.00' });
        expect(lowered.statusCode, lowered.body).toBe(200);
        expect(lowered.json().settings.largeWithdrawalInr).toBe('8000.00');

        // Raised by two admins after the first approval: the first approver still cannot give the second.
        const raise = await saveSettings(admin, { largeWithdrawalInr: '100000000.00' });
        expectStatus(await confirm(second, raise.json().pendingChange.id), 200);
        const again = await approveWithdrawalPaid(harness, admin, id);
        expect(again.statusCode).toBe(409);
        expect(again.json().error.message).toBe('You already gave the first approval of this withdrawal: a second admin must confirm it.');
        expect((await withdrawalRow(id))?.status).toBe('pending');
        expectStatus(await approveWithdrawalPaid(harness, second, id), 200);
        await setLargeWithdrawalBoundary();
      });

      it('names every waiting change when rates and an address change in one save', async () => {
        const both = await saveSettings(admin, { vipRate: '83.50', erc20Address: randomErc20Address() });
        expect(both.statusCode, both.body).toBe(202);
        expect(both.json().message).toBe(
          'Settings saved. The ERC20 deposit address and the exchange rates: these changes wait for a second admin to confirm; until then the current values stay.',
        );
        expect(both.json().pendingChanges.map((change: { kind: string }) => change.kind)).toEqual(['deposit_address', 'exchange_rates']);
        for (const change of both.json().pendingChanges as { id: string }[]) await discard(admin, change.id);
      });
    });

    describe('a new app file', () => {
      function uploadApp(user: SignedUpUser, bytes: Buffer) {
        return uploadFile(harness.app, '/api/admin/files/apk', {
          cookie: user.cookie,
          bytes,
          contentType: 'application/vnd.android.package-archive',
          fileName: 'rupeedesk-new.apk',
        });
      }

      async function publicApp(): Promise<{ exists: boolean; url: string | null; sizeBytes: number | null }> {
        return (await harness.app.inject({ method: 'GET', url: '/api/settings/public' })).json().apk;
      }

      it('is stored at once but offered for download only once a second admin confirms it', async () => {
        const before = await publicApp();
        const bytes = fileBytes('zip', 4321);
        const uploaded = await uploadApp(admin, bytes);
        expect(uploaded.statusCode, uploaded.body).toBe(202);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        expect(uploaded.json()).toMatchObject({
          message: 'File uploaded. It is offered for download only once a second admin confirms it; until then the current app file stays.',
          file: { purpose: 'apk', sizeBytes: 4321, sha256 },
          pendingChange: {
            kind: 'app_file',
            summary: 'App file (APK) offered for download',
            to: `rupeedesk-new.apk, 4,321 bytes, SHA-256 ${sha256}`,
            requestedBy: { id: admin.id },
          },
        });
        expect(await publicApp()).toEqual(before);
        const waiting = await uploadApp(second, fileBytes('zip', 999));
        expect(waiting.statusCode).toBe(409);
        expect(waiting.json().error.message).toBe('A new app file already waits for a second admin: confirm or discard it first.');

        const changeId = uploaded.json().pendingChange.id as string;
        expect((await confirm(admin, changeId)).json().error.message).toBe(OWN_CHANGE);
        expectStatus(await confirm(second, changeId), 200);
        const offered = await publicApp();
        expect(offered).toMatchObject({ exists: true, sizeBytes: 4321 });
        const download = await harness.app.inject({ method: 'GET', url: offered.url ?? '' });
        expect(download.statusCode).toBe(200);
        expect(download.rawPayload.equals(bytes)).toBe(true);

        // The next one replaces it only when confirmed; a discarded one changes nothing.
        const next = await uploadApp(second, fileBytes('zip', 5000));
        expect(next.statusCode).toBe(202);
        expectStatus(await discard(second, next.json().pendingChange.id), 200);
        expect(await publicApp()).toEqual(offered);
        // Storage keeps the app offered and the one waiting, nothing discarded or replaced.
        const waitingNow = await uploadApp(second, fileBytes('zip', 6000));
        expect(waitingNow.statusCode).toBe(202);
        expect((await fileIdsOf('apk')).sort()).toEqual([uploaded.json().file.id, waitingNow.json().file.id].sort());
        expectStatus(await confirm(admin, waitingNow.json().pendingChange.id), 200);
        expect(await fileIdsOf('apk')).toEqual([waitingNow.json().file.id]);
      });
    });
  });
});
