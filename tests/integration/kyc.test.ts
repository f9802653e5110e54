import { sql } from 'drizzle-orm';
import jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kycGateMessage, PAN_MESSAGES } from '#shared/contracts/kyc';
import { CONSENT_REQUIRED_MESSAGE } from '#shared/contracts/operator-identity';
import { sharedCashfreeStandIn, uniquePersonPan, type CashfreeStandIn } from '../fixtures/cashfree-stand-in.ts';
import { signUpAdminWithVerifiedPin, uploadFile } from '../fixtures/admin.ts';
import { useIntegrationFile } from '../fixtures/integration-file.ts';
import {
  acceptConsentNotice,
  call,
  createTestApp,
  reachKycLevelOne,
  signUpPinVerifiedUser,
  signUpUser,
  signUpVerifiedUser,
  type SignedUpUser,
  type TestApp,
} from '../fixtures/test-app.ts';
import {
  addBankAccount,
  balanceMicros,
  configureDepositAddresses,
  expectLedgerConsistent,
  expectStatus,
  fundWallet,
  ledgerTransferCount,
  requestTransfer,
  requestWithdrawal,
  signUpFundedCustomer,
  withKycDailyLimits,
} from '../fixtures/wallet.ts';

const { harness, admin } = useIntegrationFile();
let cashfree: CashfreeStandIn;

beforeAll(async () => {
  cashfree = await sharedCashfreeStandIn();
});

async function kycOf(user: SignedUpUser) {
  const response = await call(harness.app, { url: '/api/kyc', cookie: user.cookie });
  expectStatus(response, 200);
  return response.json();
}

function submitPan(user: SignedUpUser, pan: unknown, app = harness.app) {
  return call(app, { method: 'POST', url: '/api/kyc/pan', cookie: user.cookie, body: { pan } });
}

async function storedPan(userId: string, on: TestApp = harness): Promise<{ pan: string | null; status: string | null }> {
  const result = await on.database.handle.db.execute<{ pan: string | null; status: string | null }>(
    sql`select p.pan, k.pan_status as status from profiles p left join kyc_records k on k.user_id = p.user_id where p.user_id = ${userId}`,
  );
  return result.rows[0] ?? { pan: null, status: null };
}

async function withdrawalCount(userId: string): Promise<number> {
  const result = await harness.database.handle.db.execute<{ count: number }>(
    sql`select count(*)::int as count from withdrawal_requests where user_id = ${userId}`,
  );
  return result.rows[0]?.count ?? 0;
}

async function contactsVerified(user: SignedUpUser): Promise<void> {
  await harness.database.handle.db.execute(sql`update users set email_verified_at = now() where id = ${user.id}`);
  await harness.database.handle.db.execute(sql`update profiles set phone_verified_at = now() where user_id = ${user.id}`);
}

function addPanCardPhoto(on: TestApp, user: SignedUpUser) {
  const data = Buffer.alloc(640 * 400 * 4, 180);
  const bytes = Buffer.from(jpeg.encode({ data, width: 640, height: 400 }, 80).data);
  return uploadFile(on.app, '/api/kyc/pan/card-image', { cookie: user.cookie, bytes, contentType: 'image/jpeg', fileName: 'pan-card.jpg' });
}

async function declareIndia(user: SignedUpUser, app = harness.app): Promise<void> {
  expectStatus(await call(app, { method: 'POST', url: '/api/kyc/tax-residence', cookie: user.cookie, body: { residence: 'india', confirmed: true } }), 200);
}

