import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CASHFREE_API_VERSION } from '../../src/server/features/payouts/cashfree-client.ts';
import { createPayoutWorker, payoutProviderFromConfig, type PayoutWorker } from '../../src/server/features/payouts/worker.ts';
import { startCashfreePayoutsStandIn, type CashfreePayoutsStandIn } from '../fixtures/cashfree-payouts-stand-in.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { startRazorpayXStandIn, type RazorpayXStandIn } from '../fixtures/razorpayx-stand-in.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { addBankAccount, balanceMicros, decide, expectLedgerConsistent, fundWallet, ledgerTransferCount, requestWithdrawal } from '../fixtures/wallet.ts';

/*
 * PAYOUT_PROVIDER=cashfree (decision 062): withdrawals paid through Cashfree Payouts V2, against a local stand-in of
 * its endpoints written from the public documentation. The worker, the polling and the ledger effects are the
 * RazorpayX path's (decision 043); what is Cashfree's own is the request, the transfer_id as the idempotency key,
 * the status mapping and the webhook's signature over the timestamp and the raw body.
 */

let standIn: CashfreePayoutsStandIn;
beforeAll(async () => {
  standIn = await startCashfreePayoutsStandIn();
});
afterAll(async () => standIn.close());

// Without the Verification API (KYC_*), Cashfree's payees follow the rules of no provider: this file is about payouts;
// cashfree-payee-check.test.ts checks payees by Cashfree's bank account verification.
const { harness, admin } = useIntegrationFile({ app: () => ({ payoutProvider: standIn.config, kycProvider: 'none' }) });

function workerFor(app: TestApp): PayoutWorker {
  return createPayoutWorker({
    db: app.database.handle.db,
    provider: payoutProviderFromConfig(standIn.config),
    pollSeconds: 1,
    stuckMinutes: standIn.config.stuckMinutes,
    log: pino({ level: 'silent' }),
  });
}

let worker: PayoutWorker;
beforeEach(() => {
  worker = workerFor(harness);
  standIn.dropWebhooks = false;
  standIn.deliverWebhooksTo(postWebhook);
});

async function postWebhook(body: string, headers: Record<string, string>): Promise<number> {
  const response = await harness.app.inject({ method: 'POST', url: '/api/webhooks/cashfree', headers, payload: body });
  return response.statusCode;
}

/** Every payout due again at once, as if its backoff had passed. */
async function makeDue(): Promise<void> {
  await harness.database.handle.db.execute(sql`update provider_payouts set next_attempt_at = now() where settled_at is null`);
}

async function row<T>(query: ReturnType<typeof sql>): Promise<T | undefined> {
  const result = await harness.database.handle.db.execute(query);
  return result.rows[0] as T | undefined;
}

let utrCounter = 0;
function rrn(): string {
  utrCounter += 1;
  return `${String(Date.now()).slice(-7)}${String(utrCounter).padStart(5, '0')}`;
}

interface Pending {
  customer: SignedUpUser;
  withdrawalId: string;
  reference: string;
  bankAccountId: string;
  balanceBefore: bigint;
}

async function pendingWithdrawal(bank: Record<string, unknown> = {}): Promise<Pending> {
  const customer = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, customer, '100');
  const balanceBefore = await balanceMicros(harness, customer.id);
  const bankAccountId = await addBankAccount(harness, customer, bank);
  const response = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId });
  expect(response.statusCode).toBe(201);
  const withdrawal = response.json<{ withdrawal: { id: string; reference: string } }>().withdrawal;
  return { customer, withdrawalId: withdrawal.id, reference: withdrawal.reference, bankAccountId, balanceBefore };
}

async function approve(pending: Pending): Promise<void> {
  const approval = await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve');
  expect(approval.statusCode).toBe(200);
  expect(approval.json()).toMatchObject({ withdrawal: { status: 'processing' } });
}

