import { expect, test, type Page } from '@playwright/test';
import { DEPOSIT_MESSAGES } from '#shared/contracts/deposits';
import { TRANSFER_MESSAGES } from '#shared/contracts/transfers';
import { E2E_TRC20_ADDRESS, submitDepositAs, uniqueTrc20Hash } from './support/admin-api.ts';
import { newCustomer, signOutFromHeader, signUpThroughForm } from './support/helpers.ts';
import { expectNoSidewaysScroll, PHONE_WIDTHS } from './support/layout.ts';
import { useFileAdmin } from './support/file-admin.ts';

const admin = useFileAdmin();

/** Everything sonner shows: a failure must never be among them. */
const toasts = (page: Page) => page.locator('[data-sonner-toast]');

for (const width of PHONE_WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    test.slow();

    test('a failed login is said once on the form, and the password is cleared', async ({ page }) => {
      const customer = newCustomer();
      await signUpThroughForm(page, customer);
      await signOutFromHeader(page);
      await expect(page).toHaveTitle('Welcome Back · Rupeedesk');
      await expect(page.getByLabel('Email')).toBeFocused();
      await page.getByLabel('Email').fill(customer.email);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'Sign In' }).click();
      const form = page.locator('form');
      await expect(form.getByText('Login failed. Please check your credentials.')).toHaveCount(1);
      await expect(page.getByText('Login failed', { exact: false })).toHaveCount(1);
      await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
      await expect(toasts(page).filter({ hasText: 'Login failed' })).toHaveCount(0);
      // Typing again clears the message.
      await page.getByLabel('Password', { exact: true }).fill('x');
      await expect(page.getByText('Login failed. Please check your credentials.')).toHaveCount(0);
      // The password can be shown and hidden.
      await page.getByRole('button', { name: 'Show characters' }).click();
      await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
      await page.getByRole('button', { name: 'Hide characters' }).click();
      await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'password');
    });

    test('a duplicate deposit hash is said once, at its field, and cleared when the field is edited; success toasts sit at the bottom', async ({ page }) => {
      await signUpThroughForm(page, newCustomer());
      const hash = uniqueTrc20Hash();
      await submitDepositAs(page, '25', hash);
      await page.goto('/wallet/deposit');
      await page.getByLabel('Amount (USDT)').fill('25');
      await page.getByLabel('Transaction Hash').fill(hash);
      await page.getByRole('button', { name: 'Submit Deposit' }).click();
      await expect(page.getByText(DEPOSIT_MESSAGES.duplicateHash)).toHaveCount(1);
      await expect(page.getByRole('alert').filter({ hasText: DEPOSIT_MESSAGES.duplicateHash })).toHaveCount(0);
      await expect(toasts(page)).toHaveCount(0);
      await page.getByLabel('Transaction Hash').fill(uniqueTrc20Hash());
      await expect(page.getByText(DEPOSIT_MESSAGES.duplicateHash)).toHaveCount(0);

      await page.getByRole('button', { name: 'Submit Deposit' }).click();
      const success = toasts(page).filter({ hasText: DEPOSIT_MESSAGES.submitted });
      await expect(success).toBeVisible();
      const box = await success.boundingBox();
      expect(box!.y).toBeGreaterThan(800 / 2);
    });

    test('the transfer dialog: an unknown recipient is said once at the e-mail and keeps the PIN; a wrong PIN clears it; amounts take 2 decimals', async ({
      page,
    }) => {
      const customer = newCustomer();
      await signUpThroughForm(page, customer);
      const deposit = await submitDepositAs(page, '50');
      await admin().approveDeposit(deposit.id);
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Transfer', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Transfer USDT' });
      await expect(dialog.getByLabel('Recipient Email')).toBeFocused();
      await dialog.getByLabel('Recipient Email').fill('nobody-at-all@example.com');
      // A pasted "1,000.50" keeps its digits and point; more than 2 decimals is refused at the field.
      await dialog.getByLabel('Amount (USDT)').fill('1,000.50');
      await expect(dialog.getByLabel('Amount (USDT)')).toHaveValue('1000.50');
      await dialog.getByLabel('Amount (USDT)').fill('10.555');
      await dialog.getByLabel('Transaction PIN').fill(customer.pin);
      await dialog.getByRole('button', { name: 'Send Transfer' }).click();
      await expect(dialog.getByText('Amount can have at most 2 decimal places.')).toHaveCount(1);

      await dialog.getByLabel('Amount (USDT)').fill('10.55');
      await expect(dialog.getByText('Amount can have at most 2 decimal places.')).toHaveCount(0);
      await dialog.getByRole('button', { name: 'Send Transfer' }).click();
      await expect(page.getByText(TRANSFER_MESSAGES.unknownRecipient)).toHaveCount(1);
      await expect(toasts(page)).toHaveCount(0);
      await expect(dialog.getByLabel('Transaction PIN')).toHaveValue(customer.pin);
      await dialog.getByLabel('Recipient Email').fill('someone-else@example.com');
      await expect(page.getByText(TRANSFER_MESSAGES.unknownRecipient)).toHaveCount(0);

      const recipient = newCustomer();
      const recipientPage = await page.context().browser()!.newPage();
      await signUpThroughForm(recipientPage, recipient);
      await recipientPage.close();
      await dialog.getByLabel('Recipient Email').fill(recipient.email);
      await dialog.getByLabel('Transaction PIN').fill(customer.pin === '0000' ? '1111' : '0000');
      await dialog.getByRole('button', { name: 'Send Transfer' }).click();
      await expect(dialog.getByText(TRANSFER_MESSAGES.incorrectPin)).toHaveCount(1);
      await expect(dialog.getByLabel('Transaction PIN')).toHaveValue('');
      await expect(toasts(page)).toHaveCount(0);
      await dialog.getByLabel('Transaction PIN').fill(customer.pin);
      await dialog.getByRole('button', { name: 'Send Transfer' }).click();
      await expect(toasts(page).filter({ hasText: TRANSFER_MESSAGES.submitted })).toBeVisible();
      await expect(page.getByTestId('balance-chip')).toHaveText('39.45 USDT');
      // Focus goes back to the button that opened the dialog.
      await expect(page.getByRole('button', { name: 'Transfer', exact: true })).toBeFocused();
    });

    test('a balance that is not whole cents is shown with every digit, and Max says what stays behind', async ({ page }) => {
      await signUpThroughForm(page, newCustomer());
      const deposit = await submitDepositAs(page, '10.555');
      await admin().approveDeposit(deposit.id);
      await page.goto('/dashboard');
      await expect(page.getByTestId('balance-chip')).toHaveText('10.555 USDT');
      await expect(page.getByRole('main').getByTestId('home-balance')).toHaveText('10.555 USDT');
      await page.goto('/wallet');
      await expect(page.getByTestId('wallet-balance')).toHaveText('10.555 USDT');
      await page.goto('/wallet/withdraw');
      await expect(page.getByTestId('available-balance')).toHaveText('10.555 USDT');
      await page.getByRole('button', { name: 'Max' }).click();
      await expect(page.getByLabel('Amount (USDT)')).toHaveValue('10.55');
      await expect(page.getByText('0.005 USDT of your balance stays in your wallet')).toBeVisible();
      await page.getByLabel('Amount (USDT)').fill('abc1,2.3.4');
      await expect(page.getByLabel('Amount (USDT)')).toHaveValue('12.34');
    });

    test('the deposit address is shown whole with its ends emphasised, a network warning, copy, QR, and a Paste button for the hash', async ({ page }) => {
      await signUpThroughForm(page, newCustomer());
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto('/wallet/deposit');
      const address = page.getByTestId('deposit-address');
      await expect(address).toHaveText(E2E_TRC20_ADDRESS);
      await expect(address.locator('strong')).toHaveText([E2E_TRC20_ADDRESS.slice(0, 6), E2E_TRC20_ADDRESS.slice(-6)]);
      const fontFamily = await address.evaluate((element) => getComputedStyle(element).fontFamily);
      expect(fontFamily).toMatch(/mono/i);
      // Whole: the text is not cut off inside its box.
      expect(await address.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      await expect(page.getByRole('note')).toContainText('Send only USDT on the Tron (TRC20) network to this address.');
      await expect(page.getByRole('note')).toContainText('is lost');
      await expectNoSidewaysScroll(page);

      await page.getByRole('button', { name: 'Copy address' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(E2E_TRC20_ADDRESS);
      const hash = uniqueTrc20Hash();
      await page.evaluate((text) => navigator.clipboard.writeText(text), `  ${hash}\n`);
      await page.getByRole('button', { name: 'Paste' }).click();
      await expect(page.getByLabel('Transaction Hash')).toHaveValue(hash);
      await page.getByRole('tab', { name: 'QR Code' }).click();
      await expect(page.getByRole('img', { name: 'QR code of the TRC20 deposit address' })).toBeVisible();
    });
  });
}