describe('the money gate below level 1', () => {
  it('credits a level 0 customer’s deposit but lets none of it leave: withdrawal and transfer refused, nothing moved', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    const recipient = await signUpVerifiedUser(harness.app);
    await fundWallet(harness, admin, customer, '50');
    expect(await balanceMicros(harness, customer.id)).toBe(50_000_000n);
    const bankAccountId = await addBankAccount(harness, customer);
    const kyc = await kycOf(customer);
    expect(kyc.level).toBe(0);
    expect(kyc.missing.map((item: { check: string }) => item.check)).toEqual(['email', 'mobile', 'pan', 'taxResidence']);
    expect(kyc.moneyBlockedMessage).toContain('Deposits to your account are credited to your balance');
    const before = await ledgerTransferCount(harness);

    const withdrawal = await requestWithdrawal(harness, customer, { amount: '20', bankAccountId });
    expect(withdrawal.statusCode).toBe(403);
    expect(withdrawal.json().error).toEqual({
      code: 'KYC_LEVEL_REQUIRED',
      message: kycGateMessage('withdrawals', ['email', 'mobile', 'pan', 'taxResidence']),
    });
    expect(withdrawal.json().error.message).toBe(
      'Withdrawals need KYC level 1. Still missing: verify your e-mail address; verify your mobile number; get your PAN verified in your name; declare your tax residence. Open the KYC page to finish.',
    );
    const transfer = await requestTransfer(harness, customer, { recipientEmail: recipient.email, amount: '20' });
    expect(transfer.statusCode).toBe(403);
    expect(transfer.json().error.code).toBe('KYC_LEVEL_REQUIRED');
    expect(transfer.json().error.message).toMatch(/^Transfers to other customers need KYC level 1\./);

    expect(await balanceMicros(harness, customer.id)).toBe(50_000_000n);
    expect(await ledgerTransferCount(harness)).toBe(before);
    expect(await withdrawalCount(customer.id)).toBe(0);
    await expectLedgerConsistent(harness);

    // At level 1 the same balance can be spent.
    await reachKycLevelOne(harness.app, customer);
    expect((await kycOf(customer)).level).toBe(1);
    expectStatus(await requestWithdrawal(harness, customer, { amount: '20', bankAccountId }), 201);
    expect(await balanceMicros(harness, customer.id)).toBe(30_000_000n);
  });

  it('names only what is still missing', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    await fundWallet(harness, admin, customer, '10');
    await contactsVerified(customer);
    await declareIndia(customer);
    const bankAccountId = await addBankAccount(harness, customer);
    const refused = await requestWithdrawal(harness, customer, { amount: '5', bankAccountId });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(kycGateMessage('withdrawals', ['pan']));
    expect(await balanceMicros(harness, customer.id)).toBe(10_000_000n);
  });

  it('closes again when the customer’s name changes away from the verified PAN’s', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '10');
    const bankAccountId = await addBankAccount(harness, customer);
    expectStatus(
      await call(harness.app, { method: 'PATCH', url: '/api/me', cookie: customer.cookie, body: { fullName: 'Priya Singh', phone: '+919876543210' } }),
      200,
    );
    const kyc = await kycOf(customer);
    expect(kyc.level).toBe(0);
    expect(kyc.checks.pan.state).toBe('rejected');
    const refused = await requestWithdrawal(harness, customer, { amount: '5', bankAccountId });
    expect(refused.json().error.message).toBe(kycGateMessage('withdrawals', ['pan']));
    // Written differently, the same name still matches.
    expectStatus(
      await call(harness.app, { method: 'PATCH', url: '/api/me', cookie: customer.cookie, body: { fullName: 'RAO ASHA', phone: '+919876543210' } }),
      200,
    );
    expect((await kycOf(customer)).level).toBe(1);
  });

  it('applies the level 1 INR limits from the settings within the tier’s, refusing beyond them with nothing moved', async () => {
    const customer = await signUpFundedCustomer(harness, admin, '100');
    const bankAccountId = await addBankAccount(harness, customer);
    await withKycDailyLimits(harness, { levelOneInrPaise: 500000 }, async () => {
      expect((await kycOf(customer)).levelLimits).toEqual({ dailyInr: '5000.00', monthlyInr: null });
      // 50 USDT at the default rate of 83.00 is 4,150 INR: within 5,000.
      expectStatus(await requestWithdrawal(harness, customer, { amount: '50', bankAccountId }), 201);
      const before = await ledgerTransferCount(harness);
      const refused = await requestWithdrawal(harness, customer, { amount: '20', bankAccountId });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({
        code: 'WITHDRAWAL_LIMIT',
        message: 'Your KYC level allows ₹5,000.00 of withdrawals a day: ₹850.00 left today.',
      });
      expect(await ledgerTransferCount(harness)).toBe(before);
      expect(await balanceMicros(harness, customer.id)).toBe(50_000_000n);
    });
  });
});

