import { expect, request, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { meResponseSchema } from '#shared/contracts/auth';
import { randomTronAddress } from '../fixtures/addresses.ts';
import { AdminApi, E2E_ADMIN_PIN, uniqueTrc20Hash } from './support/admin-api.ts';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_PORT } from './support/constants.ts';
import { startExtraApp, type ExtraApp } from './support/extra-app.ts';
import { logInThroughForm, newCustomer, reachKycLevelOneAs } from './support/helpers.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

// Two-person control (decision 017) needs two admins, which would change the rules for every other
// spec on the shared e2e server: these tests run their own app.
const PORT = E2E_PORT + 2;
const BASE_URL = `http://localhost:${PORT}`;
const DESK = { width: 1366, height: 900 };

let app: ExtraApp;
let adminApi: AdminApi;
let firstContext: BrowserContext;
let secondContext: BrowserContext;
let first: Page;
let second: Page;

function toast(page: Page, text: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });
}

/** A signed-in API session on the extra app, sending the Origin its CSRF check wants. */
async function apiSession(email: string, password: string, pin: string, signUp?: { name: string; phone: string }): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { origin: BASE_URL } });
  const response = signUp
    ? await context.post('/api/auth/signup', { data: { fullName: signUp.name, email, phone: signUp.phone, password, pin } })
    : await context.post('/api/auth/login', { data: { email, password } });
  expect(response.ok(), await response.text()).toBe(true);
  const verified = await context.post('/api/pin/verify', { data: { pin } });
  expect(verified.ok(), await verified.text()).toBe(true);
  return context;
}

async function adminBrowser(browser: Browser, email: string, password: string, pin: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: DESK });
  const page = await context.newPage();
  await logInThroughForm(page, email, password, pin);
  return { context, page };
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  app = await startExtraApp({ port: PORT, env: { SECURITY_COOLING_OFF_HOURS: '0' } });
  adminApi = await AdminApi.open(BASE_URL);
  await adminApi.ensureTrc20DepositAddress();
  // Withdrawals over 1,000 INR need two admins here, so a small test deposit is enough.
  await adminApi.updateSettings({ largeWithdrawalInr: '1000' });

  const secondAdmin = newCustomer({ name: 'Second Admin', pin: '4682' });
  const secondSession = await apiSession(secondAdmin.email, secondAdmin.password, secondAdmin.pin, { name: secondAdmin.name, phone: secondAdmin.phone });
  const secondMe = meResponseSchema.parse(await (await secondSession.get('/api/me')).json());
  await secondSession.dispose();
  // With a single admin, only the server's command grants the admin role (issue 9).
  const refused = await adminApi.context.patch(`/api/admin/users/${secondMe.id}`, { data: { role: 'admin' } });
  expect(refused.status()).toBe(409);
  await app.promote(secondAdmin.email);

  ({ context: firstContext, page: first } = await adminBrowser(browser, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_ADMIN_PIN));
  ({ context: secondContext, page: second } = await adminBrowser(browser, secondAdmin.email, secondAdmin.password, secondAdmin.pin));
});

test.afterAll(async () => {
  await firstContext?.close();
  await secondContext?.close();
  await adminApi?.dispose();
  await app?.stop();
});

