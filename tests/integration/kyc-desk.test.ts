import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FREEZE_MESSAGES, KYC_REFRESH_MESSAGES, PAN_MESSAGES, RISK_MESSAGES } from '#shared/contracts/kyc';
import { PENDING_CHANGE_MESSAGES } from '#shared/contracts/pending-changes';
import { KYC_REFRESH_MONTHS_MESSAGE, NO_PAN_TDS_MESSAGE } from '#shared/contracts/kyc-settings';
import { currentSettingsBody, signUpVipCustomer } from '../fixtures/admin.ts';
import { sharedCashfreeStandIn, uniquePersonPan, type CashfreeStandIn } from '../fixtures/cashfree-stand-in.ts';
import { useIntegrationFile, useTwoAdminApp } from '../fixtures/integration-file.ts';
import { call, signUpPinVerifiedUser, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  approveWithdrawalPaid,
  decide,
  expectLedgerConsistent,
  expectStatus,
  fundWallet,
  ledgerTransferCount,
  requestTransfer,
  requestWithdrawal,
  signUpFundedCustomer,
} from '../fixtures/wallet.ts';

/*
 * The admin KYC desk (decision 047): the PAN reviews decided through the one decision flow, a
 * customer's KYC on the user page, the freeze of an account and the KYC refresh per risk category.
 * This file's app has a single admin (two-person control is tested on an app of its own below).
 */

const { harness, admin } = useIntegrationFile();
let cashfree: CashfreeStandIn;

beforeAll(async () => {
  cashfree = await sharedCashfreeStandIn();
});

async function auditActions(userId: string): Promise<string[]> {
  const result = await harness.database.handle.db.execute<{ action: string }>(
    sql`select action from audit_log where target_user_id = ${userId} order by created_at, id`,
  );
  return result.rows.map((row) => row.action);
}

async function kycOf(user: SignedUpUser, app: TestApp = harness) {
  const response = await call(app.app, { url: '/api/kyc', cookie: user.cookie });
  expectStatus(response, 200);
  return response.json();
}

/** A customer at level 0 whose PAN waits for a person: the provider's registered name only partly matches theirs. */
async function customerWaitingForReview(): Promise<{ customer: SignedUpUser; pan: string }> {
  const customer = await signUpPinVerifiedUser(harness.app);
  await harness.database.handle.db.execute(sql`update users set email_verified_at = now() where id = ${customer.id}`);
  await harness.database.handle.db.execute(sql`update profiles set phone_verified_at = now() where user_id = ${customer.id}`);
  expectStatus(
    await call(harness.app, { method: 'POST', url: '/api/kyc/tax-residence', cookie: customer.cookie, body: { residence: 'india', confirmed: true } }),
    200,
  );
  const pan = uniquePersonPan();
  cashfree.register(pan, { registeredName: 'ASHA LATA RAO' });
  const submitted = await call(harness.app, { method: 'POST', url: '/api/kyc/pan', cookie: customer.cookie, body: { pan } });
  expect(submitted.json()).toMatchObject({ message: PAN_MESSAGES.pendingReview });
  return { customer, pan };
}

function reviewCall(who: SignedUpUser, customerId: string, verb: 'approve' | 'reject', body?: unknown, headers: Record<string, string> = {}) {
  return call(harness.app, { method: 'POST', url: `/api/admin/kyc/pan-reviews/${customerId}/${verb}`, cookie: who.cookie, body, headers });
}

async function panStatusOf(userId: string): Promise<string | undefined> {
  const result = await harness.database.handle.db.execute<{ status: string }>(sql`select pan_status as status from kyc_records where user_id = ${userId}`);
  return result.rows[0]?.status;
}