describe('GET /api/kyc', () => {
  it('answers each customer their own record only, and nobody signed out', async () => {
    const first = await signUpVerifiedUser(harness.app);
    const second = await signUpPinVerifiedUser(harness.app);
    const firstPan = (await storedPan(first.id)).pan;
    expect((await kycOf(first)).checks.pan.pan).toBe(`XXXXX${firstPan?.slice(5)}`);
    expect((await kycOf(second)).checks.pan).toMatchObject({ state: 'missing', pan: null });
    expect((await call(harness.app, { url: '/api/kyc' })).statusCode).toBe(401);
    expect((await call(harness.app, { url: `/api/kyc?userId=${first.id}`, cookie: second.cookie })).json().checks.pan.pan).toBeNull();
  });

  it('reports level 2’s checks as missing until they are sent, never as passed (decision 050)', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const kyc = await kycOf(customer);
    expect(kyc).toMatchObject({ level: 1, nextLevel: 2, levelTwo: { status: 'none' } });
    expect(kyc.checks.secondDocument.state).toBe('missing');
    expect(kyc.checks.selfie.state).toBe('missing');
    expect(kyc.checks.address.state).toBe('missing');
    expect(kyc.missing.map((item: { check: string }) => item.check)).toEqual(['secondDocument', 'selfie', 'address']);
  });

  it('refuses a bad tax residence declaration with a field message and records nothing', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    for (const body of [{ residence: 'mars', confirmed: true }, { residence: 'india' }, { residence: 'other', confirmed: true }]) {
      const response = await call(harness.app, { method: 'POST', url: '/api/kyc/tax-residence', cookie: customer.cookie, body });
      expect(response.statusCode).toBe(400);
    }
    const missingCountry = await call(harness.app, {
      method: 'POST',
      url: '/api/kyc/tax-residence',
      cookie: customer.cookie,
      body: { residence: 'other', confirmed: true },
    });
    expect(missingCountry.json().error.fields).toEqual({ otherCountry: 'Enter the other country where you are resident for tax.' });
    expect((await kycOf(customer)).checks.taxResidence.state).toBe('missing');
    const declared = await call(harness.app, {
      method: 'POST',
      url: '/api/kyc/tax-residence',
      cookie: customer.cookie,
      body: { residence: 'other', otherCountry: 'Singapore', confirmed: true },
    });
    expectStatus(declared, 200);
    expect(declared.json().kyc.checks.taxResidence).toMatchObject({ state: 'verified', residence: 'other', otherCountry: 'Singapore' });
    const stored = await harness.database.handle.db.execute<{ ip: string | null; at: Date | null }>(
      sql`select tax_residence_ip as ip, tax_residence_declared_at as at from kyc_records where user_id = ${customer.id}`,
    );
    expect(stored.rows[0]?.ip).toBeTruthy();
    expect(stored.rows[0]?.at).toBeTruthy();
  });
});

