import { expect, test } from '@playwright/test';
import { startTestMailServer, waitForResetLink, type TestMailServer } from '../fixtures/mail-server.ts';
import { addBankAccountThroughForm } from './support/admin-and-customer.ts';
import { E2E_PORT } from './support/constants.ts';
import { startExtraApp, type ExtraApp } from './support/extra-app.ts';
import { logInThroughForm, newCustomer, signOutFromHeader, signUpThroughForm } from './support/helpers.ts';

// The shared e2e server turns the cooling-off off (its tests withdraw to accounts added a minute
// before), so these tests run their own app with the production default of 24 hours.
let mail: TestMailServer;
let app: ExtraApp;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  mail = await startTestMailServer();
  app = await startExtraApp({ port: E2E_PORT + 1, env: { SMTP_URL: mail.smtpUrl, SECURITY_COOLING_OFF_HOURS: '24' } });
});
test.afterAll(async () => {
  await app?.stop();
  await mail?.close();
});

test.use({ baseURL: `http://localhost:${E2E_PORT + 1}` });

const PAUSE_END = String.raw`\d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2} (am|pm)`;

test('after a password reset, the withdraw page and the transfer dialog say until when money cannot leave, before anything is typed', async ({ page }) => {
  const customer = newCustomer();
  await signUpThroughForm(page, customer, { server: app });
  await signOutFromHeader(page);

  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(customer.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Check Your Email')).toBeVisible();
  await page.goto(await waitForResetLink(mail, customer.email, 15_000));
  await page.getByLabel('New Password', { exact: true }).fill('a-new-password');
  await page.getByLabel('Confirm New Password').fill('a-new-password');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await logInThroughForm(page, customer.email, 'a-new-password', customer.pin);

  await page.goto('/wallet/withdraw');
  await expect(page.getByTestId('withdrawal-pause')).toHaveText(
    new RegExp(`^Withdrawals are paused until ${PAUSE_END} because your password was changed recently\\.$`),
  );
  await expect(page.getByRole('button', { name: 'Request Withdrawal' })).toBeDisabled();

  await page.goto('/wallet');
  await page.getByRole('button', { name: 'Transfer USDT' }).click();
  const dialog = page.getByRole('dialog', { name: 'Transfer USDT' });
  await expect(dialog.getByTestId('transfer-pause')).toHaveText(
    new RegExp(`^Transfers are paused until ${PAUSE_END} because your password was changed recently\\.$`),
  );
  await expect(dialog.getByRole('button', { name: 'Send Transfer' })).toBeDisabled();
});

test('the landing page’s How It Works says before sign-up that withdrawals to a new bank account pause, with the server’s hours', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('new-account-pause-note')).toHaveText(
    'Withdrawals to a new bank account pause for 24 hours after you add it, to protect you if someone else gets into your account.',
  );
});

test('a bank account added today is marked paused where it is added and on the withdraw page, with the time withdrawals to it open', async ({ page }) => {
  await signUpThroughForm(page, newCustomer(), { server: app });
  await page.goto('/wallet/withdraw');
  await expect(page.getByTestId('withdrawal-pause')).toHaveCount(0);

  await page.goto('/bank-accounts');
  // Said before anything is saved, with the server's setting.
  await page.getByRole('button', { name: 'Add Account' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Bank Account' }).getByTestId('new-account-pause')).toHaveText(
    'Withdrawals to a new bank account are paused for 24 hours after you add it, to protect you if someone else gets into your account.',
  );
  await page.keyboard.press('Escape');
  await addBankAccountThroughForm(page, { holder: 'Meera Iyer', number: '987654321', bank: 'HDFC Bank', ifsc: 'HDFC0001234' });
  // Said at once beside the new account, not first when the customer tries to withdraw.
  await expect(page.getByRole('list', { name: 'Bank accounts' }).getByTestId('bank-account-list-pause')).toHaveText(
    new RegExp(`^Withdrawals to this bank account are paused until ${PAUSE_END} because it was added or its details changed recently\\.$`),
  );

  await page.goto('/wallet/withdraw');
  const accountChoice = page.getByLabel('Bank Account', { exact: true });
  await expect(accountChoice.locator('option', { hasText: 'HDFC Bank ••••4321 (Meera Iyer) (paused)' })).toHaveCount(1);
  await accountChoice.selectOption({ label: 'HDFC Bank ••••4321 (Meera Iyer) (paused)' });
  await expect(page.getByTestId('bank-account-pause')).toHaveText(
    new RegExp(`^Withdrawals to this bank account are paused until ${PAUSE_END} because it was added or its details changed recently\\.$`),
  );
  await expect(page.getByRole('button', { name: 'Request Withdrawal' })).toBeDisabled();
});