describe('the PAN review desk', () => {
  it('lists the waiting PANs oldest first, with the customer’s name, the registered name and the name rule’s verdict', async () => {
    const first = await customerWaitingForReview();
    const second = await customerWaitingForReview();
    const list = await call(harness.app, { url: '/api/admin/kyc/pan-reviews?limit=100', cookie: admin.cookie });
    expectStatus(list, 200);
    const ids = list.json().items.map((item: { userId: string }) => item.userId);
    expect(ids.indexOf(first.customer.id)).toBeLessThan(ids.indexOf(second.customer.id));
    expect(list.json().items.find((item: { userId: string }) => item.userId === first.customer.id)).toMatchObject({
      name: 'Asha Rao',
      pan: first.pan,
      registeredName: 'ASHA LATA RAO',
      nameMatch: { score: 67, verdict: 'partial' },
      riskCategory: 'low',
    });
  });

  it('approves through the decision flow: audited, the customer told and at level 1, a second decision 409', async () => {
    const { customer } = await customerWaitingForReview();
    const approved = await reviewCall(admin, customer.id, 'approve', { registeredName: 'ASHA LATA RAO' });
    expectStatus(approved, 200);
    expect(approved.json()).toMatchObject({ message: PAN_MESSAGES.verified, review: { userId: customer.id, status: 'verified' } });
    expect((await kycOf(customer)).level).toBe(1);
    expect(await auditActions(customer.id)).toContain('kyc_pan.approve');
    const audit = await harness.database.handle.db.execute<{ actor: string; targetType: string }>(
      sql`select actor_user_id as actor, target_type as "targetType" from audit_log where target_user_id = ${customer.id} and action = 'kyc_pan.approve'`,
    );
    expect(audit.rows).toEqual([{ actor: admin.id, targetType: 'kyc_pan' }]);
    const notifications = await harness.database.handle.db.execute<{ title: string }>(
      sql`select title from notifications where user_id = ${customer.id} and kind = 'kyc_updated'`,
    );
    expect(notifications.rows).toEqual([{ title: 'PAN verified' }]);

    const again = await reviewCall(admin, customer.id, 'reject', { reason: 'Blurred' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'ALREADY_DECIDED', message: PAN_MESSAGES.reviewNotPending });
    expect(await panStatusOf(customer.id)).toBe('verified');
  });

  it('answers a retry with the same Idempotency-Key with the first answer', async () => {
    const { customer } = await customerWaitingForReview();
    const headers = { 'idempotency-key': `pan-review-${customer.id}` };
    const first = await reviewCall(admin, customer.id, 'approve', { registeredName: 'ASHA RAO' }, headers);
    const retry = await reviewCall(admin, customer.id, 'approve', { registeredName: 'ASHA RAO' }, headers);
    expectStatus(retry, 200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
  });

  it('rejects with the reason the customer sees', async () => {
    const { customer } = await customerWaitingForReview();
    expectStatus(await reviewCall(admin, customer.id, 'reject', { reason: 'The name on the card is someone else’s.' }), 200);
    const kyc = await kycOf(customer);
    expect(kyc.checks.pan).toMatchObject({ state: 'rejected', rejectionReason: 'The name on the card is someone else’s.' });
    expect(await auditActions(customer.id)).toContain('kyc_pan.reject');
  });

  it('refuses bad input with a field message and changes nothing: no body, a blank name, no reason', async () => {
    const { customer } = await customerWaitingForReview();
    const noBody = await reviewCall(admin, customer.id, 'approve');
    expect(noBody.statusCode).toBe(400);
    expect(noBody.json().error.fields).toEqual({ registeredName: PAN_MESSAGES.reviewNameNeeded });
    expect((await reviewCall(admin, customer.id, 'approve', { registeredName: '  ' })).statusCode).toBe(400);
    const noReason = await reviewCall(admin, customer.id, 'reject');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields).toEqual({ reason: PAN_MESSAGES.reviewReasonNeeded });
    expect(await panStatusOf(customer.id)).toBe('pending_review');
    expect(await auditActions(customer.id)).not.toContain('kyc_pan.approve');
  });

  it('refuses customers, VIP customers and the customer themselves', async () => {
    const { customer } = await customerWaitingForReview();
    const vip = await signUpVipCustomer(harness);
    expect((await reviewCall(customer, customer.id, 'approve', { registeredName: 'ASHA RAO' })).statusCode).toBe(403);
    expect((await reviewCall(vip, customer.id, 'approve', { registeredName: 'ASHA RAO' })).statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/admin/kyc/pan-reviews', cookie: vip.cookie })).statusCode).toBe(403);
    expect((await call(harness.app, { url: `/api/admin/kyc/customers/${customer.id}`, cookie: vip.cookie })).statusCode).toBe(403);
    expect(await panStatusOf(customer.id)).toBe('pending_review');
  });
});

describe('a customer’s KYC on the user page', () => {
  it('shows the level, each check with its time, the PAN’s check, the risk and the refresh date', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const record = await call(harness.app, { url: `/api/admin/kyc/customers/${customer.id}`, cookie: admin.cookie });
    expectStatus(record, 200);
    const body = record.json();
    expect(body).toMatchObject({
      userId: customer.id,
      level: 1,
      freeze: null,
      riskCategory: 'low',
      kycOverdue: false,
      pan: { status: 'verified', checkedBy: 'cashfree' },
    });
    for (const check of ['email', 'mobile', 'pan', 'taxResidence']) {
      const shown = body.checks.find((item: { check: string }) => item.check === check);
      expect(shown.state).toBe('verified');
      expect(Number.isNaN(Date.parse(shown.at))).toBe(false);
    }
    expect(body.checks.find((item: { check: string }) => item.check === 'selfie')).toEqual({ check: 'selfie', state: 'missing', at: null });
    expect(body.kycDueAt).not.toBeNull();
  });
});