describe('PAN rules', () => {
  it.each([
    ['ﬀﬀA1234F', PAN_MESSAGES.notPlain],
    ['ＡＢＣＰＥ１２３４Ｆ', PAN_MESSAGES.notPlain],
    ['ABCPÉ1234F', PAN_MESSAGES.notPlain],
    ['ABCDE1234F', PAN_MESSAGES.notPerson],
    ['ABCCE1234F', PAN_MESSAGES.notPerson],
    ['ABCP1234F', PAN_MESSAGES.invalid],
    ['ABCPE12345', PAN_MESSAGES.invalid],
    ['', PAN_MESSAGES.invalid],
    [1234, PAN_MESSAGES.invalid],
    ['A'.repeat(30), PAN_MESSAGES.invalid],
  ])('refuses %j with a field message and changes nothing', async (pan, message) => {
    const customer = await signUpPinVerifiedUser(harness.app);
    const response = await submitPan(customer, pan);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ pan: message });
    expect(await storedPan(customer.id)).toEqual({ pan: null, status: null });
  });

  it('upper-cases plain ASCII letters and takes out spaces, nothing else', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    const pan = uniquePersonPan();
    cashfree.register(pan, { registeredName: 'ASHA RAO' });
    const response = await submitPan(customer, `${pan.slice(0, 5).toLowerCase()} ${pan.slice(5)}`);
    expectStatus(response, 200);
    expect(await storedPan(customer.id)).toEqual({ pan, status: 'verified' });
  });

  it('refuses a PAN another account holds, keeps both accounts as they were, and lists the attempt for admins', async () => {
    const holder = await signUpVerifiedUser(harness.app);
    const heldPan = (await storedPan(holder.id)).pan as string;
    const other = await signUpPinVerifiedUser(harness.app, { fullName: 'Ravi Kumar' });
    const response = await submitPan(other, heldPan);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({ code: 'PAN_TAKEN', message: PAN_MESSAGES.taken, fields: { pan: PAN_MESSAGES.taken } });
    expect(await storedPan(other.id)).toEqual({ pan: null, status: null });
    expect(await storedPan(holder.id)).toEqual({ pan: heldPan, status: 'verified' });

    const list = await call(harness.app, { url: '/api/admin/kyc/pan-conflicts?limit=100', cookie: admin.cookie });
    expectStatus(list, 200);
    const entry = list.json().items.find((item: { user: { id: string } }) => item.user.id === other.id);
    expect(entry).toMatchObject({ pan: heldPan, source: 'submission', user: { id: other.id, name: 'Ravi Kumar' }, existingUser: { id: holder.id } });
    // Customers cannot read the list.
    expect((await call(harness.app, { url: '/api/admin/kyc/pan-conflicts', cookie: other.cookie })).statusCode).toBe(403);
  });

  it('lets only one of two accounts submitting the same new PAN at once have it', async () => {
    const pan = uniquePersonPan();
    cashfree.register(pan, { registeredName: 'ASHA RAO' });
    const customers = await Promise.all([signUpPinVerifiedUser(harness.app), signUpPinVerifiedUser(harness.app)]);
    const answers = await Promise.all(customers.map((customer) => submitPan(customer, pan)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const holders = await harness.database.handle.db.execute<{ count: number }>(sql`select count(*)::int as count from profiles where pan = ${pan}`);
    expect(holders.rows[0]?.count).toBe(1);
  });

  it('does not replace a verified PAN', async () => {
    const customer = await signUpVerifiedUser(harness.app);
    const before = await storedPan(customer.id);
    const response = await submitPan(customer, uniquePersonPan());
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(PAN_MESSAGES.verifiedAlready);
    expect(await storedPan(customer.id)).toEqual(before);
  });

  it('goes through the same rules by PUT /api/me/pan', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    const refused = await call(harness.app, { method: 'PUT', url: '/api/me/pan', cookie: customer.cookie, body: { pan: 'ﬀﬀA1234F' } });
    expect(refused.statusCode).toBe(400);
    expect(await storedPan(customer.id)).toEqual({ pan: null, status: null });
  });
});

