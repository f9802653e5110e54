import { expect, test, type Page } from '@playwright/test';
import jpeg from 'jpeg-js';
import { meResponseSchema } from '#shared/contracts/auth';
import { FREEZE_MESSAGES } from '#shared/contracts/kyc';
import { uniquePersonPan } from '../fixtures/cashfree-stand-in.ts';
import { openAdminAndCustomer, type AdminAndCustomer } from './support/admin-and-customer.ts';
import { E2E_BASE_URL } from './support/constants.ts';
import { acceptConsentAs, newCustomer, signUpThroughForm } from './support/helpers.ts';
import { kycStandInUrl } from './support/kyc-stand-in.ts';

// The admin KYC desk (decision 047): a PAN review approved at /admin/kyc, and a frozen customer's withdraw page.
const DESK = { width: 1366, height: 900 };

let desk: AdminAndCustomer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  desk = await openAdminAndCustomer(browser, { customer: { name: 'Kavya Menon' }, adminViewport: DESK });
});

test.afterAll(async () => {
  await desk.close();
});

function toast(page: Page, text: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(text, { exact: true });
}

test('an admin approves a PAN waiting for a person at the KYC desk', async ({ browser }) => {
  // A customer whose PAN's registered name only partly matches theirs: the name rule leaves it to a person.
  const context = await browser.newContext();
  const page = await context.newPage();
  const customer = newCustomer({ name: 'Nandini Rao' });
  await signUpThroughForm(page, customer, { kycLevelOne: false });
  await acceptConsentAs(page.request);
  const marked = await fetch(`${kycStandInUrl()}/_e2e/contacts-verified`, { method: 'POST', body: JSON.stringify({ email: customer.email }) });
  expect(marked.status).toBe(204);
  const pan = uniquePersonPan();
  const registered = await fetch(`${kycStandInUrl()}/_e2e/register-pan`, { method: 'POST', body: JSON.stringify({ name: 'Nandini Lakshmi Rao', pan }) });
  expect(registered.status).toBe(204);
  const submitted = await page.request.post(`${E2E_BASE_URL}/api/kyc/pan`, { data: { pan }, headers: { origin: E2E_BASE_URL } });
  expect(submitted.status()).toBe(200);

  const admin = desk.adminPage;
  await admin.goto('/admin/kyc');
  await expect(admin.getByRole('heading', { name: 'KYC reviews' })).toBeVisible();
  const row = admin.getByRole('row').filter({ hasText: customer.email });
  await expect(row).toContainText('NANDINI LAKSHMI RAO');
  await expect(row).toContainText('partial (67)');
  await row.getByRole('button', { name: 'Approve the PAN of Nandini Rao' }).click();
  const dialog = admin.getByRole('alertdialog', { name: 'Approve this PAN?' });
  await expect(dialog.getByLabel('Name printed on the PAN card')).toHaveValue('NANDINI LAKSHMI RAO');
  await dialog.getByRole('button', { name: 'Approve PAN' }).click();
  await expect(toast(admin, 'PAN verified')).toBeVisible();
  await expect(row).toHaveCount(0);

  await page.goto('/kyc');
  await expect(page.getByTestId('kyc-check-pan')).toContainText('Done');
  await context.close();
});

/** A photo of a card, 640 x 400, as a phone's camera sends it. */
function cardPhoto(): Buffer {
  const data = Buffer.alloc(640 * 400 * 4, 200);
  return Buffer.from(jpeg.encode({ data, width: 640, height: 400 }, 80).data);
}

test('a PAN the provider could not check waits for the card’s photo, which the customer adds and the admin sees before approving', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const customer = newCustomer({ name: 'Ira Kulkarni' });
  await signUpThroughForm(page, customer, { kycLevelOne: false });
  await acceptConsentAs(page.request);
  const marked = await fetch(`${kycStandInUrl()}/_e2e/contacts-verified`, { method: 'POST', body: JSON.stringify({ email: customer.email }) });
  expect(marked.status).toBe(204);
  const failing = await fetch(`${kycStandInUrl()}/_e2e/provider-fails`, { method: 'POST', body: JSON.stringify({ status: 503 }) });
  expect(failing.status).toBe(204);
  try {
    const submitted = await page.request.post(`${E2E_BASE_URL}/api/kyc/pan`, { data: { pan: uniquePersonPan() }, headers: { origin: E2E_BASE_URL } });
    expect(submitted.status()).toBe(200);
  } finally {
    await fetch(`${kycStandInUrl()}/_e2e/provider-fails`, { method: 'POST', body: JSON.stringify({ status: null }) });
  }

  await page.goto('/kyc');
  await expect(page.getByTestId('kyc-missing')).toContainText('add a photo of your PAN card');
  await page.getByTestId('kyc-photo-pan_card').setInputFiles({ name: 'pan.jpg', mimeType: 'image/jpeg', buffer: cardPhoto() });
  await expect(page.getByTestId('kyc-check-pan')).toContainText('Photo of your PAN card received.');
  await expect(page.getByTestId('kyc-missing')).not.toContainText('add a photo of your PAN card');

  const admin = desk.adminPage;
  await admin.goto('/admin/kyc');
  const row = admin.getByRole('row').filter({ hasText: customer.email });
  await row.getByRole('button', { name: 'Show the PAN card of Ira Kulkarni' }).click();
  const card = row.getByRole('img', { name: /PAN card of Ira Kulkarni/ });
  await expect(card).toBeVisible();
  await expect.poll(() => card.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(640);
  await row.getByRole('button', { name: 'Approve the PAN of Ira Kulkarni' }).click();
  const dialog = admin.getByRole('alertdialog', { name: 'Approve this PAN?' });
  await dialog.getByLabel('Name printed on the PAN card').fill('IRA KULKARNI');
  await dialog.getByRole('button', { name: 'Approve PAN' }).click();
  await expect(toast(admin, 'PAN verified')).toBeVisible();
  await context.close();
});

test('a frozen customer’s withdraw page says the account is under review, until the freeze is lifted', async () => {
  const me = meResponseSchema.parse(await (await desk.customerPage.request.get(`${E2E_BASE_URL}/api/me`)).json());
  const admin = desk.adminPage;
  await admin.goto(`/admin/users/${me.id}`);
  const card = admin.getByTestId('user-kyc');
  await expect(card.getByTestId('user-kyc-level')).toHaveText('1');
  await card.getByRole('button', { name: 'Freeze account' }).click();
  const freeze = admin.getByRole('alertdialog', { name: 'Freeze this account?' });
  await freeze.getByLabel('Reason').fill('FIU-IND: deposits from many unrelated wallets');
  await freeze.getByRole('button', { name: 'Freeze account' }).click();
  await expect(toast(admin, 'Account frozen')).toBeVisible();
  await expect(card.getByTestId('user-kyc-frozen')).toContainText('FIU-IND: deposits from many unrelated wallets');

  const customer = desk.customerPage;
  await customer.goto('/wallet/withdraw');
  await expect(customer.getByTestId('kyc-gate-notice')).toContainText(FREEZE_MESSAGES.customer);

  // A single admin on this server lifts it at once; the customer's open page hears of it.
  await card.getByRole('button', { name: 'Lift the freeze' }).click();
  const lift = admin.getByRole('alertdialog', { name: 'Lift the freeze?' });
  await lift.getByLabel('Reason').fill('Source of funds documented');
  await lift.getByRole('button', { name: 'Lift the freeze' }).click();
  await expect(toast(admin, 'Account unfrozen')).toBeVisible();
  await expect(customer.getByTestId('kyc-gate-notice')).toHaveCount(0);
});