async function freeze(who: SignedUpUser, customerId: string, body: unknown = { reason: 'FIU-IND: suspicious pattern of deposits' }, app: TestApp = harness) {
  return call(app.app, { method: 'POST', url: `/api/admin/kyc/customers/${customerId}/freeze`, cookie: who.cookie, body });
}

async function unfreeze(who: SignedUpUser, customerId: string, body: unknown = { reason: 'Source of funds documented' }, app: TestApp = harness) {
  return call(app.app, { method: 'POST', url: `/api/admin/kyc/customers/${customerId}/unfreeze`, cookie: who.cookie, body });
}

describe('freezing an account', () => {
  it('stops withdrawals, transfers and bank account changes with the customer’s message, still credits deposits, and lifts again', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const recipient = await signUpVerifiedUser(harness.app);
    const bankAccountId = await addBankAccount(harness, customer);
    const frozen = await freeze(admin, customer.id);
    expectStatus(frozen, 200);
    expect(frozen.json()).toMatchObject({ message: FREEZE_MESSAGES.frozen, kyc: { freeze: { reason: 'FIU-IND: suspicious pattern of deposits' } } });

    const before = await ledgerTransferCount(harness);
    const withdrawal = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId });
    expect(withdrawal.statusCode).toBe(403);
    expect(withdrawal.json().error).toMatchObject({ code: 'ACCOUNT_FROZEN', message: FREEZE_MESSAGES.customer });
    const transfer = await requestTransfer(harness, customer, { recipientEmail: recipient.email, amount: '10' });
    expect(transfer.statusCode).toBe(403);
    expect(transfer.json().error.code).toBe('ACCOUNT_FROZEN');
    const bankBody = { accountHolderName: 'Asha Rao', accountNumber: '998877665544', accountNumberConfirmation: '998877665544', ifscCode: 'SBIN0001234' };
    expect((await call(harness.app, { method: 'POST', url: '/api/bank-accounts', cookie: customer.cookie, body: bankBody })).statusCode).toBe(403);
    expect(
      (await call(harness.app, { method: 'PATCH', url: `/api/bank-accounts/${bankAccountId}`, cookie: customer.cookie, body: { upiId: 'other@oksbi' } }))
        .statusCode,
    ).toBe(403);
    expect((await call(harness.app, { method: 'DELETE', url: `/api/bank-accounts/${bankAccountId}`, cookie: customer.cookie })).statusCode).toBe(403);
    expect(await ledgerTransferCount(harness)).toBe(before);
    expect(await balanceMicros(harness, customer.id)).toBe(100_000_000n);

    await fundWallet(harness, admin, customer, '10');
    expect(await balanceMicros(harness, customer.id)).toBe(110_000_000n);
    const kyc = await kycOf(customer);
    expect(kyc).toMatchObject({ accountFrozenMessage: FREEZE_MESSAGES.customer, moneyBlockedMessage: FREEZE_MESSAGES.customer });

    // A single admin lifts it at once, with a reason.
    const lifted = await unfreeze(admin, customer.id);
    expectStatus(lifted, 200);
    expect(lifted.json()).toMatchObject({ message: FREEZE_MESSAGES.unfrozen, pendingChangeId: null, kyc: { freeze: null } });
    expectStatus(await requestWithdrawal(harness, customer, { amount: '10', bankAccountId }), 201);
    expect(await auditActions(customer.id)).toEqual(expect.arrayContaining(['kyc.freeze', 'kyc.unfreeze']));
    expect((await kycOf(customer)).accountFrozenMessage).toBeNull();
  });

  it('lets no money out of a frozen account racing two withdrawals', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '50');
    const bankAccountId = await addBankAccount(harness, customer);
    expectStatus(await freeze(admin, customer.id), 200);
    const before = await ledgerTransferCount(harness);
    const answers = await Promise.all([1, 2].map(() => requestWithdrawal(harness, customer, { amount: '30', bankAccountId })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([403, 403]);
    expect(await balanceMicros(harness, customer.id)).toBe(50_000_000n);
    expect(await ledgerTransferCount(harness)).toBe(before);
    await expectLedgerConsistent(harness);
  });

  it('refuses to pay a withdrawal or release a transfer made before the freeze; rejecting refunds them', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const recipient = await signUpVerifiedUser(harness.app);
    const bankAccountId = await addBankAccount(harness, customer);
    const withdrawal = await requestWithdrawal(harness, customer, { amount: '20', bankAccountId });
    expectStatus(withdrawal, 201);
    const transfer = await requestTransfer(harness, customer, { recipientEmail: recipient.email, amount: '30' });
    expectStatus(transfer, 201);
    expectStatus(await freeze(admin, customer.id), 200);

    const withdrawalId = withdrawal.json().withdrawal.id;
    const transferId = transfer.json().transfer.id;
    const approveWithdrawal = await approveWithdrawalPaid(harness, admin, withdrawalId);
    expect(approveWithdrawal.statusCode).toBe(409);
    expect(approveWithdrawal.json().error.message).toBe(FREEZE_MESSAGES.approvalRefused);
    // Nor can it go into a bank file, named or among the oldest pending.
    const named = await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: { withdrawalIds: [withdrawalId] } });
    expect(named.statusCode).toBe(409);
    expect(named.json().error.message).toBe(FREEZE_MESSAGES.batchRefused([withdrawalId]));
    await call(harness.app, { method: 'POST', url: '/api/admin/payout-batches', cookie: admin.cookie, body: {} });
    expect(
      (await harness.database.handle.db.execute<{ status: string }>(sql`select status from withdrawal_requests where id = ${withdrawalId}`)).rows[0]?.status,
    ).toBe('pending');
    const approveTransfer = await decide(harness, admin, 'transfers', transferId, 'approve');
    expect(approveTransfer.statusCode).toBe(409);
    expect(await balanceMicros(harness, recipient.id)).toBe(0n);

    expectStatus(await decide(harness, admin, 'withdrawals', withdrawalId, 'reject', { reason: 'Account under review' }), 200);
    expectStatus(await decide(harness, admin, 'transfers', transferId, 'reject', { reason: 'Account under review' }), 200);
    expect(await balanceMicros(harness, customer.id)).toBe(100_000_000n);
  });

  it('refuses bad input, a second freeze, lifting what is not frozen and the admin’s own account, changing nothing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const blank = await freeze(admin, customer.id, { reason: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error.fields).toEqual({ reason: FREEZE_MESSAGES.reasonNeeded });
    expect((await freeze(admin, customer.id, { reason: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await unfreeze(admin, customer.id)).json().error.message).toBe(FREEZE_MESSAGES.notFrozen);
    expect((await freeze(admin, admin.id)).statusCode).toBe(403);
    expect((await kycOf(customer)).accountFrozenMessage).toBeNull();
    expectStatus(await freeze(admin, customer.id), 200);
    const twice = await freeze(admin, customer.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toBe(FREEZE_MESSAGES.alreadyFrozen);
    expect((await unfreeze(admin, customer.id, {})).statusCode).toBe(400);
    expect((await kycOf(customer)).accountFrozenMessage).toBe(FREEZE_MESSAGES.customer);
    expect((await auditActions(customer.id)).filter((action) => action === 'kyc.freeze')).toHaveLength(1);
  });

  it('refuses customers and VIP customers', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const vip = await signUpVipCustomer(harness);
    expect((await freeze(customer, customer.id)).statusCode).toBe(403);
    expect((await freeze(vip, customer.id)).statusCode).toBe(403);
    expect((await kycOf(customer)).accountFrozenMessage).toBeNull();
  });
});

