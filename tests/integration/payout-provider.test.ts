import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueRoutedWithdrawals } from '../../src/server/features/payouts/service.ts';
import { createPayoutWorker, payoutProviderFromConfig, type PayoutWorker } from '../../src/server/features/payouts/worker.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { startRazorpayXStandIn, type RazorpayXStandIn } from '../fixtures/razorpayx-stand-in.ts';
import { call, createTestApp, signUpVerifiedUser, type SignedUpUser, type TestApp } from '../fixtures/test-app.ts';
import { addBankAccount, balanceMicros, decide, expectLedgerConsistent, fundWallet, ledgerTransferCount, requestWithdrawal } from '../fixtures/wallet.ts';

let standIn: RazorpayXStandIn;
beforeAll(async () => {
  standIn = await startRazorpayXStandIn();
});
afterAll(async () => standIn.close());

const { harness, admin } = useIntegrationFile({ app: () => ({ payoutProvider: standIn.config }) });

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
  const response = await harness.app.inject({ method: 'POST', url: '/api/webhooks/razorpayx', headers, payload: body });
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

/** A funded customer with one pending withdrawal of `amount` USDT; `bank` overrides the saved account. */
async function pendingWithdrawal(amount = '10', bank: Record<string, unknown> = {}): Promise<Pending> {
  const customer = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, customer, '100');
  const balanceBefore = await balanceMicros(harness, customer.id);
  const bankAccountId = await addBankAccount(harness, customer, bank);
  const response = await requestWithdrawal(harness, customer, { amount, bankAccountId });
  expect(response.statusCode).toBe(201);
  const withdrawal = response.json<{ withdrawal: { id: string; reference: string } }>().withdrawal;
  return { customer, withdrawalId: withdrawal.id, reference: withdrawal.reference, bankAccountId, balanceBefore };
}

/** The admin approves; with the provider configured the withdrawal goes to it, and a worker tick sends it. */
async function approvedAndSent(amount = '10', bank: Record<string, unknown> = {}): Promise<Pending & { payoutId: string }> {
  const pending = await pendingWithdrawal(amount, bank);
  const approval = await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve');
  expect(approval.statusCode).toBe(200);
  expect(approval.json()).toMatchObject({
    withdrawal: { status: 'processing' },
    message: 'Withdrawal approved: it is being paid through the payout provider.',
  });
  await worker.tick();
  const payout = standIn.payouts.find((candidate) => candidate.reference_id === pending.reference);
  expect(payout).toBeDefined();
  return { ...pending, payoutId: payout?.id ?? '' };
}

async function withdrawalOf(id: string) {
  return row<{ status: string; payout_reference: string | null; rejection_reason: string | null; reversed_at: Date | null; payout_route: string | null }>(
    sql`select status, payout_reference, rejection_reason, reversed_at, payout_route from withdrawal_requests where id = ${id}`,
  );
}

async function payoutOf(id: string) {
  return row<{ state: string; utr: string | null; provider_payout_id: string | null; settled_at: Date | null; last_error: string | null }>(
    sql`select state, utr, provider_payout_id, settled_at, last_error from provider_payouts where withdrawal_id = ${id}`,
  );
}

async function flagOf(bankAccountId: string) {
  return row<{ flagged_at: Date | null; flag_reason: string | null }>(sql`select flagged_at, flag_reason from bank_accounts where id = ${bankAccountId}`);
}

/** An admin freezes or unfreezes a customer (decision 047). */
function freeze(customer: SignedUpUser, verb: 'freeze' | 'unfreeze') {
  return call(harness.app, {
    method: 'POST',
    url: `/api/admin/kyc/customers/${customer.id}/${verb}`,
    cookie: admin.cookie,
    body: { reason: 'Suspicious activity' },
  });
}