/** Approved, and sent by a worker tick: the transfer Cashfree made for it. */
async function approvedAndSent(bank: Record<string, unknown> = {}): Promise<Pending & { transferId: string }> {
  const pending = await pendingWithdrawal(bank);
  await approve(pending);
  await worker.tick();
  const transfer = standIn.transfers.find((candidate) => candidate.transfer_id === pending.reference);
  expect(transfer).toBeDefined();
  return { ...pending, transferId: transfer?.cf_transfer_id ?? '' };
}

async function withdrawalOf(id: string) {
  return row<{ status: string; payout_reference: string | null; rejection_reason: string | null; reversed_at: Date | null; payout_route: string | null }>(
    sql`select status, payout_reference, rejection_reason, reversed_at, payout_route from withdrawal_requests where id = ${id}`,
  );
}

async function payoutOf(id: string) {
  return row<{
    state: string;
    utr: string | null;
    provider_payout_id: string | null;
    settled_at: Date | null;
    last_error: string | null;
    payout_route: string;
  }>(sql`select state, utr, provider_payout_id, settled_at, last_error, payout_route from provider_payouts where withdrawal_id = ${id}`);
}

async function flagOf(bankAccountId: string) {
  return row<{ flagged_at: Date | null; flag_reason: string | null }>(sql`select flagged_at, flag_reason from bank_accounts where id = ${bankAccountId}`);
}

