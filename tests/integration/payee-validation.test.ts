import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BANK_ACCOUNT_MESSAGES, PAYEE_ADMIN_MESSAGES, PAYEE_CHECKS_PER_DAY } from '#shared/contracts/bank-accounts';
import { createPayeeValidationWorker } from '../../src/server/features/bank-accounts/validation-worker.ts';
import { signUpAdminWithVerifiedPin } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { startRazorpayXStandIn, type RazorpayXStandIn, type StandInValidation } from '../fixtures/razorpayx-stand-in.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { balanceMicros, fundWallet, ledgerTransferCount, requestWithdrawal } from '../fixtures/wallet.ts';

/*
 * Payees checked like a bank checks them (decision 054), against the RazorpayX stand-in's Fund Account
 * Validation: a match lifts the cooling-off, a name that does not match or an invalid account blocks
 * withdrawals to the payee until an admin accepts it (or its owner edits it).
 */

let standIn: RazorpayXStandIn;
beforeAll(async () => {
  standIn = await startRazorpayXStandIn();
});
afterAll(async () => standIn.close());

// The cooling-off is on, so that a withdrawal going through shows that the match lifted it.
const { harness, admin } = useIntegrationFile({ app: () => ({ payoutProvider: standIn.config, coolingOffHours: 24 }) });

async function postValidationWebhook(body: string, headers: Record<string, string>): Promise<number> {
  const response = await harness.app.inject({ method: 'POST', url: '/api/webhooks/razorpayx/validations', headers, payload: body });
  return response.statusCode;
}

beforeEach(() => {
  standIn.validateLater = false;
  standIn.answerValidationsWith = undefined;
  standIn.dropWebhooks = false;
  standIn.deliverValidationWebhooksTo(postValidationWebhook);
});

function uniqueAccountNumber(): string {
  return `${randomInt(100_000, 999_999)}${randomInt(100_000, 999_999)}`;
}

interface Payee {
  id: string;
  payeeCheck: string;
  accountNumber: string;
}

async function addPayee(customer: SignedUpUser, fields: { accountNumber?: string; accountHolderName?: string; upiId?: string | null } = {}) {
  const accountNumber = fields.accountNumber ?? uniqueAccountNumber();
  const response = await call(harness.app, {
    method: 'POST',
    url: '/api/bank-accounts',
    cookie: customer.cookie,
    body: {
      accountHolderName: fields.accountHolderName ?? 'Asha Rao',
      accountNumber,
      accountNumberConfirmation: accountNumber,
      ifscCode: 'SBIN0001234',
      upiId: fields.upiId ?? null,
    },
  });
  return { response, accountNumber };
}

async function addedPayee(customer: SignedUpUser, fields: Parameters<typeof addPayee>[1] = {}): Promise<Payee> {
  const { response, accountNumber } = await addPayee(customer, fields);
  expect(response.statusCode, response.body).toBe(201);
  const bankAccount = response.json<{ bankAccount: { id: string; payeeCheck: string } }>().bankAccount;
  return { id: bankAccount.id, payeeCheck: bankAccount.payeeCheck, accountNumber };
}

async function payeeRow(id: string) {
  const result = await harness.database.handle.db.execute<{ payee_check: string; validation_id: string | null; accepted_by: string | null }>(
    sql`select payee_check, validation_id, accepted_by from bank_accounts where id = ${id}`,
  );
  return result.rows[0];
}

async function validationOf(bankAccountId: string) {
  const result = await harness.database.handle.db.execute<{
    status: string;
    registered_name: string | null;
    name_verdict: string | null;
    account_status: string | null;
    provider_validation_id: string | null;
    completed_at: Date | null;
  }>(
    sql`select v.status, v.registered_name, v.name_verdict, v.account_status, v.provider_validation_id, v.completed_at
        from payee_validations v join bank_accounts a on a.validation_id = v.id where a.id = ${bankAccountId}`,
  );
  return result.rows[0];
}

/** The notices a customer got that a bank account was blocked by the bank's check (issue 31). */
async function blockedNotices(customer: SignedUpUser) {
  const result = await harness.database.handle.db.execute<{ title: string; body: string; link: string | null; email_subject: string; email_state: string }>(
    sql`select title, body, link, email_subject, email_state from notifications where user_id = ${customer.id} and kind = 'withdrawal_payee_blocked'`,
  );
  return result.rows;
}

async function fundedCustomer(): Promise<SignedUpUser> {
  const customer = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, customer, '100');
  return customer;
}

/** A withdrawal to the payee is refused with 409 and `message`; the balance and the ledger do not move. */
async function expectWithdrawalRefused(customer: SignedUpUser, bankAccountId: string, message: string): Promise<void> {
  const balanceBefore = await balanceMicros(harness, customer.id);
  const transfersBefore = await ledgerTransferCount(harness);
  const response = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId });
  expect(response.statusCode, response.body).toBe(409);
  expect(response.json()).toMatchObject({ error: { message } });
  expect(await balanceMicros(harness, customer.id)).toBe(balanceBefore);
  expect(await ledgerTransferCount(harness)).toBe(transfersBefore);
}