describe('a withdrawal paid through RazorpayX', () => {
  it('is sent by the worker as documented, not inside the approval, and processed with a UTR marks it paid', async () => {
    const pending = await pendingWithdrawal('10', { upiId: null });
    expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(200);
    // The approval hands it over; nothing reached the provider yet.
    expect(standIn.payouts.filter((payout) => payout.reference_id === pending.reference)).toHaveLength(0);
    expect(await withdrawalOf(pending.withdrawalId)).toMatchObject({ status: 'processing', payout_route: 'razorpayx' });
    await worker.tick();
    const request = standIn.createRequests.at(-1);
    expect(request?.idempotencyKey).toBe(pending.withdrawalId);
    expect(request?.body).toMatchObject({
      account_number: standIn.config.accountNumber,
      amount: 83_000,
      currency: 'INR',
      mode: 'IMPS',
      purpose: 'payout',
      reference_id: pending.reference,
      narration: `Rupeedesk ${pending.reference}`,
      fund_account: { account_type: 'bank_account', bank_account: { name: 'Asha Rao', ifsc: 'SBIN0001234' } },
    });
    const payout = standIn.payouts.find((candidate) => candidate.reference_id === pending.reference);
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'processing', provider_payout_id: payout?.id });
    const utr = rrn();
    expect(await standIn.changeState(payout?.id ?? '', 'processed', { utr, reason: 'payout_processed' })).toBe(200);
    expect(await withdrawalOf(pending.withdrawalId)).toMatchObject({ status: 'approved', payout_reference: utr });
    expect(await balanceMicros(harness, pending.customer.id)).toBe(pending.balanceBefore - 10_000_000n);
    const view = await call(harness.app, { url: `/api/withdrawals/${pending.withdrawalId}/payout`, cookie: pending.customer.cookie });
    expect(view.statusCode).toBe(200);
    expect(view.json().payout).toMatchObject({ state: 'processed', utr, mode: 'IMPS', amountInr: '830.00' });
    expect(view.json().payout.events.map((event: { state: string }) => event.state)).toEqual(['processing', 'processed']);
    const notification = await row<{ kind: string }>(
      sql`select kind from notifications where user_id = ${pending.customer.id} order by created_at desc limit 1`,
    );
    expect(notification?.kind).toBe('withdrawal_paid');
    // Another customer cannot read it.
    const stranger = await signUpVerifiedUser(harness.app);
    expect((await call(harness.app, { url: `/api/withdrawals/${pending.withdrawalId}/payout`, cookie: stranger.cookie })).statusCode).toBe(404);
  });

  it('sends a UPI payout to the payee’s VPA when the account has a UPI id', async () => {
    const sent = await approvedAndSent('10');
    expect(standIn.createRequests.at(-1)?.body).toMatchObject({ mode: 'UPI', fund_account: { account_type: 'vpa', vpa: { address: 'asha@oksbi' } } });
    expect(sent.payoutId).toMatch(/^pout_/);
  });

  it('failed returns the USDT through the ledger with the reason, notifies the customer and flags the account', async () => {
    const sent = await approvedAndSent();
    expect(
      await standIn.changeState(sent.payoutId, 'failed', { reason: 'bank_account_closed', description: 'Payout failed as the beneficiary account is closed.' }),
    ).toBe(200);
    const withdrawal = await withdrawalOf(sent.withdrawalId);
    expect(withdrawal?.status).toBe('rejected');
    expect(withdrawal?.rejection_reason).toBe('The bank returned the payout: Payout failed as the beneficiary account is closed.');
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore);
    // Flagged once, with the label the customer is shown (decision 044), not the provider's words.
    expect(await flagOf(sent.bankAccountId)).toMatchObject({ flag_reason: 'Account closed' });
    const notification = await row<{ kind: string; body: string }>(
      sql`select kind, body from notifications where user_id = ${sent.customer.id} order by created_at desc limit 1`,
    );
    expect(notification?.kind).toBe('withdrawal_rejected');
    await expectLedgerConsistent(harness);
  });

  it('rejected or cancelled for a reason not of the account refunds without flagging the account', async () => {
    const sent = await approvedAndSent();
    expect(await standIn.changeState(sent.payoutId, 'cancelled', { reason: 'low_balance', description: 'Cancelled: insufficient balance.' })).toBe(200);
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('rejected');
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore);
    expect((await flagOf(sent.bankAccountId))?.flagged_at).toBeNull();
  });

  it('a withdrawal the bank reversed no longer counts toward the daily limit: its money came back', async () => {
    const db = harness.database.handle.db;
    await db.execute(sql`update admin_settings set withdrawal_daily_limit_normal_usdt_micros = 15000000`);
    try {
      const sent = await approvedAndSent();
      await standIn.changeState(sent.payoutId, 'processed', { utr: rrn() });
      const over = await requestWithdrawal(harness, sent.customer, { amount: '10', bankAccountId: sent.bankAccountId });
      expect(over.statusCode).toBe(400);
      expect(over.json().error.code).toBe('WITHDRAWAL_LIMIT');
      await standIn.changeState(sent.payoutId, 'reversed', { reason: 'beneficiary_bank_offline', description: 'Beneficiary bank systems are offline' });
      expect((await withdrawalOf(sent.withdrawalId))?.reversed_at).not.toBeNull();
      expect((await requestWithdrawal(harness, sent.customer, { amount: '10', bankAccountId: sent.bankAccountId })).statusCode).toBe(201);
      await expectLedgerConsistent(harness);
    } finally {
      await db.execute(sql`update admin_settings set withdrawal_daily_limit_normal_usdt_micros = null`);
    }
  });

  it('reversed after processed for a reason not of the account returns the USDT without flagging the account', async () => {
    const sent = await approvedAndSent();
    await standIn.changeState(sent.payoutId, 'processed', { utr: rrn() });
    expect(
      await standIn.changeState(sent.payoutId, 'reversed', { reason: 'beneficiary_bank_offline', description: 'Beneficiary bank systems are offline' }),
    ).toBe(200);
    expect((await withdrawalOf(sent.withdrawalId))?.reversed_at).not.toBeNull();
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore);
    expect((await flagOf(sent.bankAccountId))?.flagged_at).toBeNull();
    await expectLedgerConsistent(harness);
  });

  it('reversed after processed returns the USDT, keeps the payment in the history as reversed and flags the account', async () => {
    const sent = await approvedAndSent();
    const utr = rrn();
    await standIn.changeState(sent.payoutId, 'processed', { utr });
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('approved');
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore - 10_000_000n);
    expect(await standIn.changeState(sent.payoutId, 'reversed', { reason: 'account_frozen', description: 'The beneficiary account is frozen' })).toBe(200);
    const withdrawal = await withdrawalOf(sent.withdrawalId);
    expect(withdrawal).toMatchObject({ status: 'approved', payout_reference: utr });
    expect(withdrawal?.reversed_at).not.toBeNull();
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore);
    expect(await flagOf(sent.bankAccountId)).toMatchObject({ flag_reason: 'Account frozen or blocked' });
    const audit = await row<{ count: number }>(
      sql`select count(*)::int as count from audit_log where action = 'withdrawal.reverse' and target_id = ${sent.withdrawalId}`,
    );
    expect(audit?.count).toBe(1);
    // A late processed event after the reversal never moves it back.
    const before = await ledgerTransferCount(harness);
    await standIn.changeState(sent.payoutId, 'processed', { utr });
    expect(await ledgerTransferCount(harness)).toBe(before);
    expect((await payoutOf(sent.withdrawalId))?.state).toBe('reversed');
    await expectLedgerConsistent(harness);
  });

  it('applies a duplicate webhook once', async () => {
    const sent = await approvedAndSent();
    await standIn.changeState(sent.payoutId, 'failed', { reason: 'bank_account_closed', description: 'closed' });
    const transfers = await ledgerTransferCount(harness);
    expect(await standIn.redeliverLast()).toBe(200);
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore);
  });

  it('answers 400 to a forged or missing signature and changes nothing', async () => {
    const sent = await approvedAndSent();
    const payout = standIn.payouts.find((candidate) => candidate.id === sent.payoutId);
    if (!payout) throw new Error('no payout');
    const webhook = standIn.signedWebhook('payout.processed', { ...payout, status: 'processed', utr: rrn() });
    const transfers = await ledgerTransferCount(harness);
    const forged = await postWebhook(webhook.body.replace('"amount":', '"amount": '), webhook.headers);
    expect(forged).toBe(400);
    const { 'x-razorpay-signature': _signature, ...unsigned } = webhook.headers;
    expect(await postWebhook(webhook.body, unsigned)).toBe(400);
    expect(await postWebhook(webhook.body, { ...webhook.headers, 'x-razorpay-signature': 'a'.repeat(64) })).toBe(400);
    expect(await ledgerTransferCount(harness)).toBe(transfers);
    expect(await withdrawalOf(sent.withdrawalId)).toMatchObject({ status: 'processing' });
    expect((await payoutOf(sent.withdrawalId))?.state).toBe('processing');
    // The same event, signed, is applied.
    expect(await postWebhook(webhook.body, webhook.headers)).toBe(200);
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('approved');
  });

  it('refuses a webhook body over its limit, and an unsigned one from a browser origin too', async () => {
    const huge = JSON.stringify({ event: 'payout.processed', padding: 'x'.repeat(70 * 1024) });
    const signature = createHmac('sha256', standIn.config.webhookSecret).update(huge).digest('hex');
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/webhooks/razorpayx',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': 'evt_TooLarge000001' },
      payload: huge,
    });
    expect(response.statusCode).toBe(413);
    const unsigned = await harness.app.inject({
      method: 'POST',
      url: '/api/webhooks/razorpayx',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      payload: '{}',
    });
    expect(unsigned.statusCode).toBe(400);
  });

  it('never moves a payout backwards on an out-of-order event', async () => {
    const sent = await approvedAndSent();
    const payout = standIn.payouts.find((candidate) => candidate.id === sent.payoutId);
    if (!payout) throw new Error('no payout');
    const utr = rrn();
    await standIn.changeState(sent.payoutId, 'processed', { utr });
    const late = standIn.signedWebhook('payout.initiated', { ...payout, status: 'processing', utr: null });
    expect(await postWebhook(late.body, late.headers)).toBe(200);
    expect(await payoutOf(sent.withdrawalId)).toMatchObject({ state: 'processed', utr });
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('approved');
  });

  it('recovers a lost webhook by polling', async () => {
    const sent = await approvedAndSent();
    standIn.dropWebhooks = true;
    const utr = rrn();
    await standIn.changeState(sent.payoutId, 'processed', { utr });
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('processing');
    await makeDue();
    await worker.tick();
    expect(await withdrawalOf(sent.withdrawalId)).toMatchObject({ status: 'approved', payout_reference: utr });
    expect((await payoutOf(sent.withdrawalId))?.settled_at).not.toBeNull();
  });

  it('finds a reversal after processed whose webhook was lost by polling, for a while after the payout paid (decision 053)', async () => {
    const sent = await approvedAndSent();
    await standIn.changeState(sent.payoutId, 'processed', { utr: rrn() });
    expect((await payoutOf(sent.withdrawalId))?.settled_at).not.toBeNull();
    standIn.dropWebhooks = true;
    await standIn.changeState(sent.payoutId, 'reversed', { reason: 'beneficiary_bank_offline', description: 'Beneficiary bank systems are offline' });
    expect((await withdrawalOf(sent.withdrawalId))?.reversed_at).toBeNull();
    const db = harness.database.handle.db;
    await db.execute(sql`update provider_payouts set next_attempt_at = now() where withdrawal_id = ${sent.withdrawalId}`);
    await worker.tick();
    expect((await withdrawalOf(sent.withdrawalId))?.reversed_at).not.toBeNull();
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore);
    expect((await payoutOf(sent.withdrawalId))?.state).toBe('reversed');
    await expectLedgerConsistent(harness);
    // Reversed, it is final: no longer asked about. A processed payout past the watch is not asked about either.
    standIn.dropWebhooks = false;
    const quiet = await approvedAndSent();
    await standIn.changeState(quiet.payoutId, 'processed', { utr: rrn() });
    standIn.dropWebhooks = true;
    await db.execute(sql`update provider_payouts set settled_at = now() - interval '25 hours' where withdrawal_id = ${quiet.withdrawalId}`);
    await db.execute(sql`update provider_payouts set next_attempt_at = now() where withdrawal_id in (${sent.withdrawalId}, ${quiet.withdrawalId})`);
    await standIn.changeState(quiet.payoutId, 'reversed', { reason: 'beneficiary_bank_offline', description: 'Beneficiary bank systems are offline' });
    const attempts = sql`select sum(attempts)::int as attempts from provider_payouts where withdrawal_id in (${sent.withdrawalId}, ${quiet.withdrawalId})`;
    const asked = await row<{ attempts: number }>(attempts);
    await worker.tick();
    expect((await withdrawalOf(quiet.withdrawalId))?.reversed_at).toBeNull();
    expect((await row<{ attempts: number }>(attempts))?.attempts).toBe(asked?.attempts);
  });

  it('does not mark a processed payout paid until the provider gives its UTR', async () => {
    const sent = await approvedAndSent();
    await standIn.changeState(sent.payoutId, 'processed');
    expect((await withdrawalOf(sent.withdrawalId))?.status).toBe('processing');
    const utr = rrn();
    await standIn.changeState(sent.payoutId, 'processed', { utr });
    expect(await withdrawalOf(sent.withdrawalId)).toMatchObject({ status: 'approved', payout_reference: utr });
  });

  it('retries a send whose answer was lost with the same idempotency key: one provider payout', async () => {
    const pending = await pendingWithdrawal();
    expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(200);
    standIn.dropNextCreateAnswer = true;
    await worker.tick();
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'unsent', provider_payout_id: null });
    expect((await payoutOf(pending.withdrawalId))?.last_error).toMatch(/unreachable/);
    await makeDue();
    await worker.tick();
    const made = standIn.payouts.filter((payout) => payout.reference_id === pending.reference);
    expect(made).toHaveLength(1);
    expect(standIn.createRequests.filter((request) => request.idempotencyKey === pending.withdrawalId)).toHaveLength(2);
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'processing', provider_payout_id: made[0]?.id });
  });

  it('refunds a payout the provider refuses outright', async () => {
    const pending = await pendingWithdrawal();
    expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(200);
    standIn.refuseNextCreate = 'The IFSC is invalid.';
    await worker.tick();
    expect((await withdrawalOf(pending.withdrawalId))?.status).toBe('rejected');
    expect(await balanceMicros(harness, pending.customer.id)).toBe(pending.balanceBefore);
  });

  it('an approval with a payout reference records a payment made by hand, as before, and the reference must have its rail’s form', async () => {
    const pending = await pendingWithdrawal();
    expect((await call(harness.app, { url: '/api/admin/payouts/overview', cookie: admin.cookie })).json()).toMatchObject({ provider: 'razorpayx' });
    const malformed = await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve', { payoutReference: 'UTR-BY-HAND' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.fields).toEqual({ payoutReference: 'A UPI UTR (RRN) has 12 digits.' });
    expect(await withdrawalOf(pending.withdrawalId)).toMatchObject({ status: 'pending', payout_route: null });
    const utr = rrn();
    const approval = await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve', { payoutReference: utr });
    expect(approval.statusCode).toBe(200);
    expect(await withdrawalOf(pending.withdrawalId)).toMatchObject({ status: 'approved', payout_reference: utr, payout_route: null });
    await worker.tick();
    expect(standIn.payouts.filter((payout) => payout.reference_id === pending.reference)).toHaveLength(0);
  });
});