describe('a withdrawal paid through Cashfree Payouts V2', () => {
  it('is sent by the worker as documented, and SUCCESS with its UTR marks it paid', async () => {
    const pending = await pendingWithdrawal({ upiId: null });
    await approve(pending);
    expect(await withdrawalOf(pending.withdrawalId)).toMatchObject({ status: 'processing', payout_route: 'cashfree' });
    expect(standIn.transfers.filter((transfer) => transfer.transfer_id === pending.reference)).toHaveLength(0);
    await worker.tick();
    const request = standIn.createRequests.at(-1);
    expect(request?.apiVersion).toBe(CASHFREE_API_VERSION);
    // The amount is a JSON number written from the paise (decision 067), as on the wire.
    expect(request?.bodyText).toMatch(/^\{"transfer_amount":830\.00,"transfer_id":/);
    expect(request?.body).toEqual({
      transfer_id: pending.reference,
      transfer_amount: 830,
      transfer_currency: 'INR',
      transfer_mode: 'imps',
      beneficiary_details: {
        beneficiary_name: 'Asha Rao',
        beneficiary_instrument_details: { bank_account_number: expect.any(String), bank_ifsc: 'SBIN0001234' },
      },
      transfer_remarks: `Rupeedesk ${pending.reference}`,
    });
    const transfer = standIn.transfers.find((candidate) => candidate.transfer_id === pending.reference);
    // RECEIVED is accepted and waiting: queued on the withdrawal's timeline.
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'queued', provider_payout_id: transfer?.cf_transfer_id, payout_route: 'cashfree' });
    await standIn.changeStatus(transfer?.cf_transfer_id ?? '', 'PENDING');
    const utr = rrn();
    expect(await standIn.changeStatus(transfer?.cf_transfer_id ?? '', 'SUCCESS', { utr, statusCode: 'COMPLETED' })).toBe(200);
    expect(await withdrawalOf(pending.withdrawalId)).toMatchObject({ status: 'approved', payout_reference: utr });
    expect(await balanceMicros(harness, pending.customer.id)).toBe(pending.balanceBefore - 10_000_000n);
    const view = await call(harness.app, { url: `/api/withdrawals/${pending.withdrawalId}/payout`, cookie: pending.customer.cookie });
    expect(view.json().payout).toMatchObject({ provider: 'cashfree', state: 'processed', utr, mode: 'IMPS', amountInr: '830.00' });
    expect(view.json().payout.events.map((event: { state: string }) => event.state)).toEqual(['queued', 'processed']);
    const overview = await call(harness.app, { url: '/api/admin/payouts/overview', cookie: admin.cookie });
    expect(overview.json()).toMatchObject({ provider: 'cashfree' });
    await expectLedgerConsistent(harness);
  });

  it('sends a UPI transfer to the payee’s VPA when the account has a UPI id', async () => {
    await approvedAndSent();
    expect(standIn.createRequests.at(-1)?.body).toMatchObject({
      transfer_mode: 'upi',
      beneficiary_details: { beneficiary_instrument_details: { vpa: 'asha@oksbi' } },
    });
  });

  it('FAILED returns the USDT through the ledger with the reason, and flags an account the bank closed', async () => {
    const sent = await approvedAndSent();
    expect(await standIn.changeStatus(sent.transferId, 'FAILED', { statusCode: 'ACCOUNT_CLOSED', description: 'The beneficiary account is closed.' })).toBe(
      200,
    );
    const withdrawal = await withdrawalOf(sent.withdrawalId);
    expect(withdrawal?.status).toBe('rejected');
    expect(withdrawal?.rejection_reason).toBe('The bank returned the payout: The beneficiary account is closed.');
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore);
    expect(await flagOf(sent.bankAccountId)).toMatchObject({ flag_reason: 'Account closed' });
    await expectLedgerConsistent(harness);
  });

  it('REJECTED by Cashfree refunds without flagging the account', async () => {
    const sent = await approvedAndSent();
    await standIn.changeStatus(sent.transferId, 'REJECTED', { statusCode: 'INSUFFICIENT_BALANCE', description: 'Insufficient balance in the fund source.' });
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('rejected');
    expect((await payoutOf(sent.withdrawalId))?.state).toBe('rejected');
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore);
    expect((await flagOf(sent.bankAccountId))?.flagged_at).toBeNull();
  });

  it('REVERSED after SUCCESS returns the USDT, keeps the payment as reversed and flags the account', async () => {
    const sent = await approvedAndSent();
    const utr = rrn();
    await standIn.changeStatus(sent.transferId, 'SUCCESS', { utr });
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('approved');
    expect(await standIn.changeStatus(sent.transferId, 'REVERSED', { statusCode: 'REVERSED', description: 'The beneficiary account is frozen' })).toBe(200);
    const withdrawal = await withdrawalOf(sent.withdrawalId);
    expect(withdrawal).toMatchObject({ status: 'approved', payout_reference: utr });
    expect(withdrawal?.reversed_at).not.toBeNull();
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore);
    expect(await flagOf(sent.bankAccountId)).toMatchObject({ flag_reason: 'Account frozen or blocked' });
    await expectLedgerConsistent(harness);
  });

  it('applies a duplicate webhook once, whether redelivered byte for byte or with a new timestamp', async () => {
    const sent = await approvedAndSent();
    await standIn.changeStatus(sent.transferId, 'FAILED', { statusCode: 'ACCOUNT_CLOSED', description: 'closed account' });
    const transfers = await ledgerTransferCount(harness);
    expect(await standIn.redeliverLast()).toBe(200);
    const transfer = standIn.transfers.find((candidate) => candidate.cf_transfer_id === sent.transferId);
    if (!transfer) throw new Error('no transfer');
    const again = standIn.signedWebhook('TRANSFER_FAILED', transfer, String(Date.now() + 60_000));
    const response = await harness.app.inject({ method: 'POST', url: '/api/webhooks/cashfree', headers: again.headers, payload: again.body });
    expect(response.json()).toEqual({ status: 'duplicate' });
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore);
  });

  it('answers 400 to a forged, missing or replayed-with-another-timestamp signature and changes nothing', async () => {
    const sent = await approvedAndSent();
    const transfer = standIn.transfers.find((candidate) => candidate.cf_transfer_id === sent.transferId);
    if (!transfer) throw new Error('no transfer');
    const webhook = standIn.signedWebhook('TRANSFER_SUCCESS', { ...transfer, status: 'SUCCESS', status_code: 'COMPLETED', transfer_utr: rrn() });
    const transfers = await ledgerTransferCount(harness);
    expect(await postWebhook(webhook.body.replace('"transfer_amount":', '"transfer_amount": '), webhook.headers)).toBe(400);
    const { 'x-webhook-signature': _signature, ...unsigned } = webhook.headers;
    expect(await postWebhook(webhook.body, unsigned)).toBe(400);
    const { 'x-webhook-timestamp': _timestamp, ...untimed } = webhook.headers;
    expect(await postWebhook(webhook.body, untimed)).toBe(400);
    expect(await postWebhook(webhook.body, { ...webhook.headers, 'x-webhook-timestamp': String(Number(webhook.headers['x-webhook-timestamp']) + 1) })).toBe(
      400,
    );
    expect(await postWebhook(webhook.body, { ...webhook.headers, 'x-webhook-signature': `${'A'.repeat(43)}=` })).toBe(400);
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    expect(await withdrawalOf(sent.withdrawalId)).toMatchObject({ status: 'processing' });
    expect((await payoutOf(sent.withdrawalId))?.state).toBe('queued');
    // The same event, signed, is applied.
    expect(await postWebhook(webhook.body, webhook.headers)).toBe(200);
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('approved');
  });

  it('never moves a transfer backwards on an out-of-order event', async () => {
    const sent = await approvedAndSent();
    const transfer = standIn.transfers.find((candidate) => candidate.cf_transfer_id === sent.transferId);
    if (!transfer) throw new Error('no transfer');
    const early = { ...transfer, status: 'PENDING', status_code: 'SENT_TO_BENEFICIARY' };
    const utr = rrn();
    await standIn.changeStatus(sent.transferId, 'SUCCESS', { utr });
    const late = standIn.signedWebhook('TRANSFER_ACKNOWLEDGED', early);
    expect(await postWebhook(late.body, late.headers)).toBe(200);
    expect(await payoutOf(sent.withdrawalId)).toMatchObject({ state: 'processed', utr });
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('approved');
  });

  it('does not mark a SUCCESS paid until Cashfree gives its UTR, and takes the UTR from a later webhook of the same status', async () => {
    const sent = await approvedAndSent();
    expect(await standIn.changeStatus(sent.transferId, 'SUCCESS', { statusCode: 'COMPLETED' })).toBe(200);
    expect(await payoutOf(sent.withdrawalId)).toMatchObject({ state: 'processed', utr: null });
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('processing');
    const utr = rrn();
    expect(await standIn.changeStatus(sent.transferId, 'SUCCESS', { statusCode: 'COMPLETED', utr })).toBe(200);
    expect(await withdrawalOf(sent.withdrawalId)).toMatchObject({ status: 'approved', payout_reference: utr });
    await expectLedgerConsistent(harness);
  });

  it('recovers a lost webhook by polling Get Transfer Status', async () => {
    const sent = await approvedAndSent();
    standIn.dropWebhooks = true;
    const utr = rrn();
    await standIn.changeStatus(sent.transferId, 'SUCCESS', { utr });
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('processing');
    await makeDue();
    await worker.tick();
    expect(await withdrawalOf(sent.withdrawalId)).toMatchObject({ status: 'approved', payout_reference: utr });
    expect((await payoutOf(sent.withdrawalId))?.settled_at).not.toBeNull();
    await expectLedgerConsistent(harness);
  });

  it('retries a send whose answer was lost: Cashfree refuses the transfer_id twice, and the first transfer is followed', async () => {
    const pending = await pendingWithdrawal();
    await approve(pending);
    standIn.dropNextCreateAnswer = true;
    await worker.tick();
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'unsent', provider_payout_id: null });
    expect((await payoutOf(pending.withdrawalId))?.last_error).toMatch(/unreachable/);
    await makeDue();
    await worker.tick();
    const made = standIn.transfers.filter((transfer) => transfer.transfer_id === pending.reference);
    expect(made).toHaveLength(1);
    expect(standIn.createRequests.filter((request) => request.body.transfer_id === pending.reference)).toHaveLength(2);
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'queued', provider_payout_id: made[0]?.cf_transfer_id, last_error: null });
    expect((await withdrawalOf(pending.withdrawalId))?.status).toBe('processing');
    await standIn.changeStatus(made[0]?.cf_transfer_id ?? '', 'SUCCESS', { utr: rrn() });
    expect((await withdrawalOf(pending.withdrawalId))?.status).toBe('approved');
    await expectLedgerConsistent(harness);
  });

  it('never refunds a withdrawal whose transfer_id Cashfree calls a duplicate, even while its lookup does not find the transfer yet', async () => {
    const pending = await pendingWithdrawal();
    await approve(pending);
    standIn.dropNextCreateAnswer = true;
    await worker.tick();
    standIn.lookupLags = true;
    try {
      await makeDue();
      await worker.tick();
      expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'unsent', provider_payout_id: null });
      expect((await payoutOf(pending.withdrawalId))?.last_error).toMatch(/HTTP 409.*not yet listed/);
      expect((await withdrawalOf(pending.withdrawalId))?.status).toBe('processing');
    } finally {
      standIn.lookupLags = false;
    }
    await makeDue();
    await worker.tick();
    const made = standIn.transfers.filter((transfer) => transfer.transfer_id === pending.reference);
    expect(made).toHaveLength(1);
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'queued', provider_payout_id: made[0]?.cf_transfer_id });
  });

  it('refunds a transfer Cashfree refuses outright', async () => {
    const pending = await pendingWithdrawal();
    await approve(pending);
    standIn.refuseNextCreate = 'beneficiary_instrument_details.bank_ifsc : IFSC is invalid';
    await worker.tick();
    expect((await withdrawalOf(pending.withdrawalId))?.status).toBe('rejected');
    expect(await balanceMicros(harness, pending.customer.id)).toBe(pending.balanceBefore);
    expect(standIn.transfers.filter((transfer) => transfer.transfer_id === pending.reference)).toHaveLength(0);
  });
});