describe('lifting a freeze while two admins exist', () => {
  const { harness: twoAdmins, first, second } = useTwoAdminApp();

  it('freezes at once, and waits for a second admin to lift it', async () => {
    const customer = await signUpVerifiedUser(twoAdmins.app);
    expectStatus(await freeze(first, customer.id, undefined, twoAdmins), 200);
    const asked = await unfreeze(first, customer.id, undefined, twoAdmins);
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toMatchObject({ message: FREEZE_MESSAGES.unfreezeWaiting, kyc: { freeze: { reason: 'FIU-IND: suspicious pattern of deposits' } } });
    const changeId = asked.json().pendingChangeId;
    expect((await unfreeze(second, customer.id, undefined, twoAdmins)).json().error.message).toBe(FREEZE_MESSAGES.unfreezeAlreadyWaiting);
    expect((await kycOf(customer, twoAdmins)).accountFrozenMessage).toBe(FREEZE_MESSAGES.customer);

    const own = await call(twoAdmins.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: first.cookie });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe(PENDING_CHANGE_MESSAGES.ownChange);
    expectStatus(await call(twoAdmins.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: second.cookie }), 200);
    expect((await kycOf(customer, twoAdmins)).accountFrozenMessage).toBeNull();
    const audit = await twoAdmins.database.handle.db.execute<{ action: string; actor: string }>(
      sql`select action, actor_user_id as actor from audit_log where target_user_id = ${customer.id} and action like 'kyc.%freeze' order by created_at, id`,
    );
    expect(audit.rows).toEqual([
      { action: 'kyc.freeze', actor: first.id },
      { action: 'kyc.unfreeze', actor: second.id },
    ]);
  });

  it('finds a change stale when the freeze it would lift was lifted and made again', async () => {
    const customer = await signUpVerifiedUser(twoAdmins.app);
    expectStatus(await freeze(first, customer.id, undefined, twoAdmins), 200);
    const changeId = (await unfreeze(first, customer.id, undefined, twoAdmins)).json().pendingChangeId;
    // Another freeze replaces the one asked about (as if lifted and made again).
    await twoAdmins.database.handle.db.execute(sql`update kyc_records set frozen_at = now() + interval '1 second' where user_id = ${customer.id}`);
    const confirm = await call(twoAdmins.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: second.cookie });
    expect(confirm.statusCode).toBe(409);
    expect((await kycOf(customer, twoAdmins)).accountFrozenMessage).toBe(FREEZE_MESSAGES.customer);
  });
});

