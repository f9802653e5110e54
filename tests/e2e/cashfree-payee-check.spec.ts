import { expect, test } from '@playwright/test';
import { meResponseSchema } from '#shared/contracts/auth';
import { BANK_ACCOUNT_MESSAGES } from '#shared/contracts/bank-accounts';
import {
  CASHFREE_STAND_IN_CLIENT_ID,
  CASHFREE_STAND_IN_CLIENT_SECRET,
  CASHFREE_STAND_IN_VERIFICATION_CLIENT_ID,
  CASHFREE_STAND_IN_VERIFICATION_CLIENT_SECRET,
  startCashfreePayoutsStandIn,
  type CashfreePayoutsStandIn,
} from '../fixtures/cashfree-payouts-stand-in.ts';
import { auditPage, expectNoProblems } from './support/accessibility.ts';
import { addBankAccountThroughForm } from './support/admin-and-customer.ts';
import { E2E_ADMIN_PIN } from './support/admin-api.ts';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_PORT } from './support/constants.ts';
import { startExtraApp, type ExtraApp } from './support/extra-app.ts';
import { logInThroughForm, newCustomer, signUpThroughForm } from './support/helpers.ts';

// Payees checked by Cashfree (decisions 062, 068): this spec runs its own app with PAYOUT_PROVIDER=cashfree and the
// Verification API's key (KYC_*) on the Cashfree stand-in, which checks the bank account and then the UPI id. That key
// is also the PAN check's, which this stand-in does not answer, so its customers stay below KYC level 1: adding a
// payee does not need it, and the name rule then compares with the name the customer signed up with.
const PORT = E2E_PORT + 9;
const PHONE = { width: 390, height: 844 };
let standIn: CashfreePayoutsStandIn;
let app: ExtraApp;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  standIn = await startCashfreePayoutsStandIn();
  app = await startExtraApp({
    port: PORT,
    env: {
      PAYOUT_PROVIDER: 'cashfree',
      CASHFREE_PAYOUTS_API_URL: standIn.url,
      CASHFREE_PAYOUTS_CLIENT_ID: CASHFREE_STAND_IN_CLIENT_ID,
      CASHFREE_PAYOUTS_CLIENT_SECRET: CASHFREE_STAND_IN_CLIENT_SECRET,
      KYC_PROVIDER: 'cashfree',
      KYC_API_URL: standIn.url,
      KYC_CLIENT_ID: CASHFREE_STAND_IN_VERIFICATION_CLIENT_ID,
      KYC_CLIENT_SECRET: CASHFREE_STAND_IN_VERIFICATION_CLIENT_SECRET,
      // The cooling-off is on, so that no pause shows that the match lifted it.
      SECURITY_COOLING_OFF_HOURS: '24',
    },
  });
});
test.afterAll(async () => {
  await app?.stop();
  await standIn?.close();
});

test.use({ baseURL: `http://localhost:${PORT}`, viewport: PHONE });

test('a payee whose bank account and UPI id Cashfree finds in the customer’s name is confirmed at once, with no pause (390x844, axe)', async ({ page }) => {
  test.setTimeout(300_000);
  const customer = newCustomer({ name: 'Asha Rao' });
  await signUpThroughForm(page, customer, { server: app, kycLevelOne: false });
  const upiId = 'asha.rao@okaxis';
  standIn.upiNames.set(upiId, 'RAO ASHA');

  await page.goto('/bank-accounts');
  await page.getByRole('button', { name: 'Add Account' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Bank Account' }).getByTestId('bank-check-notice')).toContainText('sending ₹1');
  await page.keyboard.press('Escape');
  await addBankAccountThroughForm(page, { holder: customer.name, number: '50100234567811', bank: 'HDFC Bank', ifsc: 'HDFC0001234', upi: upiId });
  await expect(page.getByRole('list', { name: 'Bank accounts' }).getByTestId('bank-account-check')).toHaveText(
    'Checked with your bank: the account is in your name.',
  );
  expect(standIn.upiVerificationRequests.at(-1)).toMatchObject({ vpa: upiId, name: 'Asha Rao' });
  // A payee whose names match has no cooling-off, although it has a UPI id (issue 31 §4).
  const pauses = await page.request.get('/api/security/pauses');
  expect(await pauses.json()).toMatchObject({ bankAccounts: [] });
  expectNoProblems(await auditPage(page, 'bank accounts with a payee confirmed by Cashfree'));
});

test('a payee whose UPI id Cashfree finds in another name is blocked for the customer, and an admin sees that name and accepts it', async ({ browser }) => {
  test.setTimeout(300_000);
  const customerContext = await browser.newContext({ baseURL: app.baseUrl, viewport: PHONE });
  const adminContext = await browser.newContext({ baseURL: app.baseUrl, viewport: PHONE });
  try {
    const customerPage = await customerContext.newPage();
    const customer = newCustomer();
    await signUpThroughForm(customerPage, customer, { server: app, kycLevelOne: false });
    const upiId = 'meera.iyer@okicici';
    standIn.upiNames.set(upiId, 'RAVI KUMAR');

    await customerPage.goto('/bank-accounts');
    await addBankAccountThroughForm(customerPage, { holder: customer.name, number: '50100234567812', bank: 'HDFC Bank', ifsc: 'HDFC0001234', upi: upiId });
    const note = customerPage.getByRole('list', { name: 'Bank accounts' }).getByTestId('bank-account-check');
    await expect(note).toHaveText(BANK_ACCOUNT_MESSAGES.nameMismatch);
    // The name the UPI network has is not shown to the customer: the UPI id may be someone else's.
    await expect(customerPage.getByText('RAVI KUMAR')).toHaveCount(0);
    expectNoProblems(await auditPage(customerPage, 'bank accounts with a payee whose UPI id Cashfree did not confirm'));

    const customerId = meResponseSchema.parse(await (await customerPage.request.get('/api/me')).json()).id;
    const adminPage = await adminContext.newPage();
    await logInThroughForm(adminPage, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_ADMIN_PIN);
    await adminPage.goto(`/admin/users/${customerId}`);
    const payee = adminPage.getByTestId('admin-payee');
    await expect(payee).toContainText('Name does not match: blocked', { timeout: 30_000 });
    await expect(payee).toContainText(`Name for the UPI id ${upiId}`);
    await expect(payee.getByTestId('payee-registered-name')).toHaveText('RAVI KUMAR');
    expectNoProblems(await auditPage(adminPage, 'the admin’s user page with a payee whose UPI id is in another name'));
    await payee.getByRole('button', { name: 'Accept this account' }).click();
    await adminPage.getByRole('alertdialog', { name: 'Accept this bank account?' }).getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(adminPage.getByText('Payee accepted: withdrawals to it are allowed.')).toBeVisible();
    await expect(payee).toContainText('Accepted by an admin');

    await customerPage.goto('/bank-accounts');
    await expect(note).toHaveText('Accepted by our team after a review.');
  } finally {
    await customerContext.close();
    await adminContext.close();
  }
});