test('a deposit address change waits for a second admin, who confirms it from the dashboard', async () => {
  const publicAddress = async () => ((await (await fetch(`${BASE_URL}/api/settings/public`)).json()) as { addresses: { TRC20: string } }).addresses.TRC20;
  const before = await publicAddress();
  const next = randomTronAddress();

  // This server has only a TRC20 address: the admin's dashboard says what customers cannot do yet.
  await first.goto('/dashboard');
  const missing = first.getByTestId('setup-missing');
  await expect(missing).toContainText('the ERC20 deposit address (no ERC20 deposits until then)');
  await expect(missing).toContainText('the WhatsApp support number (the Support button stays hidden until then)');
  await expect(missing).not.toContainText('TRC20');

  await first.goto('/admin/settings');
  await first.getByRole('tab', { name: 'Wallet Addresses' }).click();
  await first.getByLabel('TRC20 Wallet Address').fill(next);
  await first.getByRole('button', { name: 'Save All Settings' }).click();
  await expect(toast(first, 'Address change awaits a second admin')).toBeVisible();
  const waiting = first.getByRole('region', { name: /Settings changes waiting for a second admin/ });
  await expect(waiting).toContainText(next);
  await expect(waiting).toContainText('You asked for this change: another admin must confirm it.');
  await expect(waiting.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
  // The form shows the public address, which has not changed.
  await expect(first.getByLabel('TRC20 Wallet Address')).toHaveValue(before);
  expect(await publicAddress()).toBe(before);

  await second.goto('/admin');
  const panel = second.getByRole('region', { name: /Waiting for a second admin/ });
  await expect(panel).toContainText('TRC20 deposit address');
  await expect(panel).toContainText(next);
  await expect(panel).toContainText(E2E_ADMIN_EMAIL);
  // On a phone the waiting change still fits the screen, long address included.
  await second.setViewportSize({ width: 390, height: 844 });
  await expect(panel.getByRole('button', { name: 'Confirm' })).toBeVisible();
  await expectNoSidewaysScroll(second, 'the admin dashboard with a pending change at 390 px');
  await second.setViewportSize(DESK);
  await panel.getByRole('button', { name: 'Confirm' }).click();
  const dialog = second.getByRole('alertdialog', { name: 'Confirm this change?' });
  await dialog.getByRole('button', { name: 'Confirm change' }).click();
  await expect(toast(second, 'Change confirmed and applied.')).toBeVisible();
  await expect(panel).toBeHidden();
  expect(await publicAddress()).toBe(next);
  // The first admin's page hears of it (live update) and drops the waiting change.
  await expect(waiting).toBeHidden();
});

test('a large withdrawal shows "Awaiting second approval" after the first approve and is approved by the second admin', async () => {
  const customer = newCustomer({ name: 'Kavya Menon' });
  const session = await apiSession(customer.email, customer.password, customer.pin, { name: customer.name, phone: customer.phone });
  await reachKycLevelOneAs(session, customer, app);
  const deposit = await session.post('/api/deposits', { data: { network: 'TRC20', amount: '50', transactionHash: uniqueTrc20Hash() } });
  expect(deposit.ok(), await deposit.text()).toBe(true);
  await adminApi.approveDeposit(((await deposit.json()) as { deposit: { id: string } }).deposit.id);
  const account = await session.post('/api/bank-accounts', {
    data: { accountHolderName: 'Kavya Menon', accountNumber: '987654321012', accountNumberConfirmation: '987654321012', ifscCode: 'HDFC0001234' },
  });
  expect(account.ok(), await account.text()).toBe(true);
  const bankAccountId = ((await account.json()) as { bankAccount: { id: string } }).bankAccount.id;
  const requested = await session.post('/api/withdrawals', { data: { amount: '20', bankAccountId, pin: customer.pin } });
  expect(requested.ok(), await requested.text()).toBe(true);
  const withdrawalId = ((await requested.json()) as { withdrawal: { id: string } }).withdrawal.id;
  await session.dispose();

  await first.goto('/admin/transactions?tab=withdrawals&status=pending');
  const firstRow = first.getByTestId(`withdrawal-${withdrawalId}`);
  await firstRow.getByRole('button', { name: 'Approve' }).click();
  // A payment made by hand carries its UTR (decision 049); the payee has no UPI id, so it went by IMPS.
  const utr = String(100_000_000_000 + Math.floor(Math.random() * 800_000_000_000));
  const firstDialog = first.getByRole('alertdialog', { name: 'Approve withdrawal?' });
  await firstDialog.getByLabel('Bank payout reference (UTR)').fill(utr);
  await firstDialog.getByRole('button', { name: 'Approve withdrawal' }).click();
  await expect(toast(first, 'Awaiting second approval')).toBeVisible();
  await expect(firstRow).toContainText('Awaiting second approval');
  await expect(firstRow).toContainText('Pending');

  await second.goto('/admin/transactions?tab=withdrawals&status=pending');
  const secondRow = second.getByTestId(`withdrawal-${withdrawalId}`);
  await expect(secondRow).toContainText('Awaiting second approval');
  await expect(secondRow).toContainText('First approved by Admin');
  await secondRow.getByRole('button', { name: 'Approve' }).click();
  const secondDialog = second.getByRole('alertdialog', { name: 'Approve withdrawal?' });
  await secondDialog.getByLabel('Bank payout reference (UTR)').fill(utr);
  await secondDialog.getByRole('button', { name: 'Approve withdrawal' }).click();
  await expect(toast(second, 'Withdrawal approved successfully')).toBeVisible();
  await second.getByLabel('Status').selectOption('all');
  await expect(second.getByTestId(`withdrawal-${withdrawalId}`)).toContainText('Approved');
  await expect(second.getByTestId(`withdrawal-${withdrawalId}`)).not.toContainText('Awaiting second approval');
  await expect(second.getByTestId(`withdrawal-${withdrawalId}`)).toContainText(`UTR: ${utr}`);
});

test('a rate change over 5% asks with old, new and percentage; leaving with unsaved edits asks first', async () => {
  await first.goto('/admin/settings');
  const normal = first.getByLabel('Normal Rate (INR per USDT)');
  const vip = first.getByLabel('VIP Rate (INR per USDT)');
  const before = await normal.inputValue();
  await normal.fill('95.00');
  await vip.fill('96.00');
  await first.getByRole('button', { name: 'Save All Settings' }).click();
  const dialog = first.getByRole('alertdialog', { name: 'Confirm a large rate change' });
  await expect(dialog).toContainText(`Normal rate: ${before} → 95.00`);
  await expect(dialog).toContainText('%');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(((await (await fetch(`${BASE_URL}/api/rates`)).json()) as { normalRate: string }).normalRate).toBe(before);

  // VIP below normal is shown at the VIP field before anything is sent.
  await vip.fill('90.00');
  await first.getByRole('button', { name: 'Save All Settings' }).click();
  await expect(first.getByText('VIP rate cannot be lower than the normal rate')).toBeVisible();

  // Unsaved edits: an in-app link asks first; staying keeps the page and its edits.
  await first
    .getByRole('link', { name: /Dashboard/ })
    .first()
    .click();
  const leave = first.getByRole('alertdialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(first).toHaveURL(/\/admin\/settings$/);
  await expect(normal).toHaveValue('95.00');

  await vip.fill('96.00');
  await first.getByRole('button', { name: 'Save All Settings' }).click();
  await first.getByRole('alertdialog', { name: 'Confirm a large rate change' }).getByRole('button', { name: 'Save the new rates' }).click();
  // With two admins, the rates change only when the second one confirms (decision 024).
  await expect(toast(first, 'Changes await a second admin')).toBeVisible();
  const waiting = first.getByRole('region', { name: /Settings changes waiting for a second admin/ });
  await expect(waiting).toContainText('Exchange rates');
  await expect(waiting).toContainText('Standard ₹95.00, VIP ₹96.00 per USDT');
  expect(((await (await fetch(`${BASE_URL}/api/rates`)).json()) as { normalRate: string }).normalRate).toBe(before);
  // Saved: leaving asks nothing.
  await first
    .getByRole('link', { name: /Dashboard/ })
    .first()
    .click();
  await expect(first).toHaveURL(/\/admin$/);

  await second.goto('/admin');
  const panel = second.getByRole('region', { name: /Waiting for a second admin/ });
  await expect(panel).toContainText('Exchange rates');
  await panel.getByRole('button', { name: 'Confirm' }).click();
  await second.getByRole('alertdialog', { name: 'Confirm this change?' }).getByRole('button', { name: 'Confirm change' }).click();
  await expect(toast(second, 'Change confirmed and applied.')).toBeVisible();
  expect(((await (await fetch(`${BASE_URL}/api/rates`)).json()) as { normalRate: string }).normalRate).toBe('95.00');
});

test('the browser’s Back button with unsaved settings asks first; staying keeps the edits, leaving goes back', async () => {
  await first.goto('/admin');
  await first.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
  await expect(first).toHaveURL(/\/admin\/settings$/);
  await first.getByRole('tab', { name: 'Support' }).click();
  const website = first.getByLabel('Website URL');
  await website.fill('https://unsaved-back.example.com');

  await first.goBack();
  const leave = first.getByRole('alertdialog', { name: 'Leave without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(first).toHaveURL(/\/admin\/settings$/);
  await expect(website).toHaveValue('https://unsaved-back.example.com');

  await first.goBack();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(first).toHaveURL(/\/admin$/);
});

test('closing or reloading the tab with unsaved settings asks the browser’s question first', async () => {
  const page = await firstContext.newPage();
  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: 'Support' }).click();
  await page.getByLabel('Website URL').fill('https://unsaved.example.com');
  const asked = new Promise<string>((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.accept();
    });
  });
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
});