async function setRisk(who: SignedUpUser, customerId: string, body: unknown) {
  return call(harness.app, { method: 'PUT', url: `/api/admin/kyc/customers/${customerId}/risk`, cookie: who.cookie, body });
}

/** Moves the customer's PAN check and tax residence declaration back by this many days. */
async function ageKyc(userId: string, days: number): Promise<void> {
  await harness.database.handle.db.execute(sql`update kyc_records set pan_checked_at = now() - make_interval(days => ${days}),
    tax_residence_declared_at = now() - make_interval(days => ${days}) where user_id = ${userId}`);
}

describe('the KYC refresh per risk category', () => {
  it('dates the refresh 12 months after level 1, 6 for high risk, in GET /api/kyc', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const stored = await harness.database.handle.db.execute<{ checkedAt: Date }>(
      sql`select least(pan_checked_at, tax_residence_declared_at) as "checkedAt" from kyc_records where user_id = ${customer.id}`,
    );
    const since = new Date(stored.rows[0]?.checkedAt ?? 0);
    const inMonths = (months: number) => {
      const due = new Date(since.getTime());
      due.setUTCMonth(due.getUTCMonth() + months);
      return due.toISOString();
    };
    expect((await kycOf(customer)).refresh).toEqual({ dueAt: inMonths(12), overdue: false, open: false, message: KYC_REFRESH_MESSAGES.notDue });
    const saved = await setRisk(admin, customer.id, { riskCategory: 'high' });
    expectStatus(saved, 200);
    expect(saved.json()).toMatchObject({ message: RISK_MESSAGES.saved, kyc: { riskCategory: 'high', kycDueAt: inMonths(6) } });
    expect((await kycOf(customer)).refresh.dueAt).toBe(inMonths(6));
    expect(await auditActions(customer.id)).toContain('kyc.risk_set');
  });

  it('refuses a bad risk category, customers and VIP customers, changing nothing', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const vip = await signUpVipCustomer(harness);
    const bad = await setRisk(admin, customer.id, { riskCategory: 'extreme' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ riskCategory: RISK_MESSAGES.choose });
    expect((await setRisk(customer, customer.id, { riskCategory: 'low' })).statusCode).toBe(403);
    expect((await setRisk(vip, customer.id, { riskCategory: 'high' })).statusCode).toBe(403);
    const record = await call(harness.app, { url: `/api/admin/kyc/customers/${customer.id}`, cookie: admin.cookie });
    expect(record.json().riskCategory).toBe('low');
  });

  it('pauses withdrawals and transfers once overdue, until the PAN is checked again and the tax residence declared again', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const recipient = await signUpVerifiedUser(harness.app);
    const bankAccountId = await addBankAccount(harness, customer);
    // Seven months: overdue for a high-risk customer only.
    await ageKyc(customer.id, 214);
    expectStatus(await requestWithdrawal(harness, customer, { amount: '1', bankAccountId }), 201);
    expectStatus(await setRisk(admin, customer.id, { riskCategory: 'high' }), 200);

    const before = await ledgerTransferCount(harness);
    const withdrawal = await requestWithdrawal(harness, customer, { amount: '1', bankAccountId });
    expect(withdrawal.statusCode).toBe(403);
    expect(withdrawal.json().error).toMatchObject({ code: 'KYC_REFRESH_REQUIRED', message: KYC_REFRESH_MESSAGES.overdue });
    expect((await requestTransfer(harness, customer, { recipientEmail: recipient.email, amount: '1' })).json().error.code).toBe('KYC_REFRESH_REQUIRED');
    expect(await ledgerTransferCount(harness)).toBe(before);
    const kyc = await kycOf(customer);
    expect(kyc).toMatchObject({
      level: 1,
      moneyBlockedMessage: KYC_REFRESH_MESSAGES.overdue,
      refresh: { overdue: true, open: true, message: KYC_REFRESH_MESSAGES.overdue },
    });

    // The same PAN, submitted again, is checked again by the provider.
    const pan = (await harness.database.handle.db.execute<{ pan: string }>(sql`select pan from profiles where user_id = ${customer.id}`)).rows[0]?.pan;
    const checksBefore = cashfree.requests.filter((request) => request.pan === pan).length;
    const resubmitted = await call(harness.app, { method: 'POST', url: '/api/kyc/pan', cookie: customer.cookie, body: { pan } });
    expect(resubmitted.json()).toMatchObject({ message: PAN_MESSAGES.verified });
    expect(cashfree.requests.filter((request) => request.pan === pan).length).toBe(checksBefore + 1);
    // Still overdue: the tax residence declaration is as old as before.
    expect((await requestWithdrawal(harness, customer, { amount: '1', bankAccountId })).statusCode).toBe(403);
    expectStatus(
      await call(harness.app, { method: 'POST', url: '/api/kyc/tax-residence', cookie: customer.cookie, body: { residence: 'india', confirmed: true } }),
      200,
    );
    expect((await kycOf(customer)).refresh).toMatchObject({ overdue: false, open: false });
    expectStatus(await requestWithdrawal(harness, customer, { amount: '1', bankAccountId }), 201);
  });

  it('does not check a verified PAN again before the refresh opens', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const pan = (await harness.database.handle.db.execute<{ pan: string }>(sql`select pan from profiles where user_id = ${customer.id}`)).rows[0]?.pan;
    const checksBefore = cashfree.requests.filter((request) => request.pan === pan).length;
    expect((await call(harness.app, { method: 'POST', url: '/api/kyc/pan', cookie: customer.cookie, body: { pan } })).json().message).toBe(
      PAN_MESSAGES.verified,
    );
    expect(cashfree.requests.filter((request) => request.pan === pan).length).toBe(checksBefore);
    // 14 days before the due date (12 months for low risk) the refresh opens.
    await ageKyc(customer.id, 360);
    expect((await kycOf(customer)).refresh).toMatchObject({ overdue: false, open: true, message: KYC_REFRESH_MESSAGES.due });
  });
});

