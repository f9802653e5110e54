import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BANK_ACCOUNT_MESSAGES, PAYEE_ADMIN_MESSAGES } from '#shared/contracts/bank-accounts';
import { payeeCheckConfig } from '../../src/server/env.ts';
import { createPayeeValidationWorker } from '../../src/server/features/bank-accounts/validation-worker.ts';
import { startCashfreePayoutsStandIn, type CashfreePayoutsStandIn } from '../fixtures/cashfree-payouts-stand-in.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import { call, signUpVerifiedUser, type SignedUpUser } from '../fixtures/test-app.ts';
import { balanceMicros, fundWallet, ledgerTransferCount, requestWithdrawal } from '../fixtures/wallet.ts';

/*
 * PAYOUT_PROVIDER=cashfree with the Verification API's credentials (KYC_*): a new or edited payee is checked by
 * Cashfree's Bank Account Verification V2 (decision 062), against the Cashfree stand-in written from its docs, and
 * the answer goes through the same payee rules as RazorpayX's penny drop (decision 054): a matching name lifts the
 * cooling-off, a name that does not match waits for an admin, an invalid account is refused, and no answer leaves the
 * payee being checked until the worker asks again.
 */

let standIn: CashfreePayoutsStandIn;
beforeAll(async () => {
  standIn = await startCashfreePayoutsStandIn();
});
afterAll(async () => standIn.close());

// The cooling-off is on, so that a withdrawal going through shows that the match lifted it.
const { harness, admin } = useIntegrationFile({
  app: () => ({ payoutProvider: standIn.config, kycProvider: 'none', kyc: standIn.verificationConfig, coolingOffHours: 24 }),
});

beforeEach(() => {
  standIn.cutVerifications = false;
  standIn.dropNextUpiAnswer = false;
});

function uniqueAccountNumber(): string {
  return `${randomInt(100_000, 999_999)}${randomInt(100_000, 999_999)}`;
}

async function fundedCustomer(): Promise<SignedUpUser> {
  const customer = await signUpVerifiedUser(harness.app);
  await fundWallet(harness, admin, customer, '100');
  return customer;
}

async function addedPayee(customer: SignedUpUser, accountNumber: string, upiId: string | null = null): Promise<{ id: string; payeeCheck: string }> {
  const response = await call(harness.app, {
    method: 'POST',
    url: '/api/bank-accounts',
    cookie: customer.cookie,
    body: { accountHolderName: 'Asha Rao', accountNumber, accountNumberConfirmation: accountNumber, ifscCode: 'SBIN0001234', upiId },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ bankAccount: { id: string; payeeCheck: string } }>().bankAccount;
}

async function payeeCheckOf(id: string): Promise<string | undefined> {
  const result = await harness.database.handle.db.execute<{ payee_check: string }>(sql`select payee_check from bank_accounts where id = ${id}`);
  return result.rows[0]?.payee_check;
}

async function validationOf(bankAccountId: string) {
  const result = await harness.database.handle.db.execute<{
    status: string;
    account_status: string | null;
    registered_name: string | null;
    name_verdict: string | null;
    provider_validation_id: string | null;
    attempts: number;
    last_error: string | null;
  }>(
    sql`select v.status, v.account_status, v.registered_name, v.name_verdict, v.provider_validation_id, v.attempts, v.last_error
        from payee_validations v join bank_accounts a on a.validation_id = v.id where a.id = ${bankAccountId}`,
  );
  return result.rows[0];
}

async function expectWithdrawalRefused(customer: SignedUpUser, bankAccountId: string, message: string): Promise<void> {
  const balanceBefore = await balanceMicros(harness, customer.id);
  const transfersBefore = await ledgerTransferCount(harness);
  const response = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId });
  expect(response.statusCode, response.body).toBe(409);
  expect(response.json()).toMatchObject({ error: { message } });
  expect(await balanceMicros(harness, customer.id)).toBe(balanceBefore);
  expect(await ledgerTransferCount(harness)).toBe(transfersBefore);
}

