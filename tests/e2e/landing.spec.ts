import { expect, test, type Page } from '@playwright/test';
import { publicSettingsResponseSchema } from '#shared/contracts/settings';
import { AdminApi, submitDepositAs } from './support/admin-api.ts';
import { E2E_BASE_URL } from './support/constants.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';

/*
 * The landing page, the rate card and converter, live rate updates and the
 * referral link. The rates and the support number are set by these tests and
 * put back afterwards, so that other test files find what they expect.
 */
let admin: AdminApi;
let originalSettings: { normalRate: string; vipRate: string; whatsappSupportNumber: string };

test.beforeAll(async () => {
  admin = await AdminApi.open();
  const { normalRate, vipRate, whatsappSupportNumber } = await admin.updateSettings({});
  originalSettings = { normalRate, vipRate, whatsappSupportNumber };
});

// Every test starts from the same rates, whichever tests ran (or failed) before it.
test.beforeEach(async () => {
  await admin.updateSettings({ normalRate: '83.00', vipRate: '83.25' });
});

test.afterAll(async () => {
  await admin.updateSettings(originalSettings);
  await admin.dispose();
});

const usdtInput = (page: Page) => page.getByLabel('USDT Amount');

test('the landing page shows the offer, the rates, How It Works and the legal pages, all from our own server', async ({ page }) => {
  const foreignRequests: string[] = [];
  const javascriptBytes: number[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(E2E_BASE_URL) && !request.url().startsWith('data:')) foreignRequests.push(request.url());
  });
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) javascriptBytes.push(Number(response.headers()['content-length'] ?? 0));
  });

  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  await expect(page.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signup');

  await expect(page.getByText('Standard Rate').first()).toBeVisible();
  await expect(page.getByTestId('standard-rate')).toHaveText('\u20b983.00');
  await expect(page.getByTestId('vip-rate')).toHaveText('\u20b983.25');
  await expect(page.getByText('per 1 USDT')).toHaveCount(2);
  await expect(page.getByText('Fallback')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Refresh Rates' })).toBeVisible();

  await expect(page.getByRole('heading', { name: 'How It Works' })).toBeVisible();
  for (const step of ['Sign Up & Verify', 'Send USDT to Admin', 'Receive INR']) await expect(page.getByRole('heading', { name: step })).toBeVisible();
  // One copyright year on public and inner pages: the current one.
  await expect(page.getByText(`\u00a9 ${new Date().getFullYear()} Rupeedesk. All rights reserved.`)).toBeVisible();

  // Download App only when an APK was uploaded.
  const settings = publicSettingsResponseSchema.parse(await (await page.request.get('/api/settings/public')).json());
  if (settings.apk.exists) await expect(page.getByRole('link', { name: 'Download App' })).toHaveAttribute('href', settings.apk.url as string);
  else await expect(page.getByRole('link', { name: 'Download App' })).toHaveCount(0);

  expect(foreignRequests).toEqual([]);
  test.info().annotations.push({
    type: 'landing JavaScript (uncompressed bytes, incl. lazily loaded chunks)',
    description: String(javascriptBytes.reduce((sum, bytes) => sum + bytes, 0)),
  });

  for (const [link, heading] of [
    ['Privacy Policy', 'Privacy Policy'],
    ['Terms of Service', 'Terms of Service'],
    ['Contact Us', 'Contact Us'],
  ] as const) {
    await page.getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await page.getByRole('link', { name: 'Home' }).click();
    await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();
  }
  await page.getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/signup$/);
});

test('the support chat link opens the messaging app with the stored number, from the landing and the contact page', async ({ page }) => {
  await admin.updateSettings({ whatsappSupportNumber: '+91 90000 12345' });
  await page.goto('/');
  const chat = page.getByRole('link', { name: 'Chat with Support' });
  await expect(chat).toHaveAttribute('href', 'https://wa.me/919000012345');
  await expect(chat).toHaveAttribute('target', '_blank');
  await page.goto('/contact');
  await expect(page.getByRole('link', { name: 'Chat with Support' })).toHaveAttribute('href', 'https://wa.me/919000012345');
});

test('without a support number the Support item is left out, not greyed; the inner pages carry the same one copyright year', async ({ page }) => {
  await admin.updateSettings({ whatsappSupportNumber: '' });
  const customer = newCustomer();
  await signUpThroughForm(page, customer);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('link', { name: 'Chat with Support' })).toHaveCount(0);
  await expect(page.getByText('Support', { exact: true })).toHaveCount(0);
  await expect(page.getByText(/\u00a9 \d{4}/)).toHaveText(`\u00a9 ${new Date().getFullYear()} Rupeedesk. All rights reserved.`);

  await admin.updateSettings({ whatsappSupportNumber: '+91 90000 12345' });
  await page.reload();
  await expect(page.getByRole('link', { name: 'Support', exact: true }).first()).toHaveAttribute('href', 'https://wa.me/919000012345');
});

