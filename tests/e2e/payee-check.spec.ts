import { expect, test, type Browser } from '@playwright/test';
import { meResponseSchema } from '#shared/contracts/auth';
import { BANK_ACCOUNT_MESSAGES, PAYEE_ADMIN_MESSAGES } from '#shared/contracts/bank-accounts';
import {
  startRazorpayXStandIn,
  STAND_IN_ACCOUNT_NUMBER,
  STAND_IN_KEY_ID,
  STAND_IN_KEY_SECRET,
  STAND_IN_WEBHOOK_SECRET,
  type RazorpayXStandIn,
} from '../fixtures/razorpayx-stand-in.ts';
import { auditPage, expectNoProblems } from './support/accessibility.ts';
import { addBankAccountThroughForm } from './support/admin-and-customer.ts';
import { E2E_ADMIN_PIN } from './support/admin-api.ts';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_PORT } from './support/constants.ts';
import { startExtraApp, type ExtraApp } from './support/extra-app.ts';
import { logInThroughForm, newCustomer, signUpThroughForm } from './support/helpers.ts';

// Payees checked with the bank (decision 054) need a payout provider, which the shared e2e server has not:
// this spec runs its own app against the RazorpayX stand-in.
const PORT = E2E_PORT + 6;
const PHONE = { width: 390, height: 844 };
let standIn: RazorpayXStandIn;
let app: ExtraApp;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  standIn = await startRazorpayXStandIn();
  app = await startExtraApp({
    port: PORT,
    env: {
      PAYOUT_PROVIDER: 'razorpayx',
      RAZORPAYX_API_URL: standIn.url,
      RAZORPAYX_KEY_ID: STAND_IN_KEY_ID,
      RAZORPAYX_KEY_SECRET: STAND_IN_KEY_SECRET,
      RAZORPAYX_ACCOUNT_NUMBER: STAND_IN_ACCOUNT_NUMBER,
      RAZORPAYX_WEBHOOK_SECRET: STAND_IN_WEBHOOK_SECRET,
    },
  });
});
test.afterAll(async () => {
  await app?.stop();
  await standIn?.close();
});

test.use({ baseURL: `http://localhost:${PORT}`, viewport: PHONE });

/**
 * A customer (their own browser) who added a bank account that the bank holds under another name, so its check
 * blocked it, and the admin signed in (another browser), both on a phone's viewport.
 */
async function customerWithBlockedPayee(browser: Browser, accountNumber: string) {
  const customerContext = await browser.newContext({ baseURL: app.baseUrl, viewport: PHONE });
  const adminContext = await browser.newContext({ baseURL: app.baseUrl, viewport: PHONE });
  const customerPage = await customerContext.newPage();
  const customer = newCustomer();
  await signUpThroughForm(customerPage, customer, { server: app });
  standIn.registeredNames.set(accountNumber, 'RAVI KUMAR');
  await customerPage.goto('/bank-accounts');
  await addBankAccountThroughForm(customerPage, { holder: customer.name, number: accountNumber, bank: 'HDFC Bank', ifsc: 'HDFC0001234' });
  await expect(customerPage.getByRole('list', { name: 'Bank accounts' }).getByTestId('bank-account-check')).toHaveText(BANK_ACCOUNT_MESSAGES.nameMismatch);
  const adminPage = await adminContext.newPage();
  await logInThroughForm(adminPage, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_ADMIN_PIN);
  return {
    customer,
    customerPage,
    adminPage,
    async close() {
      await customerContext.close();
      await adminContext.close();
    },
  };
}

test('a customer sees that the bank’s name for a new account does not match, and an admin accepts it (390x844, axe)', async ({ browser }) => {
  test.setTimeout(300_000);
  const customerContext = await browser.newContext({ baseURL: app.baseUrl, viewport: PHONE });
  const adminContext = await browser.newContext({ baseURL: app.baseUrl, viewport: PHONE });
  try {
    const customerPage = await customerContext.newPage();
    const customer = newCustomer();
    await signUpThroughForm(customerPage, customer, { server: app });
    const accountNumber = '50100234567891';
    standIn.registeredNames.set(accountNumber, 'RAVI KUMAR');

    await customerPage.goto('/bank-accounts');
    await customerPage.getByRole('button', { name: 'Add Account' }).click();
    await expect(customerPage.getByRole('dialog', { name: 'Add Bank Account' }).getByTestId('bank-check-notice')).toContainText('sending ₹1');
    await customerPage.keyboard.press('Escape');
    await addBankAccountThroughForm(customerPage, { holder: customer.name, number: accountNumber, bank: 'HDFC Bank', ifsc: 'HDFC0001234' });
    const note = customerPage.getByRole('list', { name: 'Bank accounts' }).getByTestId('bank-account-check');
    await expect(note).toHaveText(BANK_ACCOUNT_MESSAGES.nameMismatch);
    // The name the bank has is not shown to the customer: the account may be someone else's.
    await expect(customerPage.getByText('RAVI KUMAR')).toHaveCount(0);
    expectNoProblems(await auditPage(customerPage, 'bank accounts with a payee the bank did not confirm'));

    await customerPage.goto('/wallet/withdraw');
    await expect(customerPage.getByRole('option', { name: /not confirmed by the bank/ })).toBeDisabled();

    const customerId = meResponseSchema.parse(await (await customerPage.request.get('/api/me')).json()).id;
    const adminPage = await adminContext.newPage();
    await logInThroughForm(adminPage, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_ADMIN_PIN);
    await adminPage.goto(`/admin/users/${customerId}`);
    await expect(adminPage.getByRole('heading', { name: 'Bank accounts' })).toBeVisible({ timeout: 30_000 });
    const payee = adminPage.getByTestId('admin-payee');
    await expect(payee).toContainText('Name does not match: blocked', { timeout: 30_000 });
    await expect(payee.getByTestId('payee-registered-name')).toHaveText('RAVI KUMAR');
    expectNoProblems(await auditPage(adminPage, 'the admin’s user page with a blocked payee'));
    await payee.getByRole('button', { name: 'Accept this account' }).click();
    await adminPage.getByRole('alertdialog', { name: 'Accept this bank account?' }).getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(adminPage.getByText('Payee accepted: withdrawals to it are allowed.')).toBeVisible();
    await expect(payee).toContainText('Accepted by an admin');

    await customerPage.goto('/bank-accounts');
    await expect(customerPage.getByRole('list', { name: 'Bank accounts' }).getByTestId('bank-account-check')).toHaveText(
      'Accepted by our team after a review.',
    );
    expectNoProblems(await auditPage(customerPage, 'bank accounts with an accepted payee'));
  } finally {
    await customerContext.close();
    await adminContext.close();
  }
});

