import { expect as baseExpect, test, type Page } from '@playwright/test';
import { OFFLINE_ACTION_REASON } from '../../src/web/lib/connection-status.ts';
import { addBankAccountAs, submitDepositAs } from './support/admin-api.ts';
import { useFileAdmin } from './support/file-admin.ts';
import { newCustomer, signUpThroughForm, type NewCustomer } from './support/helpers.ts';

// Pages load slowly on a machine shared with other test runs; no assertion here measures speed.
const expect = baseExpect.configure({ timeout: 30_000 });

/*
 * A phone's network drops: no page may end on a white screen, money actions are refused (never
 * queued) while offline and say why, and everything comes back by itself with the network.
 * The service worker is blocked here, so that Playwright sees (and can abort) every request.
 */

const admin = useFileAdmin();

test.use({ serviceWorkers: 'block' });

/** A customer with 50 USDT and a bank account, on the withdraw page with 20 USDT to that account filled in. */
async function withdrawFormFilledIn(page: Page, name: string, accountNumber: string): Promise<NewCustomer> {
  const customer = newCustomer({ name });
  await signUpThroughForm(page, customer);
  const deposit = await submitDepositAs(page, '50');
  await admin().approveDeposit(deposit.id);
  await addBankAccountAs(page, { accountHolderName: name, accountNumber, bankName: 'State Bank of India', ifscCode: 'SBIN0001234' });
  await page.goto('/wallet/withdraw');
  await expect(page.getByTestId('available-balance')).toHaveText('50.00 USDT');
  await page.getByLabel('Amount (USDT)').fill('20');
  await page.getByLabel('Bank Account', { exact: true }).selectOption({ label: `State Bank of India ••••${accountNumber.slice(-4)} (${name})` });
  return customer;
}

test.describe('a dropped connection', () => {
  // Sign-up, a deposit approved by the admin, and pages loaded several times on a busy machine.
  test.slow();

  test('a page whose file fails to load shows Something went wrong, and Try again loads it', async ({ page }) => {
    await signUpThroughForm(page, newCustomer({ name: 'Boundary Test' }));
    await page.route(/\/assets\/withdraw-page-[^/]+\.js$/, (route) => route.abort('internetdisconnected'));
    await page.getByRole('main').getByRole('link', { name: 'Withdraw INR' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
    await expect(failure).toBeVisible();
    await expect(page.locator('#root')).not.toBeEmpty();

    await page.unroute(/\/assets\/withdraw-page-[^/]+\.js$/);
    await failure.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('button', { name: 'Request Withdrawal' })).toBeVisible();
    await expect(page).toHaveURL(/\/wallet\/withdraw$/);
  });

  test('offline in the middle of a withdrawal: the banner, the disabled button with its reason, no white screen on another page, and recovery', async ({
    page,
    context,
  }) => {
    await withdrawFormFilledIn(page, 'Offline Withdrawer', '123456789012');
    const requestButton = page.getByRole('button', { name: 'Request Withdrawal' });
    await expect(requestButton).toBeEnabled();

    // The network drops while the form is filled in.
    await context.setOffline(true);
    const banner = page.getByTestId('offline-banner');
    await expect(banner).toContainText('You are offline.');
    await expect(requestButton).toBeDisabled();
    await expect(page.getByTestId('offline-action-reason')).toHaveText(OFFLINE_ACTION_REASON);
    // Another page while offline: never a white screen.
    await page.getByRole('link', { name: 'Manage Bank Accounts' }).click();
    await expect(page.locator('#root')).not.toBeEmpty();
    await expect(banner).toBeVisible();

    await context.setOffline(false);
    await expect(banner).toHaveCount(0);
    await page.goto('/wallet/withdraw');
    await page.getByLabel('Amount (USDT)').fill('20');
    await page.getByLabel('Bank Account', { exact: true }).selectOption({ label: 'State Bank of India ••••9012 (Offline Withdrawer)' });

    // Back online, the money button works again by itself.
    await expect(page.getByRole('button', { name: 'Request Withdrawal' })).toBeEnabled();
    await expect(page.getByTestId('offline-action-reason')).toHaveCount(0);
  });

  test('the network drops while the withdrawal is sent: one message near the button, nothing taken, and the same request goes through once it is back', async ({
    page,
  }) => {
    const customer = await withdrawFormFilledIn(page, 'Dropped Request', '123456789013');
    // The request itself is lost on the way: the connection drops after the PIN is confirmed.
    await page.route('**/api/withdrawals', (route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback()));
    await page.getByRole('button', { name: 'Request Withdrawal' }).click();
    const pinDialog = page.getByRole('dialog');
    await pinDialog.getByLabel('Transaction PIN').fill(customer.pin);
    await pinDialog.getByRole('button', { name: 'Confirm Withdrawal' }).click();

    // Said once, near the button; no toast repeats it, and the money stays.
    await expect(pinDialog).toHaveCount(0);
    await expect(page.getByRole('alert').filter({ hasText: 'Unable to connect to the server. Check your connection and try again.' })).toHaveCount(1);
    await expect(page.getByRole('region', { name: /Notifications/ }).locator('li')).toHaveCount(0);
    await expect(page.locator('#root')).not.toBeEmpty();
    await page.unroute('**/api/withdrawals');
    await expect(page.getByTestId('available-balance')).toHaveText('50.00 USDT');

    // Back online, the same request goes through, once.
    await page.getByRole('button', { name: 'Request Withdrawal' }).click();
    await page.getByRole('dialog').getByLabel('Transaction PIN').fill(customer.pin);
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm Withdrawal' }).click();
    await expect(page.getByRole('heading', { name: 'Withdrawal Request Submitted' })).toBeVisible();
    const pending = (await (await page.request.get('/api/withdrawals?status=pending')).json()) as { items: unknown[] };
    expect(pending.items).toHaveLength(1);
  });

  test('a server that answers it is unavailable shows the banner, and the banner notices by itself when it is back', async ({ page }) => {
    await signUpThroughForm(page, newCustomer({ name: 'Server Away' }));
    await page.route('**/api/**', (route) => route.fulfill({ status: 503, contentType: 'text/html', body: '<h1>Service Unavailable</h1>' }));
    await page.getByRole('main').getByRole('link', { name: 'Withdraw INR' }).click();
    const banner = page.getByTestId('offline-banner');
    await expect(banner).toContainText('The server cannot be reached right now.');
    await expect(page.locator('#root')).not.toBeEmpty();
    // The page's reads have given up asking again (their retries are spent).
    await expect(page.getByText(/Failed to load bank accounts|Failed to fetch user balance/)).toBeVisible();

    // Nothing else asks the server meanwhile: the banner's own health check sees it answer again, and the page's reads are made anew.
    await page.unroute('**/api/**');
    await expect(banner).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Request Withdrawal' })).toBeVisible();
  });

  test('a dashboard open while offline keeps its figures, marked with their time, and refreshes itself when the network returns', async ({ page, context }) => {
    await signUpThroughForm(page, newCustomer({ name: 'Stale Figures' }));
    await expect(page.getByTestId('balance-chip')).toHaveText('0.00 USDT');
    await context.setOffline(true);
    const banner = page.getByTestId('offline-banner');
    await expect(banner).toContainText(/Figures shown are as of \d{2}:\d{2}\./);
    await expect(page.getByTestId('balance-chip')).toHaveText('0.00 USDT');
    await context.setOffline(false);
    await page.goto('/dashboard');
    await expect(page.getByTestId('balance-chip')).toHaveText('0.00 USDT');
    await expect(banner).toHaveCount(0);
  });
});