describe('a payout held before its first send (decision 049)', () => {
  const HELD_FROZEN = 'Not sent: the customer’s account was frozen after the approval. It is sent when the freeze is lifted (decision 049).';
  const HELD_BY_INCIDENT =
    'Not sent: a deposit of this customer vanished from the chain after the approval. It is sent when the incident is settled (decision 049).';

  function requestsWithKey(withdrawalId: string) {
    return standIn.createRequests.filter((request) => request.idempotencyKey === withdrawalId);
  }

  it('is not sent while its customer, frozen after the approval, stays frozen; it leaves once when the freeze is lifted', async () => {
    const pending = await pendingWithdrawal();
    expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(200);
    expect((await freeze(pending.customer, 'freeze')).statusCode).toBe(200);
    await worker.tick();
    await makeDue();
    await worker.tick();
    expect(requestsWithKey(pending.withdrawalId)).toHaveLength(0);
    expect(await withdrawalOf(pending.withdrawalId)).toMatchObject({ status: 'processing', payout_route: 'razorpayx' });
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'unsent', provider_payout_id: null, last_error: HELD_FROZEN });
    const sentAt = await row<{ sent_at: Date | null }>(sql`select sent_at from provider_payouts where withdrawal_id = ${pending.withdrawalId}`);
    expect(sentAt?.sent_at).toBeNull();
    // Its money stays held for it: nothing came back, nothing left.
    expect(await balanceMicros(harness, pending.customer.id)).toBe(pending.balanceBefore - 10_000_000n);
    await expectLedgerConsistent(harness);

    expect((await freeze(pending.customer, 'unfreeze')).statusCode).toBe(200);
    await makeDue();
    await worker.tick();
    expect(requestsWithKey(pending.withdrawalId)).toHaveLength(1);
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'processing', last_error: null });
  });

  it('is not sent while a deposit of its customer that vanished from the chain after the approval is an open incident', async () => {
    const pending = await pendingWithdrawal();
    expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(200);
    const deposit = await row<{ id: string; transaction_hash: string }>(
      sql`select id, transaction_hash from usdt_deposits where user_id = ${pending.customer.id} limit 1`,
    );
    const incident = await row<{ id: string }>(
      sql`insert into chain_incidents (deposit_id, user_id, network, transaction_hash, amount_usdt_micros, kind)
          values (${deposit?.id}, ${pending.customer.id}, 'TRC20', ${deposit?.transaction_hash}, 1000000, 'transfer_vanished') returning id`,
    );
    await worker.tick();
    expect(requestsWithKey(pending.withdrawalId)).toHaveLength(0);
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'unsent', last_error: HELD_BY_INCIDENT });
    await harness.database.handle.db.execute(sql`update chain_incidents set resolved_at = now(), resolution = 'reincluded' where id = ${incident?.id}`);
    await makeDue();
    await worker.tick();
    expect(requestsWithKey(pending.withdrawalId)).toHaveLength(1);
  });

  it('once a request may have reached the provider, is never held back: sent again under the same key and settled from the provider', async () => {
    const pending = await pendingWithdrawal();
    expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(200);
    standIn.dropNextCreateAnswer = true;
    await worker.tick();
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'unsent', provider_payout_id: null });
    // The freeze comes after the first request left: the provider may have the payout, so it must be followed, not held.
    expect((await freeze(pending.customer, 'freeze')).statusCode).toBe(200);
    await makeDue();
    await worker.tick();
    const requests = requestsWithKey(pending.withdrawalId);
    expect(requests).toHaveLength(2);
    expect(new Set(requests.map((request) => request.idempotencyKey))).toEqual(new Set([pending.withdrawalId]));
    const made = standIn.payouts.filter((payout) => payout.reference_id === pending.reference);
    expect(made).toHaveLength(1);
    const utr = rrn();
    await standIn.changeState(made[0]?.id ?? '', 'processed', { utr });
    expect(await withdrawalOf(pending.withdrawalId)).toMatchObject({ status: 'approved', payout_reference: utr });
    await expectLedgerConsistent(harness);
    expect((await freeze(pending.customer, 'unfreeze')).statusCode).toBe(200);
  });
});

