import { expect as baseExpect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { extendedKeyInPart } from '#shared/contracts/deposit-keys';
import { keyAtPath, TEST_DEPOSIT_XPUBS, TEST_MNEMONIC } from '../fixtures/deposit-keys.ts';
import { auditPage, expectNoProblems } from './support/accessibility.ts';
import { AdminApi, E2E_ADMIN_PIN, signUpThroughApi } from './support/admin-api.ts';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_PORT } from './support/constants.ts';
import { startExtraApp, type ExtraApp } from './support/extra-app.ts';
import { logInThroughForm, newCustomer } from './support/helpers.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

// The deposit keys screen (decision 045) on an app of its own: its environment sets the TRON key (which
// the settings cannot change) and leaves Ethereum's to the settings; a second admin is added midway,
// which would change the rules for every other spec on the shared e2e server. Admin pages stay English
// (decision 046), so there is no Hindi text to check here.
const PORT = E2E_PORT + 7;
const BASE_URL = `http://localhost:${PORT}`;
const PHONE = { width: 390, height: 844 };
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

/** Another wallet's Ethereum account key, for a replacement: the BIP-39 test vector mnemonic "abandon … about". */
const OTHER_ERC20_KEY = keyAtPath(`${'abandon '.repeat(11)}about`, "m/44'/60'/0'").publicExtendedKey;
const ERC20_ACCOUNT_PRIVATE_KEY = keyAtPath(TEST_MNEMONIC, "m/44'/60'/0'").privateExtendedKey;

let app: ExtraApp;
let adminContext: BrowserContext;
let admin: Page;

async function phoneAdmin(browser: Browser, email: string, password: string, pin: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: BASE_URL, viewport: PHONE });
  const page = await context.newPage();
  await logInThroughForm(page, email, password, pin);
  return { context, page };
}

function card(page: Page, title: RegExp) {
  return page.getByRole('region', { name: title });
}

function toast(page: Page, text: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  app = await startExtraApp({ port: PORT, env: { SECURITY_COOLING_OFF_HOURS: '0', DEPOSIT_XPUB_TRC20: TEST_DEPOSIT_XPUBS.TRC20 } });
  // Sets the admin's PIN on the fresh server.
  await (await AdminApi.open(BASE_URL)).dispose();
  ({ context: adminContext, page: admin } = await phoneAdmin(browser, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_ADMIN_PIN));
});

test.afterAll(async () => {
  await adminContext?.close();
  await app?.stop();
});

test('at 390 px an admin sees each network’s key in part, cannot change the environment’s, is refused a private key and sets the Ethereum key', async () => {
  await admin.goto('/admin');
  await admin.getByRole('link', { name: /Deposit Keys/ }).click();
  await expect(admin).toHaveURL(/\/admin\/deposit-keys$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Deposit keys' })).toBeVisible();

  const tron = card(admin, /TRC20 \(TRON\)/);
  const ethereum = card(admin, /ERC20 \(Ethereum\)/);
  await expect(tron).toContainText(extendedKeyInPart(TEST_DEPOSIT_XPUBS.TRC20));
  await expect(tron).toContainText("The server's environment (DEPOSIT_XPUB_TRC20)");
  await expect(tron.getByRole('button', { name: /key/ })).toHaveCount(0);
  await expect(tron).not.toContainText(TEST_DEPOSIT_XPUBS.TRC20);
  await expect(ethereum).toContainText('Not set');
  await expect(ethereum).toContainText('Customers use the shared address');
  expectNoProblems(await auditPage(admin, 'the deposit keys page'));
  await expectNoSidewaysScroll(admin, 'the deposit keys page at 390 px');

  // A private key is refused with the API's error, which does not repeat it; the field is emptied and nothing is stored.
  const field = ethereum.getByLabel("Extended public key of m/44'/60'/0'");
  await field.fill(ERC20_ACCOUNT_PRIVATE_KEY);
  await ethereum.getByRole('button', { name: 'Set key' }).click();
  const refusal = ethereum.getByText(/^The ERC20 key is an extended private key, which must never be given to this server/);
  await expect(refusal).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveValue('');
  await expect(admin.locator('body')).not.toContainText(ERC20_ACCOUNT_PRIVATE_KEY.slice(4, 40));
  await expect(ethereum).toContainText('Not set');
  expectNoProblems(await auditPage(admin, 'the deposit keys page with a refused key'));
  await expectNoSidewaysScroll(admin, 'the deposit keys page with a refused key at 390 px');

  // The other network's key is refused too.
  await field.fill(TEST_DEPOSIT_XPUBS.TRC20);
  await ethereum.getByRole('button', { name: 'Set key' }).click();
  await expect(ethereum.getByText("This is the other network's key. TRON's account is m/44'/195'/0', Ethereum's m/44'/60'/0'.")).toBeVisible();

  // With one admin the right key applies at once.
  await field.fill(TEST_DEPOSIT_XPUBS.ERC20);
  await ethereum.getByRole('button', { name: 'Set key' }).click();
  await expect(
    toast(admin, 'Deposit key saved. Customers who get their first address on this network from now on get it under this key; issued addresses never change.'),
  ).toBeVisible();
  await expect(ethereum).toContainText(extendedKeyInPart(TEST_DEPOSIT_XPUBS.ERC20));
  await expect(ethereum).toContainText('The admin settings');
  await expect(ethereum).toContainText('Own addresses');
  await expect(ethereum.getByRole('button', { name: 'Replace key' })).toBeVisible();
});

test('while two admins exist a replacement waits for the second admin, who confirms it on the same page', async ({ browser }) => {
  const second = newCustomer({ name: 'Second Admin', pin: '4682' });
  await signUpThroughApi(second, BASE_URL);
  await app.promote(second.email);

  await admin.goto('/admin/deposit-keys');
  const ethereum = card(admin, /ERC20 \(Ethereum\)/);
  await ethereum.getByLabel("Extended public key of m/44'/60'/0'").fill(OTHER_ERC20_KEY);
  await ethereum.getByRole('button', { name: 'Replace key' }).click();
  await expect(toast(admin, 'Deposit key change recorded; a second admin must confirm it before it applies.')).toBeVisible();
  const waiting = admin.getByRole('region', { name: /Deposit key changes waiting for a second admin/ });
  await expect(waiting).toContainText('You asked for this change: another admin must confirm it.');
  await expect(waiting.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
  // Nothing applied yet.
  await expect(ethereum).toContainText(extendedKeyInPart(TEST_DEPOSIT_XPUBS.ERC20));
  expectNoProblems(await auditPage(admin, 'the deposit keys page with a waiting change'));
  await expectNoSidewaysScroll(admin, 'the deposit keys page with a waiting change at 390 px');

  const { context, page } = await phoneAdmin(browser, second.email, second.password, second.pin);
  try {
    await page.goto('/admin/deposit-keys');
    const panel = page.getByRole('region', { name: /Deposit key changes waiting for a second admin/ });
    await expect(panel).toContainText(E2E_ADMIN_EMAIL);
    await panel.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alertdialog', { name: 'Confirm this change?' }).getByRole('button', { name: 'Confirm change' }).click();
    await expect(panel).toBeHidden();
    await expect(card(page, /ERC20 \(Ethereum\)/)).toContainText(extendedKeyInPart(OTHER_ERC20_KEY));
  } finally {
    await context.close();
  }
  await admin.reload();
  await expect(card(admin, /ERC20 \(Ethereum\)/)).toContainText(extendedKeyInPart(OTHER_ERC20_KEY));
});