test('the converter computes both rates in rupees and accepts only digits and one decimal point', async ({ page }) => {
  await page.goto('/');
  await expect(usdtInput(page)).toHaveValue('100');
  await expect(page.getByTestId('converter-standard')).toHaveText('\u20b98,300.00');
  await expect(page.getByTestId('converter-vip')).toHaveText('\u20b98,325.00');
  await expect(page.getByTestId('converter-standard-rate')).toHaveText('\u20b983.00 per USDT');
  await expect(page.getByTestId('converter-vip-rate')).toHaveText('\u20b983.25 per USDT');

  await usdtInput(page).fill('');
  await usdtInput(page).pressSequentially('a1.2.3');
  await expect(usdtInput(page)).toHaveValue('1.23');
  await expect(page.getByTestId('converter-standard')).toHaveText('\u20b9102.09');
  await expect(page.getByTestId('converter-vip')).toHaveText('\u20b9102.39');

  await usdtInput(page).fill('1250000');
  await expect(page.getByTestId('converter-standard')).toHaveText('\u20b910,37,50,000.00');
  await usdtInput(page).fill('');
  await expect(page.getByTestId('converter-standard')).toHaveText('\u20b90.00');
});

test('the VIP rate explains itself in a tooltip after 700 ms', async ({ page }) => {
  // The page's clock is the test's: the 700 ms are counted by it, not by the machine's load.
  await page.clock.install();
  await page.goto('/');
  const info = page.getByRole('button', { name: 'About the VIP rate' });
  // Reaching for the card loads the tooltip's code; the trigger then carries Radix's data-state.
  await page.getByRole('heading', { name: 'Exchange Rates' }).hover();
  await expect(info).toHaveAttribute('data-state', 'closed');
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await info.hover();
  const tooltip = page.getByRole('tooltip');
  await page.clock.runFor(650);
  await expect(info).toHaveAttribute('data-state', 'closed');
  await expect(tooltip).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(tooltip).toHaveText('VIP members and transactions \u20b9100,000+ get this premium rate');
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });

  test('a tap on the VIP rate’s button opens its explanation and a second tap closes it', async ({ page }) => {
    await page.goto('/');
    // The page arrives drawn (decision 065); the button is measured once the live page has taken its place.
    await expect(page.locator('#prerendered-page')).toHaveCount(0);
    const info = page.getByRole('button', { name: 'About the VIP rate' });
    const box = await info.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(24);
    expect(box?.height).toBeGreaterThanOrEqual(24);
    const tooltip = page.getByRole('tooltip');
    // The first tap also loads the tooltip's code; it opens as soon as that is in.
    await info.tap();
    await expect(tooltip).toHaveText('VIP members and transactions \u20b9100,000+ get this premium rate');
    await info.tap();
    await expect(tooltip).toBeHidden();
    await info.tap();
    await expect(tooltip).toBeVisible();
    await page.getByRole('heading', { name: 'Exchange Rates' }).tap();
    await expect(tooltip).toBeHidden();
  });
});

test('rates that cannot be loaded show the fallback rates under a Fallback badge', async ({ page }) => {
  await page.route('**/api/rates', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"SERVICE_UNAVAILABLE","message":"down"}}' }),
  );
  await page.goto('/');
  await expect(page.getByText('Fallback', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('standard-rate')).toHaveText('\u20b985.00');
  await expect(page.getByTestId('vip-rate')).toHaveText('\u20b986.50');
});

test('an admin rate change reaches an open customer page and the landing page without a reload', async ({ page, browser }) => {
  const customer = newCustomer({ name: 'Live Rates' });
  await signUpThroughForm(page, customer);
  await expect(page.getByTestId('standard-rate')).toHaveText('\u20b983.00');

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto('/');
  await expect(visitor.getByTestId('standard-rate')).toHaveText('\u20b983.00');
  // Both pages must be subscribed before the change: their event streams say so once ready.
  await expect(page.locator('html[data-live-updates="customer"]')).toHaveCount(1);
  await expect(visitor.locator('html[data-live-updates="public"]')).toHaveCount(1);

  // A save that leaves the rates as they are reaches the page too, but announces no rates change.
  const { websiteUrl } = await admin.updateSettings({});
  const ratesAskedAgain = page.waitForResponse((response) => response.url().endsWith('/api/rates'));
  await admin.updateSettings({ websiteUrl: 'https://live-check.example.com' });
  await ratesAskedAgain;
  await page.waitForTimeout(500);
  await expect(page.getByText('Exchange rates updated', { exact: true })).toHaveCount(0);
  await admin.updateSettings({ websiteUrl });

  await admin.updateSettings({ normalRate: '91.40', vipRate: '92.15' });

  await expect(page.getByText('Exchange rates updated', { exact: true })).toBeVisible();
  await expect(page.getByTestId('standard-rate')).toHaveText('\u20b991.40');
  await expect(page.getByTestId('vip-rate')).toHaveText('\u20b992.15');
  await expect(visitor.getByText('Exchange rates updated', { exact: true })).toBeVisible();
  await expect(visitor.getByTestId('converter-standard')).toHaveText('\u20b99,140.00');
  await visitorContext.close();
});