test('an admin accepts a payee from the payee review, which names its customer, and it leaves the queue', async ({ browser }) => {
  test.setTimeout(300_000);
  const { customer, adminPage, close } = await customerWithBlockedPayee(browser, '50100234567892');
  try {
    await adminPage.goto('/admin/payees');
    const payee = adminPage.getByRole('list', { name: 'Bank accounts to review' }).getByRole('listitem').filter({ hasText: customer.email });
    await expect(payee).toContainText('Name does not match: blocked', { timeout: 30_000 });
    await expect(payee.getByTestId('payee-registered-name')).toHaveText('RAVI KUMAR');
    await payee.getByRole('button', { name: 'Accept this account' }).click();
    const confirmation = adminPage.getByRole('alertdialog', { name: 'Accept this bank account?' });
    await expect(confirmation).toContainText(`Withdrawals of ${customer.name} to HDFC Bank ••••7892`);
    await confirmation.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect(adminPage.getByText('Payee accepted: withdrawals to it are allowed.')).toBeVisible();
    await expect(payee).toHaveCount(0);
  } finally {
    await close();
  }
});

test('an admin rejects a payee from the payee review with a reason; it leaves the queue and its customer cannot withdraw to it', async ({ browser }) => {
  test.setTimeout(300_000);
  const { customer, customerPage, adminPage, close } = await customerWithBlockedPayee(browser, '50100234567893');
  try {
    await adminPage.goto('/admin/payees');
    const payee = adminPage.getByRole('list', { name: 'Bank accounts to review' }).getByRole('listitem').filter({ hasText: customer.email });
    await expect(payee).toContainText('Name does not match: blocked', { timeout: 30_000 });
    expectNoProblems(await auditPage(adminPage, 'the payee review with its accept and reject buttons'));
    await payee.getByRole('button', { name: 'Reject this account' }).click();
    const confirmation = adminPage.getByRole('alertdialog', { name: 'Reject this bank account?' });
    await expect(confirmation).toContainText('HDFC Bank ••••7893');
    // The reason is required, and said at the field.
    await confirmation.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect(confirmation.getByText(PAYEE_ADMIN_MESSAGES.rejectReasonNeeded)).toBeVisible();
    await confirmation.getByLabel('Reason').fill('The bank holds this account in another person’s name.');
    await confirmation.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect(adminPage.getByText(PAYEE_ADMIN_MESSAGES.rejected)).toBeVisible();
    await expect(confirmation).toHaveCount(0);
    await expect(payee).toHaveCount(0);

    await customerPage.goto('/bank-accounts');
    await expect(customerPage.getByRole('list', { name: 'Bank accounts' }).getByTestId('bank-account-check')).toHaveText(BANK_ACCOUNT_MESSAGES.rejected);
    await expect(customerPage.getByText('another person')).toHaveCount(0);
    expectNoProblems(await auditPage(customerPage, 'bank accounts with a rejected payee'));
    await customerPage.goto('/wallet/withdraw');
    await expect(customerPage.getByRole('option', { name: /not confirmed by the bank/ })).toBeDisabled();
  } finally {
    await close();
  }
});

test('an admin rejects a payee from its customer’s user page with a reason; it stays listed there, rejected', async ({ browser }) => {
  test.setTimeout(300_000);
  const { customerPage, adminPage, close } = await customerWithBlockedPayee(browser, '50100234567894');
  try {
    const customerId = meResponseSchema.parse(await (await customerPage.request.get('/api/me')).json()).id;
    await adminPage.goto(`/admin/users/${customerId}`);
    const payee = adminPage.getByTestId('admin-payee');
    await expect(payee).toContainText('Name does not match: blocked', { timeout: 30_000 });
    await payee.getByRole('button', { name: 'Reject this account' }).click();
    const confirmation = adminPage.getByRole('alertdialog', { name: 'Reject this bank account?' });
    await expect(confirmation).toContainText('HDFC Bank ••••7894');
    await confirmation.getByLabel('Reason').fill('The bank holds this account in another person’s name.');
    await confirmation.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect(adminPage.getByText(PAYEE_ADMIN_MESSAGES.rejected)).toBeVisible();
    await expect(payee).toContainText('Rejected by an admin: blocked until edited');
    await expect(payee).toContainText('The bank holds this account in another person’s name.');
    await expect(payee.getByRole('button', { name: 'Reject this account' })).toHaveCount(0);

    await customerPage.goto('/bank-accounts');
    await expect(customerPage.getByRole('list', { name: 'Bank accounts' }).getByTestId('bank-account-check')).toHaveText(BANK_ACCOUNT_MESSAGES.rejected);
  } finally {
    await close();
  }
});