describe('what Cashfree does not have here (decision 062)', () => {
  it('offers no RazorpayX webhooks and no penny drop: payees follow the rules of no provider', async () => {
    expect(
      (await harness.app.inject({ method: 'POST', url: '/api/webhooks/razorpayx', payload: '{}', headers: { 'content-type': 'application/json' } })).statusCode,
    ).toBe(404);
    expect(
      (await harness.app.inject({ method: 'POST', url: '/api/webhooks/razorpayx/validations', payload: '{}', headers: { 'content-type': 'application/json' } }))
        .statusCode,
    ).toBe(404);
    const customer = await signUpVerifiedUser(harness.app);
    const bankAccountId = await addBankAccount(harness, customer);
    const payee = await row<{ payee_check: string | null; validation_id: string | null }>(
      sql`select payee_check, validation_id from bank_accounts where id = ${bankAccountId}`,
    );
    expect(payee).toMatchObject({ payee_check: 'unchecked', validation_id: null });
    const list = await call(harness.app, { url: '/api/bank-accounts', cookie: customer.cookie });
    expect(list.json()).toMatchObject({ checkedWithBank: false });
  });
});

describe('reconciliation by status (decision 062)', () => {
  interface Difference {
    providerPayoutId: string | null;
    reference: string | null;
    problems: string[];
    provider: { amountInr: string; state: string; utr: string | null } | null;
    ours: { amountInr: string; state: string; utr: string | null } | null;
  }
  interface Report {
    payoutsCompared: number;
    truncated: boolean;
    truncatedReason: string | null;
    differences: Difference[];
  }
  const today = () => new Date(Date.now() + 5.5 * 60 * 60 * 1000).toISOString().slice(0, 10);

  it('asks Cashfree the status of each of the day’s transfers and lists those whose amount, state or UTR differ from ours', async () => {
    const agreed = await approvedAndSent();
    await standIn.changeStatus(agreed.transferId, 'SUCCESS', { utr: rrn() });
    const resized = await approvedAndSent();
    await standIn.changeStatus(resized.transferId, 'SUCCESS', { utr: rrn() });
    const drifted = await approvedAndSent();
    const forgotten = await approvedAndSent();
    standIn.dropWebhooks = true;
    const driftedUtr = rrn();
    await standIn.changeStatus(drifted.transferId, 'SUCCESS', { utr: driftedUtr });
    // Cashfree's record of one transfer changes its amount, and another it no longer has (its status call answers 404).
    const resizedTransfer = standIn.transfers.find((transfer) => transfer.cf_transfer_id === resized.transferId);
    if (!resizedTransfer) throw new Error('no transfer to resize');
    resizedTransfer.transfer_amount += 1;
    standIn.transfers.splice(
      standIn.transfers.findIndex((transfer) => transfer.cf_transfer_id === forgotten.transferId),
      1,
    );
    const statusCallsBefore = standIn.statusRequests.length;

    const day = new Date(Date.now() + 5.5 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const response = await call(harness.app, { url: `/api/admin/payouts/reconciliation?day=${day}`, cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ payoutsCompared: number; truncated: boolean; differences: Difference[] }>();
    expect(body.truncated).toBe(false);
    // One Get Transfer Status V2 call per payout of the day, by cf_transfer_id.
    const asked = standIn.statusRequests.slice(statusCallsBefore);
    expect(asked).toHaveLength(body.payoutsCompared);
    for (const id of [agreed.transferId, resized.transferId, drifted.transferId, forgotten.transferId]) expect(asked).toContainEqual({ cf_transfer_id: id });
    const differenceOf = (id: string) => body.differences.find((difference) => difference.providerPayoutId === id);
    expect(differenceOf(agreed.transferId)).toBeUndefined();
    expect(differenceOf(resized.transferId)).toMatchObject({
      problems: ['The amount differs.'],
      provider: { state: 'processed' },
      ours: { state: 'processed' },
    });
    expect(differenceOf(resized.transferId)?.provider?.amountInr).not.toBe(differenceOf(resized.transferId)?.ours?.amountInr);
    expect(differenceOf(drifted.transferId)).toMatchObject({
      problems: ['The state differs.', 'The UTR differs.'],
      provider: { state: 'processed', utr: driftedUtr },
      ours: { utr: null },
    });
    expect(differenceOf(forgotten.transferId)?.problems).toEqual([
      expect.stringMatching(/^The provider could not tell this payout's status: Cashfree answered HTTP 404/),
    ]);
    // No placeholder stands for what Cashfree did not say (issue 31's review of decision 062).
    expect(differenceOf(forgotten.transferId)?.provider).toBeNull();
    // Nothing changes: the drifted payout is still waiting for its UTR as before.
    expect((await withdrawalOf(drifted.withdrawalId))?.status).toBe('processing');
    const customer = await signUpVerifiedUser(harness.app);
    expect((await call(harness.app, { url: `/api/admin/payouts/reconciliation?day=${day}`, cookie: customer.cookie })).statusCode).toBe(403);
  });

  it('asks Cashfree by our transfer_id about a payout whose send was never answered, and says when Cashfree has none', async () => {
    const lost = await pendingWithdrawal();
    await approve(lost);
    standIn.dropNextCreateAnswer = true;
    await worker.tick();
    const neverArrived = await pendingWithdrawal();
    await approve(neverArrived);
    standIn.dropNextCreateAnswer = true;
    await worker.tick();
    // The second send's transfer is not at Cashfree: as if the request never reached it.
    standIn.transfers.splice(
      standIn.transfers.findIndex((transfer) => transfer.transfer_id === neverArrived.reference),
      1,
    );
    for (const pending of [lost, neverArrived]) expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'unsent', provider_payout_id: null });
    const made = standIn.transfers.find((transfer) => transfer.transfer_id === lost.reference);
    const statusCallsBefore = standIn.statusRequests.length;

    const response = await call(harness.app, { url: `/api/admin/payouts/reconciliation?day=${today()}`, cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    const body = response.json<Report>();
    const asked = standIn.statusRequests.slice(statusCallsBefore);
    expect(asked).toContainEqual({ transfer_id: lost.reference });
    expect(asked).toContainEqual({ transfer_id: neverArrived.reference });
    const differenceOf = (reference: string) => body.differences.find((difference) => difference.reference === reference);
    expect(differenceOf(lost.reference)).toMatchObject({
      providerPayoutId: made?.cf_transfer_id,
      problems: [expect.stringMatching(/send was lost; the provider has it under our reference/), 'The state differs.'],
      provider: { state: 'queued' },
      ours: { state: 'unsent' },
    });
    expect(differenceOf(lost.reference)?.provider?.amountInr).toBe(differenceOf(lost.reference)?.ours?.amountInr);
    expect(differenceOf(neverArrived.reference)).toMatchObject({
      providerPayoutId: null,
      problems: [expect.stringMatching(/provider has no transfer under our reference/)],
      provider: null,
      ours: { state: 'unsent' },
    });
  });

  it('stops asking after answers in a row that are outages, and says so', async () => {
    for (let index = 0; index < 6; index += 1) await approvedAndSent();
    standIn.statusOutage = 503;
    const statusCallsBefore = standIn.statusRequests.length;
    try {
      const response = await call(harness.app, { url: `/api/admin/payouts/reconciliation?day=${today()}`, cookie: admin.cookie });
      expect(response.statusCode).toBe(200);
      const body = response.json<Report>();
      expect(body.truncated).toBe(true);
      expect(body.truncatedReason).toMatch(
        /^The provider failed 5 questions in a row \(no answer, busy or down\), so no more were asked\. \d+ payouts were not asked about\.$/,
      );
      // One group of five questions, not one per payout of the day.
      expect(standIn.statusRequests.length - statusCallsBefore).toBe(5);
      expect(body.payoutsCompared).toBe(5);
      expect(body.differences.every((difference) => difference.provider === null)).toBe(true);
    } finally {
      standIn.statusOutage = undefined;
    }
  });

  it('ends within its time budget, marked truncated, when Cashfree does not answer', async () => {
    await approvedAndSent();
    const budgeted = await createTestApp({ database: harness.database, payoutProvider: { ...standIn.config, reconciliationBudgetSeconds: 2 } });
    standIn.holdStatusAnswers = true;
    try {
      const startedAt = Date.now();
      const response = await call(budgeted.app, { url: `/api/admin/payouts/reconciliation?day=${today()}`, cookie: admin.cookie });
      const tookMilliseconds = Date.now() - startedAt;
      expect(response.statusCode).toBe(200);
      const body = response.json<Report>();
      expect(body).toMatchObject({ truncated: true, payoutsCompared: 0, differences: [] });
      expect(body.truncatedReason).toMatch(
        /^The time for one reconciliation ran out while the provider was slow to answer\. \d+ payouts were not asked about\.$/,
      );
      // Well below the 15 seconds one unanswered request waits for.
      expect(tookMilliseconds).toBeGreaterThanOrEqual(1900);
      expect(tookMilliseconds).toBeLessThan(6000);
    } finally {
      standIn.releaseStatusAnswers();
      await budgeted.close();
    }
  });

  it('runs one reconciliation by status at a time: a second request while one runs gets a 409 and asks Cashfree nothing', async () => {
    await approvedAndSent();
    standIn.holdStatusAnswers = true;
    try {
      const statusCallsBefore = standIn.statusRequests.length;
      const first = call(harness.app, { url: `/api/admin/payouts/reconciliation?day=${today()}`, cookie: admin.cookie });
      await expect.poll(() => standIn.statusRequests.length, { timeout: 10_000 }).toBeGreaterThan(statusCallsBefore);
      const askedByFirst = standIn.statusRequests.length;
      const second = await call(harness.app, { url: `/api/admin/payouts/reconciliation?day=${today()}`, cookie: admin.cookie });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({ error: { message: expect.stringMatching(/already running on this server/) } });
      expect(standIn.statusRequests.length).toBe(askedByFirst);
      standIn.releaseStatusAnswers();
      expect((await first).statusCode).toBe(200);
      // Once the first has answered, the next one runs.
      expect((await call(harness.app, { url: `/api/admin/payouts/reconciliation?day=${today()}`, cookie: admin.cookie })).statusCode).toBe(200);
    } finally {
      standIn.releaseStatusAnswers();
    }
  });
});

describe('one provider per payout', () => {
  let razorpayx: RazorpayXStandIn;
  beforeAll(async () => {
    razorpayx = await startRazorpayXStandIn();
  });
  afterAll(async () => razorpayx.close());

  it('a process configured for RazorpayX never sends or polls a withdrawal handed to Cashfree', async () => {
    const pending = await pendingWithdrawal();
    await approve(pending);
    const other = createPayoutWorker({
      db: harness.database.handle.db,
      provider: payoutProviderFromConfig(razorpayx.config),
      pollSeconds: 1,
      stuckMinutes: 30,
      log: pino({ level: 'silent' }),
    });
    await other.tick();
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'unsent', payout_route: 'cashfree' });
    expect(razorpayx.createRequests).toHaveLength(0);
    await worker.tick();
    expect(standIn.transfers.filter((transfer) => transfer.transfer_id === pending.reference)).toHaveLength(1);
    await makeDue();
    await other.tick();
    expect(razorpayx.createRequests).toHaveLength(0);
    const transfer = standIn.transfers.find((candidate) => candidate.transfer_id === pending.reference);
    await standIn.changeStatus(transfer?.cf_transfer_id ?? '', 'FAILED', { description: 'Beneficiary bank offline' });
    expect(await balanceMicros(harness, pending.customer.id)).toBe(pending.balanceBefore);
  });
});

describe('two app processes on one database', () => {
  let second: TestApp;
  beforeAll(async () => {
    second = await createTestApp({ database: harness.database, payoutProvider: standIn.config });
  });
  afterAll(async () => second.close());

  it('make one Cashfree transfer per withdrawal however their workers interleave, and either takes the webhooks', async () => {
    const sent: Pending[] = [];
    for (let index = 0; index < 4; index += 1) {
      const pending = await pendingWithdrawal();
      await approve(pending);
      sent.push(pending);
    }
    const workers = [workerFor(harness), workerFor(second), workerFor(harness), workerFor(second)];
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(workers.map((each) => each.tick()));
      await makeDue();
    }
    for (const [index, pending] of sent.entries()) {
      const made = standIn.transfers.filter((transfer) => transfer.transfer_id === pending.reference);
      expect(made).toHaveLength(1);
      const target = index % 2 === 0 ? harness : second;
      standIn.deliverWebhooksTo(
        async (body, headers) => (await target.app.inject({ method: 'POST', url: '/api/webhooks/cashfree', headers, payload: body })).statusCode,
      );
      await standIn.changeStatus(made[0]?.cf_transfer_id ?? '', 'SUCCESS', { utr: rrn() });
    }
    for (const pending of sent) expect((await withdrawalOf(pending.withdrawalId))?.status).toBe('approved');
    await expectLedgerConsistent(harness);
  });
});