test('the admin role given on the user page waits for a second admin, who confirms it from the dashboard', async () => {
  const customer = newCustomer({ name: 'Future Admin', pin: '5937' });
  const session = await apiSession(customer.email, customer.password, customer.pin, { name: customer.name, phone: customer.phone });
  const me = meResponseSchema.parse(await (await session.get('/api/me')).json());
  const roleNow = async () => meResponseSchema.parse(await (await session.get('/api/me')).json()).role;

  await first.goto(`/admin/users/${me.id}`);
  await first.getByLabel('Role').selectOption('admin');
  await first.getByRole('button', { name: 'Save changes' }).click();
  await first.getByRole('alertdialog', { name: "Change this user's access?" }).getByRole('button', { name: 'Confirm change' }).click();
  await expect(toast(first, 'Granting the admin role waits for a second admin to confirm it; until then this user keeps their current role.')).toBeVisible();
  expect(await roleNow()).toBe('user');

  await second.goto('/admin');
  const panel = second.getByRole('region', { name: /Waiting for a second admin/ });
  const change = panel.getByTestId('pending-change').filter({ hasText: `Admin role for Future Admin (${customer.email})` });
  await expect(change).toBeVisible();
  await change.getByRole('button', { name: 'Confirm' }).click();
  await second.getByRole('alertdialog', { name: 'Confirm this change?' }).getByRole('button', { name: 'Confirm change' }).click();
  await expect(toast(second, 'Change confirmed and applied.')).toBeVisible();
  await expect.poll(roleNow).toBe('admin');

  // Taking it away waits for a second admin too (decision 024); the server's command does it at once.
  await first.goto(`/admin/users/${me.id}`);
  await first.getByLabel('Role').selectOption('user');
  await first.getByRole('button', { name: 'Save changes' }).click();
  await first.getByRole('alertdialog', { name: "Change this user's access?" }).getByRole('button', { name: 'Confirm change' }).click();
  await expect(
    toast(
      first,
      'Taking the admin role away waits for a second admin to confirm it (the admin concerned may); until then this user stays an admin. On the server, npm run admin -- demote <email> takes it away at once.',
    ),
  ).toBeVisible();
  expect(await roleNow()).toBe('admin');
  await app.demote(customer.email);
  expect(await roleNow()).toBe('user');
  await session.dispose();
});