test("an approved deposit updates the customer's balance and referral earnings live", async ({ page, browser }) => {
  await admin.ensureTrc20DepositAddress();
  const referrer = newCustomer({ name: 'Live Referrer' });
  await signUpThroughForm(page, referrer);
  await page.goto('/referral-vip');
  const code = (await page.getByTestId('referral-code').textContent())?.trim() ?? '';
  await expect(page.locator('html[data-live-updates="customer"]')).toHaveCount(1);

  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await signUpThroughForm(friend, newCustomer({ name: 'Live Friend' }), { referralCode: code });
  await expect(friend.locator('html[data-live-updates="customer"]')).toHaveCount(1);
  const deposit = await submitDepositAs(friend, '250');
  await admin.approveDeposit(deposit.id);

  await expect(friend.getByTestId('balance-chip')).toHaveText('250.00 USDT');
  // 0.1 % of 250 USDT reaches the referrer's open page without a reload.
  await expect(page.getByTestId('total-earnings')).toHaveText('0.25 USDT');
  await expect(page.getByTestId('total-referrals')).toHaveText('1');
  await expect(page.getByTestId('balance-chip')).toHaveText('0.25 USDT');
  await friendContext.close();
});

test('the live-update stream comes back by itself after it was refused or cut', async ({ page }) => {
  let attempts = 0;
  await page.route('**/api/events', async (route) => {
    attempts += 1;
    // First as a server that is restarting (503 makes EventSource give up), then as a dropped connection.
    if (attempts === 1)
      await route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"SERVICE_UNAVAILABLE","message":"restarting"}}' });
    else if (attempts === 2) await route.abort('connectionreset');
    else await route.continue();
  });
  await page.goto('/');
  await expect(page.locator('html[data-live-updates="public"]')).toHaveCount(1, { timeout: 30_000 });
  expect(attempts).toBeGreaterThanOrEqual(3);

  // The VIP rate may not be below the normal rate.
  await admin.updateSettings({ normalRate: '84.60', vipRate: '84.60' });
  await expect(page.getByTestId('standard-rate')).toHaveText('\u20b984.60');
});

test('the referral link prefills the Referral Code of the sign-up form', async ({ page, browser }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E_BASE_URL });
  const referrer = newCustomer({ name: 'Ravi Referrer' });
  await signUpThroughForm(page, referrer);
  await page.goto('/referral-vip');
  await expect(page.getByRole('heading', { name: 'VIP Status' })).toBeVisible();
  const code = (await page.getByTestId('referral-code').textContent())?.trim() ?? '';
  expect(code).toMatch(/^[A-Z0-9]{10}$/);
  const link = page.getByLabel('Referral link', { exact: true });
  await expect(link).toHaveValue(`${E2E_BASE_URL}/signup?ref=${code}`);
  await expect(page.getByTestId('total-referrals')).toHaveText('0');
  await expect(page.getByText('No referrals yet. Share your referral link to start earning.')).toBeVisible();

  await page.getByRole('button', { name: 'Copy referral link' }).click();
  await expect(page.getByText('Link Copied', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${E2E_BASE_URL}/signup?ref=${code}`);

  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await friend.goto(`/signup?ref=${code}`);
  await expect(friend.getByLabel('Referral Code (optional)')).toHaveValue(code);
  await signUpThroughForm(friend, newCustomer({ name: 'Farah Friend' }), { referralCode: code });
  await friendContext.close();

  await page.reload();
  await expect(page.getByTestId('total-referrals')).toHaveText('1');
  const referrals = page.getByRole('list', { name: 'Your Referrals' });
  await expect(referrals.getByText('Farah Friend')).toBeVisible();
  await expect(referrals.getByText('Level 1')).toBeVisible();
});

test('robots.txt is a real robots file, not the app page', async ({ request }) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/plain/);
  const text = await response.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).toMatch(/^Disallow: \/api\/$/m);
  expect(text).not.toContain('<html');
});