describe('a payee checked by Cashfree’s bank account verification', () => {
  it('sends the documented request on the Verification API’s credentials; a matching name lifts the cooling-off', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.bankAccountNames.set(accountNumber, 'MS RAO ASHA');
    const payee = await addedPayee(customer, accountNumber);
    expect(payee.payeeCheck).toBe('verified');
    expect(standIn.verificationRequests.at(-1)).toEqual({ bank_account: accountNumber, ifsc: 'SBIN0001234', name: 'Asha Rao' });
    expect(await validationOf(payee.id)).toMatchObject({
      status: 'completed',
      account_status: 'active',
      registered_name: 'MS RAO ASHA',
      name_verdict: 'match',
      provider_validation_id: expect.stringMatching(/^\d+$/),
    });
    // No transfer was made for it: the check is not a payout.
    expect(standIn.transfers).toHaveLength(0);
    const withdrawal = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: payee.id });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);
  });

  it('blocks a payee whose name at the bank does not match until an admin accepts it; an edit checks it again', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.bankAccountNames.set(accountNumber, 'RAVI KUMAR');
    const payee = await addedPayee(customer, accountNumber);
    expect(payee.payeeCheck).toBe('name_mismatch');
    expect(await validationOf(payee.id)).toMatchObject({ registered_name: 'RAVI KUMAR', name_verdict: 'mismatch' });
    const list = await call(harness.app, { url: '/api/bank-accounts', cookie: customer.cookie });
    expect(list.json()).toMatchObject({ checkedWithBank: true, items: [{ id: payee.id, payeeCheck: 'name_mismatch' }] });
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.nameMismatch);
    const review = await call(harness.app, { url: '/api/admin/payees/review', cookie: admin.cookie });
    expect(review.json<{ items: { id: string }[] }>().items.map((item) => item.id)).toContain(payee.id);

    // The owner fixes the account number: Cashfree is asked again, and the new account's name matches.
    const fixedNumber = uniqueAccountNumber();
    const edited = await call(harness.app, {
      method: 'PATCH',
      url: `/api/bank-accounts/${payee.id}`,
      cookie: customer.cookie,
      body: { accountNumber: fixedNumber, accountNumberConfirmation: fixedNumber },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(standIn.verificationRequests.at(-1)).toMatchObject({ bank_account: fixedNumber });
    expect(await payeeCheckOf(payee.id)).toBe('verified');
  });

  it('lets an admin accept a mismatching payee, as with RazorpayX', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.bankAccountNames.set(accountNumber, 'RAVI KUMAR');
    const payee = await addedPayee(customer, accountNumber);
    expect(payee.payeeCheck).toBe('name_mismatch');
    const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(await payeeCheckOf(payee.id)).toBe('accepted');
  });

  it('refuses an invalid account: withdrawals to it are refused and an admin cannot accept it', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    standIn.invalidBankAccounts.add(accountNumber);
    const payee = await addedPayee(customer, accountNumber);
    expect(payee.payeeCheck).toBe('invalid');
    expect(await validationOf(payee.id)).toMatchObject({ status: 'completed', account_status: 'invalid', registered_name: null });
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.invalidAccount);
    const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
    expect(accept.statusCode).toBe(409);
    expect(accept.json()).toMatchObject({ error: { message: PAYEE_ADMIN_MESSAGES.notAcceptable } });
  });

  it('saves the payee (201) while Cashfree is unreachable, keeps it being checked, and the worker finishes the check later', async () => {
    standIn.cutVerifications = true;
    const customer = await fundedCustomer();
    const payee = await addedPayee(customer, uniqueAccountNumber());
    expect(payee.payeeCheck).toBe('checking');
    expect(await validationOf(payee.id)).toMatchObject({ status: 'queued', attempts: 1, provider_validation_id: null });
    expect((await validationOf(payee.id))?.last_error).toContain('Cashfree unreachable');
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.checking);

    standIn.cutVerifications = false;
    await harness.database.handle.db.execute(sql`update payee_validations set next_attempt_at = now() where status = 'queued'`);
    const config = payeeCheckConfig({ payoutProvider: standIn.config, kyc: standIn.verificationConfig });
    if (!config) throw new Error('no payee check for Cashfree with the Verification API');
    const worker = createPayeeValidationWorker({ db: harness.database.handle.db, config, log: pino({ level: 'silent' }) });
    await worker.tick();
    expect(await payeeCheckOf(payee.id)).toBe('verified');
  });
});