describe('a payee with a UPI id: RazorpayX validates the UPI id too, by the same name rule', () => {
  function uniqueUpiId(): string {
    return `asha.${randomInt(100_000, 999_999)}@oksbi`;
  }

  /** The payee's validations, oldest first: the bank account's penny drop and then its UPI id's. */
  async function validationsOf(bankAccountId: string) {
    const result = await harness.database.handle.db.execute<{
      vpa: string | null;
      status: string;
      account_status: string | null;
      registered_name: string | null;
      name_verdict: string | null;
    }>(
      sql`select vpa, status, account_status, registered_name, name_verdict from payee_validations where bank_account_id = ${bankAccountId} order by created_at, vpa nulls first`,
    );
    return result.rows;
  }

  it('verifies a payee whose UPI id is active in a matching name, after its bank account; the documented request is sent', async () => {
    const customer = await fundedCustomer();
    const upiId = uniqueUpiId();
    standIn.registeredNames.set(upiId, 'ASHA RAO');
    const payee = await addedPayee(customer, { upiId });
    expect(payee.payeeCheck).toBe('verified');
    const request = standIn.validationRequests.at(-1);
    expect(request).toMatchObject({
      account_number: standIn.config.accountNumber,
      fund_account: { account_type: 'vpa', vpa: { address: upiId }, contact: { name: 'Asha Rao', type: 'customer', reference_id: customer.id } },
    });
    expect(request).not.toHaveProperty('amount');
    expect(await validationsOf(payee.id)).toEqual([
      { vpa: null, status: 'completed', account_status: 'active', registered_name: 'Asha Rao', name_verdict: 'match' },
      { vpa: upiId, status: 'completed', account_status: 'active', registered_name: 'ASHA RAO', name_verdict: 'match' },
    ]);
  });

  it('blocks a payee whose UPI id is registered in another name, as a bank mismatch: admins see it, and it takes no withdrawal until the owner edits it', async () => {
    const customer = await fundedCustomer();
    const upiId = uniqueUpiId();
    standIn.registeredNames.set(upiId, 'SOMEONE ELSE');
    const payee = await addedPayee(customer, { upiId });
    expect(payee.payeeCheck).toBe('name_mismatch');
    expect((await validationOf(payee.id))?.registered_name).toBe('SOMEONE ELSE');
    const page = await call(harness.app, { url: `/api/admin/users/${customer.id}/payees`, cookie: admin.cookie });
    expect(page.json()).toMatchObject({
      items: [{ id: payee.id, payeeCheck: 'name_mismatch', validation: { vpa: upiId, registeredName: 'SOMEONE ELSE', nameVerdict: 'mismatch' } }],
    });
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.nameMismatch);
    expect(await blockedNotices(customer)).toHaveLength(1);
    const review = await call(harness.app, { url: '/api/admin/payees/review?limit=100', cookie: admin.cookie });
    expect(review.json<{ items: { id: string }[] }>().items.map((item) => item.id)).toContain(payee.id);
    const edited = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${payee.id}`,
      cookie: customer.cookie,
      body: { upiId: uniqueUpiId() },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ bankAccount: { payeeCheck: 'verified' } });
  });

  it('an admin may accept a payee whose UPI id’s name does not match', async () => {
    const customer = await fundedCustomer();
    const upiId = uniqueUpiId();
    standIn.registeredNames.set(upiId, 'RAVI KUMAR');
    const payee = await addedPayee(customer, { upiId });
    expect(payee.payeeCheck).toBe('name_mismatch');
    const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(await payeeRow(payee.id)).toMatchObject({ payee_check: 'accepted', accepted_by: admin.id });
  });

  it('blocks a payee whose UPI id does not exist, as an invalid account: an admin cannot accept it', async () => {
    const customer = await fundedCustomer();
    const upiId = uniqueUpiId();
    standIn.invalidAccounts.add(upiId);
    const payee = await addedPayee(customer, { upiId });
    expect(payee.payeeCheck).toBe('invalid');
    expect(await validationOf(payee.id)).toMatchObject({ status: 'completed', account_status: 'invalid' });
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.invalidAccount);
    const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
    expect(accept.statusCode).toBe(409);
  });

  it('keeps a payee checking while the provider cannot be reached for its UPI id; the worker asks again', async () => {
    const customer = await fundedCustomer();
    const upiId = uniqueUpiId();
    standIn.dropVpaValidations = true;
    try {
      const payee = await addedPayee(customer, { upiId });
      expect(payee.payeeCheck).toBe('checking');
      expect(await validationsOf(payee.id)).toMatchObject([
        { vpa: null, status: 'completed' },
        { vpa: upiId, status: 'queued' },
      ]);
      await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.checking);
      standIn.dropVpaValidations = false;
      await harness.database.handle.db.execute(sql`update payee_validations set next_attempt_at = now() where bank_account_id = ${payee.id}`);
      const worker = createPayeeValidationWorker({ db: harness.database.handle.db, config: standIn.config, log: pino({ level: 'silent' }) });
      await worker.tick();
      expect((await payeeRow(payee.id))?.payee_check).toBe('verified');
    } finally {
      standIn.dropVpaValidations = false;
    }
  });

  it('checks a payee without a UPI id as before: one penny drop and nothing more', async () => {
    const customer = await fundedCustomer();
    const sentBefore = standIn.validationRequests.length;
    const payee = await addedPayee(customer);
    expect(payee.payeeCheck).toBe('verified');
    expect(standIn.validationRequests.length).toBe(sentBefore + 1);
    expect(standIn.validationRequests.at(-1)).toMatchObject({ fund_account: { account_type: 'bank_account' } });
    expect(await validationsOf(payee.id)).toEqual([
      { vpa: null, status: 'completed', account_status: 'active', registered_name: 'Asha Rao', name_verdict: 'match' },
    ]);
  });
});

describe('a new payee checked with the bank (penny drop)', () => {
  it('sends the documented validation, and a matching registered name lifts the cooling-off (audited)', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.registeredNames.set(accountNumber, 'MS RAO ASHA');
    const payee = await addedPayee(customer, { accountNumber });
    expect(payee.payeeCheck).toBe('verified');
    expect(standIn.validationRequests.at(-1)).toMatchObject({
      account_number: standIn.config.accountNumber,
      amount: 100,
      currency: 'INR',
      fund_account: {
        account_type: 'bank_account',
        bank_account: { name: 'Asha Rao', ifsc: 'SBIN0001234', account_number: accountNumber },
        contact: { type: 'customer' },
      },
    });
    expect(await validationOf(payee.id)).toMatchObject({
      status: 'completed',
      account_status: 'active',
      registered_name: 'MS RAO ASHA',
      name_verdict: 'match',
    });
    const audit = await harness.database.handle.db.execute<{ after: { payeeCheck: string; coolingOffLifted: boolean } }>(
      sql`select after from audit_log where action = 'payee.check' and target_id = ${payee.id}`,
    );
    expect(audit.rows[0]?.after).toMatchObject({ payeeCheck: 'verified', coolingOffLifted: true });
    // No pause: the withdrawal goes through at once although the cooling-off is 24 hours.
    const withdrawal = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: payee.id });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);
  });

  it('lifts the cooling-off of a payee whose bank account and UPI id both match (issue 31 §4: a payee whose name matches needs no cooling-off)', async () => {
    const customer = await fundedCustomer();
    const payee = await addedPayee(customer, { upiId: 'asha@oksbi' });
    expect(payee.payeeCheck).toBe('verified');
    const audit = await harness.database.handle.db.execute<{ after: { payeeCheck: string; coolingOffLifted: boolean } }>(
      sql`select after from audit_log where action = 'payee.check' and target_id = ${payee.id}`,
    );
    expect(audit.rows.map((row) => row.after)).toEqual([expect.objectContaining({ payeeCheck: 'verified', coolingOffLifted: true })]);
    const pauses = await call(harness.app, { url: '/api/security/pauses', cookie: customer.cookie });
    expect(pauses.json()).toMatchObject({ bankAccounts: [] });
    const response = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: payee.id });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('keeps the cooling-off of a verified payee whose UPI id the bank did not check (verified before UPI ids were checked, or by another UPI id)', async () => {
    const customer = await fundedCustomer();
    const payee = await addedPayee(customer);
    expect(payee.payeeCheck).toBe('verified');
    // As a payee verified by its penny drop alone before migration 0055 holds it: a UPI id beside a check that did not cover it.
    await harness.database.handle.db.execute(sql`update bank_accounts set upi_id = 'asha@oksbi' where id = ${payee.id}`);
    const pauses = await call(harness.app, { url: '/api/security/pauses', cookie: customer.cookie });
    expect(pauses.json()).toMatchObject({ bankAccounts: [{ bankAccountId: payee.id }] });
    const response = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: payee.id });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'COOLING_OFF' } });

    // A payee whose UPI id was checked, holding another UPI id than the one checked, keeps it too.
    const other = await addedPayee(customer, { upiId: 'asha.other@oksbi' });
    expect(other.payeeCheck).toBe('verified');
    await harness.database.handle.db.execute(sql`update bank_accounts set upi_id = 'asha.third@oksbi' where id = ${other.id}`);
    const toOther = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: other.id });
    expect(toOther.statusCode).toBe(403);
    expect(toOther.json()).toMatchObject({ error: { code: 'COOLING_OFF' } });
  });

  it('blocks a payee whose registered name does not match, and says why without naming the account holder', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.registeredNames.set(accountNumber, 'RAVI KUMAR');
    const payee = await addedPayee(customer, { accountNumber });
    expect(payee.payeeCheck).toBe('name_mismatch');
    expect(await validationOf(payee.id)).toMatchObject({ registered_name: 'RAVI KUMAR', name_verdict: 'mismatch' });
    const list = await call(harness.app, { url: '/api/bank-accounts', cookie: customer.cookie });
    expect(list.json()).toMatchObject({ checkedWithBank: true, items: [{ id: payee.id, payeeCheck: 'name_mismatch' }] });
    expect(list.body).not.toContain('RAVI');
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.nameMismatch);
    // The customer is told at once, in the app and by e-mail, what happened and what to do, without the bank's name.
    const told = await blockedNotices(customer);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ title: 'Bank account needs attention', link: '/bank-accounts', email_state: expect.any(String) });
    expect(told[0]?.body).toContain(BANK_ACCOUNT_MESSAGES.nameMismatch);
    expect(told[0]?.body).toContain(`••••${accountNumber.slice(-4)}`);
    expect(JSON.stringify(told)).not.toContain('RAVI');
    const inApp = await call(harness.app, { url: '/api/notifications', cookie: customer.cookie });
    expect(inApp.json<{ items: { kind: string }[] }>().items.map((item) => item.kind)).toContain('withdrawal_payee_blocked');
    // Another customer is told nothing of it.
    const other = await signUpVerifiedUser(harness.app);
    expect(await blockedNotices(other)).toHaveLength(0);
  });

  it('tells a customer whose profile is in Hindi in Hindi (an invalid account); a matching payee tells nothing', async () => {
    const customer = await fundedCustomer();
    await harness.database.handle.db.execute(sql`update profiles set language = 'hi' where user_id = ${customer.id}`);
    const invalidNumber = uniqueAccountNumber();
    standIn.invalidAccounts.add(invalidNumber);
    expect((await addedPayee(customer, { accountNumber: invalidNumber })).payeeCheck).toBe('invalid');
    const told = await blockedNotices(customer);
    expect(told).toHaveLength(1);
    expect(told[0]?.title).toBe('बैंक खाते पर ध्यान दें');
    expect(told[0]?.body).toContain('बैंक के अनुसार यह खाता पैसे प्राप्त नहीं कर सकता।');
    const matching = await fundedCustomer();
    expect((await addedPayee(matching)).payeeCheck).toBe('verified');
    expect(await blockedNotices(matching)).toHaveLength(0);
  });

  it('blocks a partly matching name too (a surname alone): a person decides', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.registeredNames.set(accountNumber, 'RAO');
    const payee = await addedPayee(customer, { accountNumber });
    expect(payee.payeeCheck).toBe('name_mismatch');
    expect(await validationOf(payee.id)).toMatchObject({ name_verdict: 'partial' });
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.nameMismatch);
  });

  it('blocks an invalid account until its owner edits it; an admin cannot accept it', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.invalidAccounts.add(accountNumber);
    const payee = await addedPayee(customer, { accountNumber });
    expect(payee.payeeCheck).toBe('invalid');
    expect(await validationOf(payee.id)).toMatchObject({ status: 'completed', account_status: 'invalid' });
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.invalidAccount);
    const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
    expect(accept.statusCode).toBe(409);
    expect(accept.json()).toMatchObject({ error: { message: PAYEE_ADMIN_MESSAGES.notAcceptable } });
    const review = await call(harness.app, { url: '/api/admin/payees/review', cookie: admin.cookie });
    expect(review.json<{ items: { id: string }[] }>().items.map((item) => item.id)).toContain(payee.id);
  });

  it('completes later by a signed webhook; a forged one is refused and changes nothing; a repeat changes nothing', async () => {
    standIn.validateLater = true;
    const customer = await fundedCustomer();
    const payee = await addedPayee(customer);
    expect(payee.payeeCheck).toBe('checking');
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.checking);
    const validation = standIn.validations.at(-1);
    if (!validation) throw new Error('no validation reached the stand-in');
    expect(await validationOf(payee.id)).toMatchObject({ status: 'created', provider_validation_id: validation.id });

    // Forged: the body says completed, the signature is not ours.
    const forged = standIn.signedValidationWebhook('fund_account.validation.completed', {
      ...validation,
      status: 'completed',
      results: { account_status: 'active', registered_name: 'Asha Rao' },
    });
    const refused = await postValidationWebhook(forged.body, { ...forged.headers, 'x-razorpay-signature': 'f'.repeat(64) });
    expect(refused).toBe(400);
    expect((await payeeRow(payee.id))?.payee_check).toBe('checking');

    expect(await standIn.completeValidation(validation.id)).toBe(200);
    expect((await payeeRow(payee.id))?.payee_check).toBe('verified');
    const again = standIn.signedValidationWebhook('fund_account.validation.completed', validation);
    const repeat = await harness.app.inject({ method: 'POST', url: '/api/webhooks/razorpayx/validations', headers: again.headers, payload: again.body });
    expect(repeat.json()).toEqual({ status: 'unchanged' });
    const withdrawal = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: payee.id });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);
  });

  it('saves the payee (201) when the provider answers garbage, and asks again later; a signed webhook of unexpected shape is a 400', async () => {
    standIn.answerValidationsWith = '<html><body>502 Bad Gateway</body></html>';
    const customer = await fundedCustomer();
    const payee = await addedPayee(customer);
    expect(payee.payeeCheck).toBe('checking');
    const waiting = await harness.database.handle.db.execute<{ status: string; attempts: number; last_error: string | null }>(
      sql`select v.status, v.attempts, v.last_error from payee_validations v join bank_accounts a on a.validation_id = v.id where a.id = ${payee.id}`,
    );
    expect(waiting.rows[0]).toMatchObject({ status: 'queued', attempts: 1 });
    expect(waiting.rows[0]?.last_error).toContain('unexpected shape');
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.checking);

    const odd = standIn.signedValidationWebhook('fund_account.validation.completed', {
      id: 'fav_Unheard0000001',
      entity: 'fund_account.validation',
      status: 'unheard-of',
    } as unknown as StandInValidation);
    expect(await postValidationWebhook(odd.body, odd.headers)).toBe(400);
    expect((await payeeRow(payee.id))?.payee_check).toBe('checking');
  });

  it('finds a result whose webhook was lost by asking the provider (the worker)', async () => {
    standIn.validateLater = true;
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.registeredNames.set(accountNumber, 'SOMEONE ELSE');
    const payee = await addedPayee(customer, { accountNumber });
    standIn.dropWebhooks = true;
    const validation = standIn.validations.at(-1);
    if (!validation) throw new Error('no validation reached the stand-in');
    await standIn.completeValidation(validation.id);
    expect((await payeeRow(payee.id))?.payee_check).toBe('checking');
    await harness.database.handle.db.execute(sql`update payee_validations set next_attempt_at = now() where status = 'created'`);
    const worker = createPayeeValidationWorker({ db: harness.database.handle.db, config: standIn.config, log: pino({ level: 'silent' }) });
    await worker.tick();
    expect((await payeeRow(payee.id))?.payee_check).toBe('name_mismatch');
  });

  it(`allows ${PAYEE_CHECKS_PER_DAY} checks a customer a day, then refuses with 429 and saves nothing`, async () => {
    const customer = await signUpVerifiedUser(harness.app);
    for (let index = 0; index < PAYEE_CHECKS_PER_DAY; index += 1) await addedPayee(customer);
    const sentBefore = standIn.validationRequests.length;
    const { response } = await addPayee(customer);
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: { code: 'RATE_LIMITED', message: BANK_ACCOUNT_MESSAGES.tooManyChecks } });
    expect(standIn.validationRequests.length).toBe(sentBefore);
    const list = await call(harness.app, { url: '/api/bank-accounts', cookie: customer.cookie });
    expect(list.json<{ items: unknown[] }>().items).toHaveLength(PAYEE_CHECKS_PER_DAY);
  });

  it('checks again when the account number, IFSC, holder or UPI id changes (the UPI id is validated too)', async () => {
    const customer = await fundedCustomer();
    const payee = await addedPayee(customer);
    expect(payee.payeeCheck).toBe('verified');
    const sentBefore = standIn.validationRequests.length;
    const upiOnly = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${payee.id}`,
      cookie: customer.cookie,
      body: { upiId: 'asha@okhdfc' },
    });
    expect(upiOnly.statusCode).toBe(200);
    expect(upiOnly.json()).toMatchObject({ bankAccount: { payeeCheck: 'verified' } });
    // The bank account again, then the UPI id.
    expect(standIn.validationRequests.length).toBe(sentBefore + 2);
    expect(standIn.validationRequests.at(-1)).toMatchObject({ fund_account: { account_type: 'vpa', vpa: { address: 'asha@okhdfc' } } });
    const otherNumber = uniqueAccountNumber();
    standIn.registeredNames.set(otherNumber, 'RAVI KUMAR');
    const edited = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${payee.id}`,
      cookie: customer.cookie,
      body: { accountNumber: otherNumber, accountNumberConfirmation: otherNumber },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // The bank's name does not match, so the UPI id is not asked about.
    expect(standIn.validationRequests.length).toBe(sentBefore + 3);
    expect(edited.json()).toMatchObject({ bankAccount: { payeeCheck: 'name_mismatch' } });
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.nameMismatch);
  });

  it('lists the review queue a page at a time, oldest first, each blocked payee once; a bad page is a 400', async () => {
    const customer = await fundedCustomer();
    for (let index = 0; index < 3; index += 1) {
      const accountNumber = uniqueAccountNumber();
      standIn.registeredNames.set(accountNumber, 'RAVI KUMAR');
      await addedPayee(customer, { accountNumber });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page += 1) {
      const url: string = cursor === null ? '/api/admin/payees/review?limit=2' : `/api/admin/payees/review?limit=2&cursor=${cursor}`;
      const answer = await call(harness.app, { url, cookie: admin.cookie });
      expect(answer.statusCode, answer.body).toBe(200);
      const body = answer.json<{ items: { id: string; payeeCheck: string }[]; nextCursor: string | null }>();
      expect(body.items.length).toBeLessThanOrEqual(2);
      for (const item of body.items) expect(['name_mismatch', 'invalid', 'check_failed']).toContain(item.payeeCheck);
      seen.push(...body.items.map((item) => item.id));
      cursor = body.nextCursor;
      if (cursor === null) break;
    }
    expect(cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    const blocked = await harness.database.handle.db.execute<{ id: string }>(
      sql`select id from bank_accounts where payee_check in ('name_mismatch', 'invalid', 'check_failed') order by updated_at, id`,
    );
    expect(seen).toEqual(blocked.rows.map((row) => row.id));
    expect((await call(harness.app, { url: '/api/admin/payees/review?limit=0', cookie: admin.cookie })).statusCode).toBe(400);
    expect((await call(harness.app, { url: '/api/admin/payees/review?limit=101', cookie: admin.cookie })).statusCode).toBe(400);
    const badCursor = await call(harness.app, { url: '/api/admin/payees/review?cursor=not-a-cursor', cookie: admin.cookie });
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json()).toMatchObject({ error: { message: 'Invalid page cursor' } });
    expect((await call(harness.app, { url: '/api/admin/payees/review', cookie: customer.cookie })).statusCode).toBe(403);
  });

  it('lets no other customer read or accept the payee', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.registeredNames.set(accountNumber, 'RAVI KUMAR');
    const payee = await addedPayee(customer, { accountNumber });
    const other = await signUpVerifiedUser(harness.app);
    const theirList = await call(harness.app, { url: '/api/bank-accounts', cookie: other.cookie });
    expect(theirList.body).not.toContain(payee.id);
    const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: other.cookie, body: {} });
    expect(accept.statusCode).toBe(403);
    const read = await call(harness.app, { url: `/api/admin/users/${customer.id}/payees`, cookie: other.cookie });
    expect(read.statusCode).toBe(403);
    const withdrawal = await requestWithdrawal(harness, other, { amount: '10', bankAccountId: payee.id });
    expect(withdrawal.statusCode).toBe(404);
    expect((await payeeRow(payee.id))?.payee_check).toBe('name_mismatch');
  });

  it('an admin sees the registered name on the customer’s page and accepts it (audited); the payee then takes withdrawals', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.registeredNames.set(accountNumber, 'RAVI KUMAR');
    const payee = await addedPayee(customer, { accountNumber });
    const page = await call(harness.app, { url: `/api/admin/users/${customer.id}/payees`, cookie: admin.cookie });
    expect(page.json()).toMatchObject({
      items: [
        { id: payee.id, payeeCheck: 'name_mismatch', validation: { registeredName: 'RAVI KUMAR', vpa: null, nameVerdict: 'mismatch', status: 'completed' } },
      ],
    });
    const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.json()).toMatchObject({ message: PAYEE_ADMIN_MESSAGES.accepted, payee: { payeeCheck: 'accepted' }, pendingChangeId: null });
    expect(await payeeRow(payee.id)).toMatchObject({ payee_check: 'accepted', accepted_by: admin.id });
    const audit = await harness.database.handle.db.execute(
      sql`select 1 from audit_log where action = 'payee.accept' and target_id = ${payee.id} and actor_user_id = ${admin.id}`,
    );
    expect(audit.rows).toHaveLength(1);
    // Accepted is not matched: the usual cooling-off still applies.
    const withdrawal = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: payee.id });
    expect(withdrawal.json()).toMatchObject({ error: { code: 'COOLING_OFF' } });
    await harness.database.handle.db.execute(sql`update bank_accounts set details_changed_at = now() - interval '25 hours' where id = ${payee.id}`);
    const paid = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: payee.id });
    expect(paid.statusCode, paid.body).toBe(201);
  });

  async function rejectAs(user: SignedUpUser, bankAccountId: string, body: unknown = { reason: 'The account is in another person’s name.' }) {
    return call(harness.app, { method: 'POST', url: `/api/admin/payees/${bankAccountId}/reject`, cookie: user.cookie, body });
  }

  async function mismatchedPayee(customer: SignedUpUser): Promise<Payee> {
    const accountNumber = uniqueAccountNumber();
    standIn.registeredNames.set(accountNumber, 'RAVI KUMAR');
    const payee = await addedPayee(customer, { accountNumber });
    expect(payee.payeeCheck).toBe('name_mismatch');
    return payee;
  }

  it('an admin rejects a payee with a reason (audited): it leaves the review, takes no withdrawal, and its owner is told without the reason', async () => {
    const customer = await fundedCustomer();
    const payee = await mismatchedPayee(customer);
    const reason = 'RAVI KUMAR holds this account, not the customer.';
    const rejected = await rejectAs(admin, payee.id, { reason: `  ${reason}  ` });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({
      message: PAYEE_ADMIN_MESSAGES.rejected,
      payee: { id: payee.id, payeeCheck: 'rejected', rejectionReason: reason, rejectedAt: expect.any(String) },
      pendingChangeId: null,
    });
    const row = await harness.database.handle.db.execute<{ payee_check: string; rejected_by: string | null; rejection_reason: string | null }>(
      sql`select payee_check, rejected_by, rejection_reason from bank_accounts where id = ${payee.id}`,
    );
    expect(row.rows[0]).toEqual({ payee_check: 'rejected', rejected_by: admin.id, rejection_reason: reason });
    const audit = await harness.database.handle.db.execute<{ before: unknown; after: unknown; target_user_id: string }>(
      sql`select before, after, target_user_id from audit_log where action = 'payee.reject' and target_id = ${payee.id} and actor_user_id = ${admin.id}`,
    );
    expect(audit.rows).toEqual([
      { before: expect.objectContaining({ payeeCheck: 'name_mismatch' }), after: { payeeCheck: 'rejected', reason }, target_user_id: customer.id },
    ]);
    // Decided: it leaves the admins' queue.
    const review = await call(harness.app, { url: '/api/admin/payees/review?limit=100', cookie: admin.cookie });
    expect(review.json<{ items: { id: string }[] }>().items.map((item) => item.id)).not.toContain(payee.id);
    // The customer sees why on the bank accounts page and is told in the app and by e-mail, never the reason.
    const list = await call(harness.app, { url: '/api/bank-accounts', cookie: customer.cookie });
    expect(list.json()).toMatchObject({ items: [{ id: payee.id, payeeCheck: 'rejected' }] });
    expect(list.body).not.toContain('RAVI');
    const told = await blockedNotices(customer);
    expect(told).toHaveLength(2);
    expect(told.map((notice) => notice.body)).toContainEqual(
      expect.stringContaining(`••••${payee.accountNumber.slice(-4)}: ${BANK_ACCOUNT_MESSAGES.rejected}`),
    );
    expect(JSON.stringify(told)).not.toContain('RAVI');
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.rejected);
    // Even after the cooling-off would have ended.
    await harness.database.handle.db.execute(sql`update bank_accounts set details_changed_at = now() - interval '25 hours' where id = ${payee.id}`);
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.rejected);
    // Decided once: a second reject and an accept are 409 and change nothing.
    const again = await rejectAs(admin, payee.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { message: PAYEE_ADMIN_MESSAGES.notRejectable } });
    const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
    expect(accept.statusCode).toBe(409);
    expect(await payeeRow(payee.id)).toMatchObject({ payee_check: 'rejected', accepted_by: null });
    expect(await blockedNotices(customer)).toHaveLength(2);
  });

  it('tells a customer whose profile is in Hindi of the rejection in Hindi', async () => {
    const customer = await fundedCustomer();
    await harness.database.handle.db.execute(sql`update profiles set language = 'hi' where user_id = ${customer.id}`);
    const payee = await mismatchedPayee(customer);
    expect((await rejectAs(admin, payee.id)).statusCode).toBe(200);
    const told = await blockedNotices(customer);
    expect(told.map((notice) => notice.body)).toContainEqual(expect.stringContaining('हमारी टीम ने इस बैंक खाते की समीक्षा की और इसे स्वीकार नहीं किया'));
  });

  it('refuses a reject by a customer (403), of an unknown payee (404), of a verified or invalid one (409), and without a reason or with a long one (400)', async () => {
    const customer = await fundedCustomer();
    const payee = await mismatchedPayee(customer);
    const other = await signUpVerifiedUser(harness.app);
    expect((await rejectAs(other, payee.id)).statusCode).toBe(403);
    expect((await rejectAs(customer, payee.id)).statusCode).toBe(403);
    expect((await rejectAs(admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }]) {
      const refused = await rejectAs(admin, payee.id, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json()).toMatchObject({ error: { fields: { reason: PAYEE_ADMIN_MESSAGES.rejectReasonNeeded } } });
    }
    expect((await payeeRow(payee.id))?.payee_check).toBe('name_mismatch');
    const verified = await addedPayee(customer);
    expect(verified.payeeCheck).toBe('verified');
    const notDecidable = await rejectAs(admin, verified.id);
    expect(notDecidable.statusCode).toBe(409);
    expect(notDecidable.json()).toMatchObject({ error: { message: PAYEE_ADMIN_MESSAGES.notRejectable } });
    const invalidNumber = uniqueAccountNumber();
    standIn.invalidAccounts.add(invalidNumber);
    const invalid = await addedPayee(customer, { accountNumber: invalidNumber });
    expect((await rejectAs(admin, invalid.id)).statusCode).toBe(409);
    expect((await payeeRow(invalid.id))?.payee_check).toBe('invalid');
    const audit = await harness.database.handle.db.execute(sql`select 1 from audit_log where action = 'payee.reject' and target_user_id = ${customer.id}`);
    expect(audit.rows).toHaveLength(0);
  });

  it('a rejected payee is checked again when its owner edits it (and then takes withdrawals if it matches), or can be deleted', async () => {
    const customer = await fundedCustomer();
    const payee = await mismatchedPayee(customer);
    expect((await rejectAs(admin, payee.id)).statusCode).toBe(200);
    // A new UPI id is checked again (decision 054) with the bank account, whose name still does not match: still blocked.
    const upiOnly = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${payee.id}`,
      cookie: customer.cookie,
      body: { upiId: 'asha@okhdfc' },
    });
    expect(upiOnly.json()).toMatchObject({ bankAccount: { payeeCheck: 'name_mismatch' } });
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.nameMismatch);
    const ownNumber = uniqueAccountNumber();
    const edited = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${payee.id}`,
      cookie: customer.cookie,
      body: { accountNumber: ownNumber, accountNumberConfirmation: ownNumber, upiId: null },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ bankAccount: { payeeCheck: 'verified' } });
    const row = await harness.database.handle.db.execute<{ rejected_at: Date | null; rejected_by: string | null; rejection_reason: string | null }>(
      sql`select rejected_at, rejected_by, rejection_reason from bank_accounts where id = ${payee.id}`,
    );
    expect(row.rows[0]).toEqual({ rejected_at: null, rejected_by: null, rejection_reason: null });
    const withdrawal = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: payee.id });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);

    const another = await mismatchedPayee(customer);
    expect((await rejectAs(admin, another.id)).statusCode).toBe(200);
    const deleted = await call(harness.app, { method: 'DELETE', url: `/api/bank-accounts/${another.id}`, cookie: customer.cookie });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });

  // Last: a second admin turns two-person control on for the rest of the file.
  it('with two admins, an acceptance waits for the second admin', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.registeredNames.set(accountNumber, 'RAVI KUMAR');
    const payee = await addedPayee(customer, { accountNumber });
    const second = await signUpAdminWithVerifiedPin(harness);
    const asked = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
    expect(asked.statusCode, asked.body).toBe(202);
    const changeId = asked.json<{ pendingChangeId: string }>().pendingChangeId;
    expect((await payeeRow(payee.id))?.payee_check).toBe('name_mismatch');
    const own = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: admin.cookie, body: {} });
    expect(own.statusCode).toBe(403);
    const confirmed = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: second.cookie, body: {} });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await payeeRow(payee.id)).toMatchObject({ payee_check: 'accepted', accepted_by: second.id });
  });

  it('with two admins, a rejection waits for the second admin too, and no acceptance may wait beside it', async () => {
    const customer = await fundedCustomer();
    const payee = await mismatchedPayee(customer);
    const second = await signUpAdminWithVerifiedPin(harness);
    const asked = await rejectAs(admin, payee.id);
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toMatchObject({ message: PAYEE_ADMIN_MESSAGES.rejectWaiting, payee: { payeeCheck: 'name_mismatch' } });
    const changeId = asked.json<{ pendingChangeId: string }>().pendingChangeId;
    expect(await blockedNotices(customer)).toHaveLength(1);
    // Still blocked meanwhile.
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.nameMismatch);
    const acceptBeside = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: second.cookie, body: {} });
    expect(acceptBeside.statusCode).toBe(409);
    expect(acceptBeside.json()).toMatchObject({ error: { message: PAYEE_ADMIN_MESSAGES.rejectionWaiting } });
    expect((await rejectAs(second, payee.id)).statusCode).toBe(409);
    const own = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: admin.cookie, body: {} });
    expect(own.statusCode).toBe(403);
    const confirmed = await call(harness.app, { method: 'POST', url: `/api/admin/pending-changes/${changeId}/confirm`, cookie: second.cookie, body: {} });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const row = await harness.database.handle.db.execute<{ payee_check: string; rejected_by: string | null }>(
      sql`select payee_check, rejected_by from bank_accounts where id = ${payee.id}`,
    );
    expect(row.rows[0]).toEqual({ payee_check: 'rejected', rejected_by: second.id });
    expect(await blockedNotices(customer)).toHaveLength(2);
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.rejected);
  });
});