describe('PAN verification through Cashfree (stand-in)', () => {
  it('verifies a valid PAN whose registered name matches the customer’s, sending the client id and secret', async () => {
    const customer = await signUpPinVerifiedUser(harness.app, { fullName: 'Mr. Anil Kumar Sharma' });
    const pan = uniquePersonPan();
    cashfree.register(pan, { registeredName: 'SHARMA ANIL KUMAR' });
    const response = await submitPan(customer, pan);
    expectStatus(response, 200);
    expect(response.json()).toMatchObject({ message: PAN_MESSAGES.verified, kyc: { checks: { pan: { state: 'verified', aadhaarLinked: true } } } });
    expect(cashfree.requests.at(-1)).toEqual({ pan, name: 'Mr. Anil Kumar Sharma' });
  });

  it('rejects a PAN the Income Tax Department does not know', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    const response = await submitPan(customer, uniquePersonPan());
    expectStatus(response, 200);
    expect(response.json()).toMatchObject({
      message: PAN_MESSAGES.rejectedInvalid,
      kyc: { level: 0, checks: { pan: { state: 'rejected', rejectionReason: PAN_MESSAGES.rejectedInvalid } } },
    });
  });

  it('rejects a PAN registered to another name', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    const pan = uniquePersonPan();
    cashfree.register(pan, { registeredName: 'PRIYA SINGH' });
    const response = await submitPan(customer, pan);
    expect(response.json()).toMatchObject({ message: PAN_MESSAGES.rejectedName, kyc: { checks: { pan: { state: 'rejected' } } } });
    expect((await storedPan(customer.id)).status).toBe('rejected');
  });

  it('leaves a partial name match to an admin, who sees both scores and verifies it', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    const pan = uniquePersonPan();
    cashfree.register(pan, { registeredName: 'ASHA LATA RAO' });
    const response = await submitPan(customer, pan);
    expect(response.json()).toMatchObject({ message: PAN_MESSAGES.pendingReview, kyc: { checks: { pan: { state: 'pending' } } } });
    const list = await call(harness.app, { url: '/api/admin/kyc/pan-reviews?limit=100', cookie: admin.cookie });
    const review = list.json().items.find((item: { userId: string }) => item.userId === customer.id);
    expect(review).toMatchObject({
      pan,
      registeredName: 'ASHA LATA RAO',
      providerNameScore: 40,
      nameMatch: { score: 67, verdict: 'partial' },
      otherAccountsWithPan: 0,
    });
    const verified = await call(harness.app, {
      method: 'POST',
      url: `/api/admin/kyc/pan-reviews/${customer.id}/approve`,
      cookie: admin.cookie,
      body: { registeredName: 'ASHA LATA RAO' },
    });
    expectStatus(verified, 200);
    await contactsVerified(customer);
    await declareIndia(customer);
    expect((await kycOf(customer)).level).toBe(1);
  });

  it('records an inoperative PAN (not linked to Aadhaar), and TDS then takes the no-PAN rate of 20 %', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    await fundWallet(harness, admin, customer, '100');
    await contactsVerified(customer);
    await declareIndia(customer);
    const pan = uniquePersonPan();
    cashfree.register(pan, { registeredName: 'ASHA RAO', aadhaarSeeding: 'N' });
    const response = await submitPan(customer, pan);
    expect(response.json().kyc).toMatchObject({ level: 1, checks: { pan: { state: 'verified', aadhaarLinked: false } } });
    const bankAccountId = await addBankAccount(harness, customer);
    await harness.database.handle.db.execute(sql`update admin_settings set tds_basis_points = 100 where id = 1`);
    try {
      const withdrawal = await requestWithdrawal(harness, customer, { amount: '10', bankAccountId });
      expectStatus(withdrawal, 201);
      const stored = await harness.database.handle.db.execute<{ basisPoints: number; tds: string; gross: string }>(
        sql`select tds_basis_points as "basisPoints", tds_inr_paise::text as tds, amount_inr_paise::text as gross from withdrawal_requests where user_id = ${customer.id}`,
      );
      // 10 USDT at 83.00 = 830.00 INR; 20 % of it is 166.00.
      expect(stored.rows[0]).toEqual({ basisPoints: 2000, tds: '16600', gross: '83000' });
    } finally {
      await harness.database.handle.db.execute(sql`update admin_settings set tds_basis_points = 0 where id = 1`);
    }
  });

  it('keeps the PAN waiting for an admin when the provider cannot answer', async () => {
    const customer = await signUpPinVerifiedUser(harness.app);
    const pan = uniquePersonPan();
    cashfree.register(pan, { registeredName: 'ASHA RAO' });
    cashfree.failWith(500);
    try {
      const response = await submitPan(customer, pan);
      expect(response.json()).toMatchObject({ message: PAN_MESSAGES.providerUnavailable, kyc: { checks: { pan: { state: 'pending' } } } });
    } finally {
      cashfree.failWith(undefined);
    }
  });
});