describe('an admin rejects a payout held before its first send (decision 053)', () => {
  const REASON = 'Customer frozen for review; payout withdrawn';

  function rejectHeld(withdrawalId: string, cookie = admin.cookie) {
    return call(harness.app, { method: 'POST', url: `/api/admin/withdrawals/${withdrawalId}/payout/reject`, cookie, body: { reason: REASON } });
  }

  /** An approved withdrawal whose customer was frozen after the approval: the worker held its payout. */
  async function heldByFreeze(): Promise<Pending> {
    const pending = await pendingWithdrawal();
    expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(200);
    expect((await freeze(pending.customer, 'freeze')).statusCode).toBe(200);
    await worker.tick();
    expect(await payoutOf(pending.withdrawalId)).toMatchObject({ state: 'unsent', provider_payout_id: null });
    return pending;
  }

  it('is shown to admins as held, with the hold as its last error and when, so the page offers the reject', async () => {
    const held = await heldByFreeze();
    const view = await call(harness.app, { url: `/api/admin/withdrawals/${held.withdrawalId}/payout`, cookie: admin.cookie });
    expect(view.statusCode).toBe(200);
    expect(view.json().payout).toMatchObject({
      state: 'unsent',
      heldBeforeSend: true,
      lastError: 'Not sent: the customer’s account was frozen after the approval. It is sent when the freeze is lifted (decision 049).',
    });
    expect(view.json().payout.lastErrorAt).not.toBeNull();
    expect((await rejectHeld(held.withdrawalId)).statusCode).toBe(200);
    const after = await call(harness.app, { url: `/api/admin/withdrawals/${held.withdrawalId}/payout`, cookie: admin.cookie });
    expect(after.json().payout).toMatchObject({ heldBeforeSend: false, lastError: null });
    expect((await freeze(held.customer, 'unfreeze')).statusCode).toBe(200);
  });

  it('refunds the held USDT to the wallet through the ledger, tells the customer, and the payout is never sent', async () => {
    const held = await heldByFreeze();
    const transfers = await ledgerTransferCount(harness);
    const answer = await rejectHeld(held.withdrawalId);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ withdrawal: { status: 'rejected' }, message: 'Withdrawal rejected and funds returned to user' });
    expect(await withdrawalOf(held.withdrawalId)).toMatchObject({ status: 'rejected', rejection_reason: REASON });
    expect(await balanceMicros(harness, held.customer.id)).toBe(held.balanceBefore);
    expect(await ledgerTransferCount(harness)).toBe(transfers + 1n);
    expect((await payoutOf(held.withdrawalId))?.settled_at).not.toBeNull();
    // Not a failure of the account: the payee is not flagged.
    expect((await flagOf(held.bankAccountId))?.flagged_at).toBeNull();
    const told = await row<{ count: number }>(
      sql`select count(*)::int as count from notifications where user_id = ${held.customer.id} and kind = 'withdrawal_rejected'`,
    );
    expect(told?.count).toBe(1);
    const audit = await row<{ count: number }>(
      sql`select count(*)::int as count from audit_log where action = 'withdrawal.reject' and target_id = ${held.withdrawalId}`,
    );
    expect(audit?.count).toBe(1);
    // Lifting the freeze sends nothing: the payout is over.
    expect((await freeze(held.customer, 'unfreeze')).statusCode).toBe(200);
    await makeDue();
    await worker.tick();
    expect(standIn.createRequests.filter((request) => request.idempotencyKey === held.withdrawalId)).toHaveLength(0);
    // A second reject changes nothing.
    expect((await rejectHeld(held.withdrawalId)).statusCode).toBe(409);
    expect(await balanceMicros(harness, held.customer.id)).toBe(held.balanceBefore);
    await expectLedgerConsistent(harness);
  });

  it('is refused once the payout was sent, for a payout not held, to a customer or another non-admin, and without a reason', async () => {
    const sent = await approvedAndSent();
    const afterSend = await rejectHeld(sent.withdrawalId);
    expect(afterSend.statusCode).toBe(409);
    expect(afterSend.json().error.message).toBe('This payout was sent to the payout provider; it is settled by the provider’s answers.');

    // Approved, not held, not yet sent: it is on its way and is not taken back.
    const notHeld = await pendingWithdrawal();
    expect((await decide(harness, admin, 'withdrawals', notHeld.withdrawalId, 'approve')).statusCode).toBe(200);
    // Its payout row exists (the worker's first step) and nothing was sent yet.
    await enqueueRoutedWithdrawals(harness.database.handle.db, 100);
    const unheld = await rejectHeld(notHeld.withdrawalId);
    expect(unheld.statusCode).toBe(409);
    expect(unheld.json().error.message).toBe('This payout is not held: it is being sent to the payout provider.');

    const held = await heldByFreeze();
    const customer = await rejectHeld(held.withdrawalId, held.customer.cookie);
    expect(customer.statusCode).toBe(403);
    const stranger = await signUpVerifiedUser(harness.app);
    expect((await rejectHeld(held.withdrawalId, stranger.cookie)).statusCode).toBe(403);
    const noReason = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${held.withdrawalId}/payout/reject`,
      cookie: admin.cookie,
      body: {},
    });
    expect(noReason.statusCode).toBe(400);
    expect((await rejectHeld('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect(await withdrawalOf(held.withdrawalId)).toMatchObject({ status: 'processing' });
    expect(await withdrawalOf(sent.withdrawalId)).toMatchObject({ status: 'processing' });
    expect(await balanceMicros(harness, held.customer.id)).toBe(held.balanceBefore - 10_000_000n);
    expect(await balanceMicros(harness, sent.customer.id)).toBe(sent.balanceBefore - 10_000_000n);
    expect((await freeze(held.customer, 'unfreeze')).statusCode).toBe(200);
  });

  it('races the freeze being lifted and the worker sending: either the payout is sent or it is refunded, never both', async () => {
    for (let round = 0; round < 3; round += 1) {
      const held = await heldByFreeze();
      const [rejected] = await Promise.all([
        rejectHeld(held.withdrawalId),
        (async () => {
          expect((await freeze(held.customer, 'unfreeze')).statusCode).toBe(200);
          await makeDue();
          await worker.tick();
        })(),
      ]);
      await makeDue();
      await worker.tick();
      const sends = standIn.payouts.filter((payout) => payout.reference_id === held.reference).length;
      const withdrawal = await withdrawalOf(held.withdrawalId);
      if (rejected.statusCode === 200) {
        expect(sends).toBe(0);
        expect(withdrawal?.status).toBe('rejected');
        expect(await balanceMicros(harness, held.customer.id)).toBe(held.balanceBefore);
      } else {
        expect(rejected.statusCode).toBe(409);
        expect(sends).toBe(1);
        expect(withdrawal?.status).toBe('processing');
        expect(await balanceMicros(harness, held.customer.id)).toBe(held.balanceBefore - 10_000_000n);
      }
      await expectLedgerConsistent(harness);
    }
  });
});

describe('a stuck payout (decision 049)', () => {
  it('is listed for admins with its error and attempts, and told to each admin once, not at every poll', async () => {
    const pending = await pendingWithdrawal();
    expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(200);
    standIn.dropNextCreateAnswer = true;
    await worker.tick();
    const overview = await call(harness.app, { url: '/api/admin/payouts/overview', cookie: admin.cookie });
    expect(overview.statusCode).toBe(200);
    expect(overview.json()).toMatchObject({ provider: 'razorpayx', stuckAfterMinutes: 30 });
    const listed = overview.json().stuck.find((payout: { withdrawalId: string }) => payout.withdrawalId === pending.withdrawalId);
    expect(listed).toMatchObject({ reference: pending.reference, state: 'unsent', attempts: 1, amountInr: '830.00' });
    expect(listed.lastError).toMatch(/unreachable/);
    // The withdrawal's own payout, as the admin withdrawal page reads it: the attempts, the last error and when (issue 31).
    const single = await call(harness.app, { url: `/api/admin/withdrawals/${pending.withdrawalId}/payout`, cookie: admin.cookie });
    expect(single.statusCode).toBe(200);
    expect(single.json().payout).toMatchObject({ state: 'unsent', attempts: 1, heldBeforeSend: false });
    expect(single.json().payout.lastError).toMatch(/unreachable/);
    expect(Date.parse(single.json().payout.lastErrorAt)).toBeGreaterThan(Date.now() - 60_000);
    // The customer's view of the same payout has none of the provider's errors; a stranger and a customer get no admin view.
    const own = await call(harness.app, { url: `/api/withdrawals/${pending.withdrawalId}/payout`, cookie: pending.customer.cookie });
    expect(own.statusCode).toBe(200);
    expect(own.json().payout).not.toHaveProperty('lastError');
    expect(own.json().payout).not.toHaveProperty('attempts');
    expect((await call(harness.app, { url: `/api/admin/withdrawals/${pending.withdrawalId}/payout`, cookie: pending.customer.cookie })).statusCode).toBe(403);
    expect((await call(harness.app, { url: '/api/admin/withdrawals/not-a-uuid/payout', cookie: admin.cookie })).statusCode).toBe(400);
    await worker.tick();
    const told = async () =>
      (
        await harness.database.handle.db.execute(
          sql`select 1 from notifications where user_id = ${admin.id} and kind = 'payout_stuck' and title = ${`Payout ${pending.reference} needs a look`}`,
        )
      ).rows.length;
    expect(await told()).toBe(1);
    // The next polls, still stuck: not told again.
    await makeDue();
    standIn.dropNextCreateAnswer = true;
    await worker.tick();
    await worker.tick();
    expect(await told()).toBe(1);
    // A customer sees none of it.
    expect((await call(harness.app, { url: '/api/admin/payouts/overview', cookie: pending.customer.cookie })).statusCode).toBe(403);
    // Settled, it is no longer listed.
    await makeDue();
    await worker.tick();
    const made = standIn.payouts.find((payout) => payout.reference_id === pending.reference);
    await standIn.changeState(made?.id ?? '', 'processed', { utr: rrn() });
    const after = await call(harness.app, { url: '/api/admin/payouts/overview', cookie: admin.cookie });
    expect(after.json().stuck.map((payout: { withdrawalId: string }) => payout.withdrawalId)).not.toContain(pending.withdrawalId);
    // Settled, its error is cleared; the attempts stay counted.
    const settled = await call(harness.app, { url: `/api/admin/withdrawals/${pending.withdrawalId}/payout`, cookie: admin.cookie });
    expect(settled.json().payout).toMatchObject({ state: 'processed', lastError: null, lastErrorAt: null, heldBeforeSend: false });
    expect(settled.json().payout.attempts).toBeGreaterThanOrEqual(3);
  });
});

describe('one route per withdrawal', () => {
  it('a withdrawal with the provider cannot enter a bank file, and the database refuses it too', async () => {
    const sent = await approvedAndSent();
    const batch = await call(harness.app, {
      method: 'POST',
      url: '/api/admin/payout-batches',
      cookie: admin.cookie,
      body: { withdrawalIds: [sent.withdrawalId] },
    });
    expect(batch.statusCode).toBe(409);
    const batchId = await row<{ id: string }>(
      sql`insert into payout_batches (created_by_user_id, withdrawal_count, total_inr_paise) values (${admin.id}, 1, 0) returning id`,
    );
    await expect(
      harness.database.handle.db.execute(sql`update withdrawal_requests set payout_batch_id = ${batchId?.id} where id = ${sent.withdrawalId}`),
    ).rejects.toThrow();
    await expect(
      harness.database.handle.db.execute(sql`update withdrawal_requests set payout_route = 'bank_file' where id = ${sent.withdrawalId}`),
    ).rejects.toThrow();
    await harness.database.handle.db.execute(sql`delete from payout_batches where id = ${batchId?.id}`);
  });

  it('a withdrawal in a bank file never goes to the provider', async () => {
    const pending = await pendingWithdrawal();
    const batch = await call(harness.app, {
      method: 'POST',
      url: '/api/admin/payout-batches',
      cookie: admin.cookie,
      body: { withdrawalIds: [pending.withdrawalId] },
    });
    expect(batch.statusCode).toBe(201);
    expect((await withdrawalOf(pending.withdrawalId))?.payout_route).toBe('bank_file');
    // The admin's approve is refused while it is in the batch, and the worker finds nothing to send.
    expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(409);
    await worker.tick();
    expect(standIn.payouts.filter((payout) => payout.reference_id === pending.reference)).toHaveLength(0);
    // The database holds it too: no provider payout for it, and its route cannot become the provider's.
    await expect(
      harness.database.handle.db.execute(
        sql`insert into provider_payouts (withdrawal_id, idempotency_key, amount_inr_paise, mode) values (${pending.withdrawalId}, ${pending.withdrawalId}, 83000, 'IMPS')`,
      ),
    ).rejects.toThrow();
    await expect(
      harness.database.handle.db.execute(
        sql`update withdrawal_requests set payout_route = 'razorpayx', payout_batch_id = null, status = 'pending' where id = ${pending.withdrawalId}`,
      ),
    ).rejects.toThrow();
    // Cancelled before its file was downloaded, it is free again and the provider may take it.
    const batchId = batch.json<{ batch: { id: string } }>().batch.id;
    expect((await call(harness.app, { method: 'POST', url: `/api/admin/payout-batches/${batchId}/cancel`, cookie: admin.cookie, body: {} })).statusCode).toBe(
      200,
    );
    expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(200);
    await worker.tick();
    expect(standIn.payouts.filter((payout) => payout.reference_id === pending.reference)).toHaveLength(1);
  });
});

describe('two app processes on one database', () => {
  let second: TestApp;
  beforeAll(async () => {
    second = await createTestApp({ database: harness.database, payoutProvider: standIn.config });
  });
  afterAll(async () => second.close());

  it('make one provider payout per withdrawal however their workers interleave', async () => {
    const sent: Pending[] = [];
    for (let index = 0; index < 6; index += 1) {
      const pending = await pendingWithdrawal('5');
      expect((await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve')).statusCode).toBe(200);
      sent.push(pending);
    }
    const workers = [workerFor(harness), workerFor(second), workerFor(harness), workerFor(second)];
    for (let round = 0; round < 3; round += 1) {
      await Promise.all(workers.map((each) => each.tick()));
      // Every lease ends at once: the other process may take any of them again.
      await makeDue();
    }
    for (const pending of sent) {
      expect(standIn.payouts.filter((payout) => payout.reference_id === pending.reference)).toHaveLength(1);
      expect((await payoutOf(pending.withdrawalId))?.state).toBe('processing');
    }
    // The bank's answers reach either process; each withdrawal is paid once.
    for (const [index, pending] of sent.entries()) {
      const payout = standIn.payouts.find((candidate) => candidate.reference_id === pending.reference);
      const target = index % 2 === 0 ? harness : second;
      standIn.deliverWebhooksTo(
        async (body, headers) => (await target.app.inject({ method: 'POST', url: '/api/webhooks/razorpayx', headers, payload: body })).statusCode,
      );
      await standIn.changeState(payout?.id ?? '', 'processed', { utr: rrn() });
    }
    for (const pending of sent) expect((await withdrawalOf(pending.withdrawalId))?.status).toBe('approved');
  });
});

describe('reconciliation', () => {
  it('lists the day’s payouts whose amount, state or UTR differ from ours', async () => {
    const agreed = await approvedAndSent();
    await standIn.changeState(agreed.payoutId, 'processed', { utr: rrn() });
    const drifted = await approvedAndSent();
    standIn.dropWebhooks = true;
    await standIn.changeState(drifted.payoutId, 'processed', { utr: rrn() });
    const day = new Date(Date.now() + 5.5 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const response = await call(harness.app, { url: `/api/admin/payouts/reconciliation?day=${day}`, cookie: admin.cookie });
    expect(response.statusCode).toBe(200);
    const differences = response.json<{ differences: { providerPayoutId: string; problems: string[] }[] }>().differences;
    expect(differences.find((difference) => difference.providerPayoutId === agreed.payoutId)).toBeUndefined();
    expect(differences.find((difference) => difference.providerPayoutId === drifted.payoutId)?.problems).toEqual(['The state differs.', 'The UTR differs.']);
    const customer = await signUpVerifiedUser(harness.app);
    expect((await call(harness.app, { url: `/api/admin/payouts/reconciliation?day=${day}`, cookie: customer.cookie })).statusCode).toBe(403);
  });
});

describe('two-person control with the provider', () => {
  it('sends a large withdrawal only when a second admin confirms it, and then through the provider', async () => {
    const second = await signUpAdminWithVerifiedPin(harness);
    await harness.database.handle.db.execute(sql`update admin_settings set large_withdrawal_inr_paise = 50000 where id = 1`);
    try {
      const pending = await pendingWithdrawal('10');
      const first = await decide(harness, admin, 'withdrawals', pending.withdrawalId, 'approve');
      expect(first.statusCode).toBe(202);
      await worker.tick();
      expect((await withdrawalOf(pending.withdrawalId))?.status).toBe('pending');
      expect(standIn.payouts.filter((payout) => payout.reference_id === pending.reference)).toHaveLength(0);
      const confirmed = await call(harness.app, {
        method: 'POST',
        url: `/api/admin/pending-changes/${first.json().pendingChange.id}/confirm`,
        cookie: second.cookie,
        body: {},
      });
      expect(confirmed.statusCode).toBe(200);
      expect(await withdrawalOf(pending.withdrawalId)).toMatchObject({ status: 'processing', payout_route: 'razorpayx' });
      await worker.tick();
      expect(standIn.payouts.filter((payout) => payout.reference_id === pending.reference)).toHaveLength(1);
    } finally {
      await harness.database.handle.db.execute(sql`update admin_settings set large_withdrawal_inr_paise = 20000000 where id = 1`);
    }
  });
});