describe('a payee’s UPI id checked by Cashfree’s UPI verification, after its bank account (decision 068)', () => {
  function uniqueUpiId(): string {
    return `asha.${randomInt(100_000, 999_999)}@okaxis`;
  }

  /** The payee's validations, oldest first: the bank account's and then its UPI id's. */
  async function validationsOf(bankAccountId: string) {
    const result = await harness.database.handle.db.execute<{
      id: string;
      vpa: string | null;
      status: string;
      account_status: string | null;
      registered_name: string | null;
      name_verdict: string | null;
      failure_reason: string | null;
    }>(
      sql`select id, vpa, status, account_status, registered_name, name_verdict, failure_reason from payee_validations
          where bank_account_id = ${bankAccountId} order by created_at, vpa nulls first`,
    );
    return result.rows;
  }

  async function editUpiId(customer: SignedUpUser, bankAccountId: string, upiId: string | null) {
    const response = await call(harness.app, { method: 'PATCH', url: `/api/bank-accounts/${bankAccountId}`, cookie: customer.cookie, body: { upiId } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ bankAccount: { payeeCheck: string } }>().bankAccount;
  }

  it('verifies a payee whose UPI id is VALID in a matching name: the documented request is sent and the cooling-off is lifted', async () => {
    const customer = await fundedCustomer();
    const upiId = uniqueUpiId();
    standIn.upiNames.set(upiId, 'ASHA RAO');
    const payee = await addedPayee(customer, uniqueAccountNumber(), upiId);
    expect(payee.payeeCheck).toBe('verified');
    const validations = await validationsOf(payee.id);
    expect(validations).toMatchObject([
      { vpa: null, status: 'completed', account_status: 'active', name_verdict: 'match' },
      { vpa: upiId, status: 'completed', account_status: 'active', registered_name: 'ASHA RAO', name_verdict: 'match' },
    ]);
    // Our validation's id is Cashfree's verification_id, so a resend cannot make a second verification.
    expect(standIn.upiVerificationRequests.at(-1)).toEqual({ verification_id: validations[1]?.id, vpa: upiId, name: 'Asha Rao' });
    const withdrawal = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId: payee.id });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);
  });

  it('blocks a payee whose UPI id is registered in another name until an admin accepts it; admins see the UPI id checked', async () => {
    const customer = await fundedCustomer();
    const upiId = uniqueUpiId();
    standIn.upiNames.set(upiId, 'SOMEONE ELSE');
    const payee = await addedPayee(customer, uniqueAccountNumber(), upiId);
    expect(payee.payeeCheck).toBe('name_mismatch');
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.nameMismatch);
    const payees = await call(harness.app, { url: `/api/admin/users/${customer.id}/payees`, cookie: admin.cookie });
    expect(payees.json()).toMatchObject({
      items: [{ id: payee.id, payeeCheck: 'name_mismatch', validation: { vpa: upiId, registeredName: 'SOMEONE ELSE', nameVerdict: 'mismatch' } }],
    });
    const review = await call(harness.app, { url: '/api/admin/payees/review', cookie: admin.cookie });
    expect(review.json<{ items: { id: string }[] }>().items.map((item) => item.id)).toContain(payee.id);
    const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(await payeeCheckOf(payee.id)).toBe('accepted');
  });

  it('refuses a UPI id that does not exist or has expired, as an invalid account: an admin cannot accept it', async () => {
    const customer = await fundedCustomer();
    for (const status of ['INVALID', 'EXPIRED'] as const) {
      const upiId = uniqueUpiId();
      standIn.upiStatuses.set(upiId, status);
      const payee = await addedPayee(customer, uniqueAccountNumber(), upiId);
      expect(payee.payeeCheck).toBe('invalid');
      expect((await validationsOf(payee.id)).at(-1)).toMatchObject({ vpa: upiId, account_status: 'invalid', failure_reason: `UPI id ${status}` });
      await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.invalidAccount);
      const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
      expect(accept.statusCode).toBe(409);
    }
  });

  it('leaves a UPI id whose name the UPI network gave wrong (NPCI_NAME_INCORRECT) to a person: check failed, acceptable by an admin', async () => {
    const customer = await fundedCustomer();
    const upiId = uniqueUpiId();
    standIn.upiStatuses.set(upiId, 'NPCI_NAME_INCORRECT');
    const payee = await addedPayee(customer, uniqueAccountNumber(), upiId);
    expect(payee.payeeCheck).toBe('check_failed');
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.checkFailed);
    const accept = await call(harness.app, { method: 'POST', url: `/api/admin/payees/${payee.id}/accept`, cookie: admin.cookie, body: {} });
    expect(accept.statusCode, accept.body).toBe(200);
  });

  it('checks the payee again when its UPI id is added, changed or removed; a bank account that does not match ends the check there', async () => {
    const customer = await fundedCustomer();
    const accountNumber = uniqueAccountNumber();
    const payee = await addedPayee(customer, accountNumber);
    expect(payee.payeeCheck).toBe('verified');
    const bankRequestsBefore = standIn.verificationRequests.length;
    const upiRequestsBefore = standIn.upiVerificationRequests.length;

    const added = uniqueUpiId();
    standIn.upiNames.set(added, 'RAVI KUMAR');
    expect(await editUpiId(customer, payee.id, added)).toMatchObject({ payeeCheck: 'name_mismatch' });
    expect(standIn.verificationRequests.length).toBe(bankRequestsBefore + 1);
    expect(standIn.upiVerificationRequests.length).toBe(upiRequestsBefore + 1);
    expect(standIn.upiVerificationRequests.at(-1)).toMatchObject({ vpa: added });

    const changed = uniqueUpiId();
    expect(await editUpiId(customer, payee.id, changed)).toMatchObject({ payeeCheck: 'verified' });
    expect(standIn.upiVerificationRequests.at(-1)).toMatchObject({ vpa: changed });

    expect(await editUpiId(customer, payee.id, null)).toMatchObject({ payeeCheck: 'verified' });
    // The bank account again, and no UPI id to ask about.
    expect(standIn.verificationRequests.length).toBe(bankRequestsBefore + 3);
    expect(standIn.upiVerificationRequests.length).toBe(upiRequestsBefore + 2);

    // A bank account in another name: its UPI id is not asked about.
    standIn.bankAccountNames.set(accountNumber, 'RAVI KUMAR');
    expect(await editUpiId(customer, payee.id, uniqueUpiId())).toMatchObject({ payeeCheck: 'name_mismatch' });
    expect(standIn.upiVerificationRequests.length).toBe(upiRequestsBefore + 2);
  });

  it('after a lost answer, the worker sends the same verification_id again and reads the first verification (one verification)', async () => {
    const customer = await fundedCustomer();
    const upiId = uniqueUpiId();
    standIn.dropNextUpiAnswer = true;
    const payee = await addedPayee(customer, uniqueAccountNumber(), upiId);
    expect(payee.payeeCheck).toBe('checking');
    await expectWithdrawalRefused(customer, payee.id, BANK_ACCOUNT_MESSAGES.checking);
    expect((await validationsOf(payee.id)).at(-1)).toMatchObject({ vpa: upiId, status: 'queued' });

    await harness.database.handle.db.execute(sql`update payee_validations set next_attempt_at = now() where status = 'queued'`);
    const config = payeeCheckConfig({ payoutProvider: standIn.config, kyc: standIn.verificationConfig });
    if (!config) throw new Error('no payee check for Cashfree with the Verification API');
    const worker = createPayeeValidationWorker({ db: harness.database.handle.db, config, log: pino({ level: 'silent' }) });
    await worker.tick();
    expect(await payeeCheckOf(payee.id)).toBe('verified');
    const sent = standIn.upiVerificationRequests.filter((body) => body.vpa === upiId);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.verification_id).toBe(sent[0]?.verification_id);
    expect(standIn.upiVerifications.filter((verification) => verification.vpa === upiId)).toHaveLength(1);
  });
});