describe('the KYC settings', () => {
  async function saveSettings(who: SignedUpUser, overrides: Record<string, unknown>) {
    return call(harness.app, {
      method: 'PUT',
      url: '/api/admin/settings',
      cookie: who.cookie,
      body: await currentSettingsBody(harness.app, admin.cookie, overrides),
    });
  }

  it('refuses bad values with their field messages and saves nothing', async () => {
    const before = (await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json();
    const negative = await saveSettings(admin, { kycLevelLimits: { level1: { dailyInr: '-5', monthlyInr: '' }, level2: { dailyInr: '', monthlyInr: '' } } });
    expect(negative.statusCode).toBe(400);
    expect(negative.json().error.fields).toEqual({ 'kycLevelLimits.level1.dailyInr': 'Daily limit must be a number' });
    const months = await saveSettings(admin, { kycRefreshMonths: { highRisk: 13, other: 12 } });
    expect(months.json().error.fields).toEqual({ 'kycRefreshMonths.highRisk': KYC_REFRESH_MONTHS_MESSAGE });
    const rate = await saveSettings(admin, { tdsNoPanPercent: '31' });
    expect(rate.json().error.fields).toEqual({ tdsNoPanPercent: NO_PAN_TDS_MESSAGE });
    const after = (await call(harness.app, { url: '/api/admin/settings', cookie: admin.cookie })).json();
    expect(after).toEqual(before);
  });

  it('saves the level limits, the no-PAN TDS rate and the refresh months, which the gate and the limits then use', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const bankAccountId = await addBankAccount(harness, customer);
    const saved = await saveSettings(admin, {
      kycLevelLimits: { level1: { dailyInr: '1000', monthlyInr: '' }, level2: { dailyInr: '', monthlyInr: '' } },
      tdsNoPanPercent: '25',
      kycRefreshMonths: { highRisk: 3, other: 1 },
    });
    try {
      expectStatus(saved, 200);
      expect(saved.json().settings).toMatchObject({
        kycLevelLimits: { level1: { dailyInr: '1000.00', monthlyInr: null }, level2: { dailyInr: null, monthlyInr: null } },
        tdsNoPanPercent: '25.00',
        kycRefreshMonths: { highRisk: 3, other: 1 },
      });
      // 13 USDT at 83.00 is 1,079.00 INR: above level 1's daily 1,000.00.
      const overLimit = await requestWithdrawal(harness, customer, { amount: '13', bankAccountId });
      expect(overLimit.statusCode).toBe(400);
      expect(overLimit.json().error.code).toBe('WITHDRAWAL_LIMIT');
      // One month for the others: 40 days after level 1 the refresh is overdue.
      await ageKyc(customer.id, 40);
      const overdue = await requestWithdrawal(harness, customer, { amount: '1', bankAccountId });
      expect(overdue.json().error.code).toBe('KYC_REFRESH_REQUIRED');
      const audit = await harness.database.handle.db.execute<{ after: Record<string, unknown> }>(
        sql`select after from audit_log where action = 'settings.update' order by created_at desc, id desc limit 1`,
      );
      expect(audit.rows[0]?.after).toMatchObject({ kycLevel1DailyLimitInr: '1000.00', tdsNoPanPercent: '25.00', kycRefreshMonthsOther: '1' });
    } finally {
      expectStatus(
        await saveSettings(admin, {
          kycLevelLimits: { level1: { dailyInr: '', monthlyInr: '' }, level2: { dailyInr: '', monthlyInr: '' } },
          tdsNoPanPercent: '20',
          kycRefreshMonths: { highRisk: 6, other: 12 },
        }),
        200,
      );
    }
  });
});