describe('PAN review by an admin when no provider is configured', () => {
  let reviewApp: TestApp;
  let reviewer: SignedUpUser;

  beforeAll(async () => {
    reviewApp = await createTestApp({ kycProvider: 'none' });
    await configureDepositAddresses(reviewApp);
    reviewer = await signUpAdminWithVerifiedPin(reviewApp);
  });
  afterAll(async () => reviewApp.close());

  it('waits for an admin, who verifies it with the name on the card', async () => {
    const customer = await signUpPinVerifiedUser(reviewApp.app);
    const pan = uniquePersonPan();
    const response = await submitPan(customer, pan, reviewApp.app);
    expect(response.json()).toMatchObject({ message: PAN_MESSAGES.pendingReview, kyc: { checks: { pan: { state: 'pending' } } } });
    expect(cashfree.requests.some((request) => request.pan === pan)).toBe(false);

    const emptyName = await call(reviewApp.app, {
      method: 'POST',
      url: `/api/admin/kyc/pan-reviews/${customer.id}/approve`,
      cookie: reviewer.cookie,
      body: { registeredName: ' ' },
    });
    expect(emptyName.statusCode).toBe(400);
    expect(emptyName.json().error.fields).toEqual({ registeredName: PAN_MESSAGES.reviewNameNeeded });
    expect((await storedPan(customer.id, reviewApp)).status).toBe('pending_review');
    const byCustomer = await call(reviewApp.app, {
      method: 'POST',
      url: `/api/admin/kyc/pan-reviews/${customer.id}/approve`,
      cookie: customer.cookie,
      body: { registeredName: 'ASHA RAO' },
    });
    expect(byCustomer.statusCode).toBe(403);
    // The admin reads the name from the card's photo, which the customer adds (decision 066; refusals in kyc-pan-card.test.ts).
    expectStatus(await addPanCardPhoto(reviewApp, customer), 200);

    const verified = await call(reviewApp.app, {
      method: 'POST',
      url: `/api/admin/kyc/pan-reviews/${customer.id}/approve`,
      cookie: reviewer.cookie,
      body: { registeredName: 'ASHA RAO' },
    });
    expectStatus(verified, 200);
    expect(verified.json().review).toMatchObject({ status: 'verified', nameMatch: { score: 100, verdict: 'match' } });
    expect((await storedPan(customer.id, reviewApp)).status).toBe('verified');
    const again = await call(reviewApp.app, {
      method: 'POST',
      url: `/api/admin/kyc/pan-reviews/${customer.id}/reject`,
      cookie: reviewer.cookie,
      body: { reason: 'Blurred' },
    });
    expect(again.statusCode).toBe(409);
  });

  it('rejects with a reason the customer sees, who can then enter it again', async () => {
    const customer = await signUpPinVerifiedUser(reviewApp.app);
    expectStatus(await submitPan(customer, uniquePersonPan(), reviewApp.app), 200);
    const noReason = await call(reviewApp.app, { method: 'POST', url: `/api/admin/kyc/pan-reviews/${customer.id}/reject`, cookie: reviewer.cookie, body: {} });
    expect(noReason.statusCode).toBe(400);
    expectStatus(
      await call(reviewApp.app, {
        method: 'POST',
        url: `/api/admin/kyc/pan-reviews/${customer.id}/reject`,
        cookie: reviewer.cookie,
        body: { reason: 'The PAN card image is of someone else.' },
      }),
      200,
    );
    const kyc = (await call(reviewApp.app, { url: '/api/kyc', cookie: customer.cookie })).json();
    expect(kyc.checks.pan).toMatchObject({ state: 'rejected', rejectionReason: 'The PAN card image is of someone else.' });
    const notification = await reviewApp.database.handle.db.execute<{ kind: string }>(sql`select kind from notifications where user_id = ${customer.id}`);
    expect(notification.rows).toEqual([{ kind: 'kyc_updated' }]);
    expectStatus(await submitPan(customer, uniquePersonPan(), reviewApp.app), 200);
    expect((await storedPan(customer.id, reviewApp)).status).toBe('pending_review');
  });

  it('does not let an admin review their own PAN', async () => {
    const other = await signUpAdminWithVerifiedPin(reviewApp);
    const own = await call(reviewApp.app, {
      method: 'POST',
      url: `/api/admin/kyc/pan-reviews/${other.id}/approve`,
      cookie: other.cookie,
      body: { registeredName: 'ADMIN PERSON' },
    });
    expect(own.statusCode).toBe(403);
  });

  it('makes fixture customers level 1 there too', async () => {
    const customer = await signUpVerifiedUser(reviewApp.app);
    expect((await call(reviewApp.app, { url: '/api/kyc', cookie: customer.cookie })).json().level).toBe(1);
  });
});

describe('the consent and privacy notice before KYC (decision 051)', () => {
  it('refuses the PAN and the tax residence with 409 until the notice is accepted, and stores nothing', async () => {
    const customer = await signUpUser(harness.app);
    expectStatus(await call(harness.app, { method: 'POST', url: '/api/pin/verify', body: { pin: customer.pin }, cookie: customer.cookie }), 200);
    await contactsVerified(customer);
    const refusedPan = await submitPan(customer, uniquePersonPan());
    expectStatus(refusedPan, 409);
    expect(refusedPan.json().error.message).toBe(CONSENT_REQUIRED_MESSAGE);
    const refusedResidence = await call(harness.app, {
      method: 'POST',
      url: '/api/kyc/tax-residence',
      cookie: customer.cookie,
      body: { residence: 'india', confirmed: true },
    });
    expectStatus(refusedResidence, 409);
    expect(await storedPan(customer.id)).toEqual({ pan: null, status: null });
    expect((await kycOf(customer)).level).toBe(0);

    await acceptConsentNotice(harness.app, customer);
    const pan = uniquePersonPan();
    cashfree.register(pan, { registeredName: 'ASHA RAO' });
    expectStatus(await submitPan(customer, pan), 200);
    expect(await storedPan(customer.id)).toEqual({ pan, status: 'verified' });
  });
});

describe('signUpUser', () => {
  it('stays at level 0', async () => {
    const customer = await signUpUser(harness.app);
    const row = await storedPan(customer.id);
    expect(row).toEqual({ pan: null, status: null });
  });
});
