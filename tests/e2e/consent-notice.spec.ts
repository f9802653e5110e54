import { expect, test } from '@playwright/test';
import { auditPage, expectNoProblems } from './support/accessibility.ts';
import { GRIEVANCE_PHONE_MESSAGE } from '#shared/contracts/operator-identity';
import { SETTINGS_UPDATED_MESSAGE } from '#shared/contracts/settings';
import { AdminApi, E2E_ADMIN_PIN } from './support/admin-api.ts';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD } from './support/constants.ts';
import { logInThroughForm, newCustomer, signUpThroughForm } from './support/helpers.ts';

/*
 * The operator's identity and grievance officer (settings) on the public pages, and the consent and privacy
 * notice as the KYC page's first step (issues 32 and 33, decision 051). The identity is shared by the whole
 * server, so these tests run one after another and empty it again at the end.
 */
const IDENTITY = {
  legalName: 'Rupeedesk Technologies Private Limited',
  address: '12 MG Road, Bengaluru 560001',
  registration: 'CIN U62099KA2026PTC000001',
  grievanceOfficerName: 'Meera Iyer',
  grievanceOfficerEmail: 'grievance@rupeedesk.example.com',
  grievanceOfficerPhone: '+918040001234',
};
const EMPTY = Object.fromEntries(Object.keys(IDENTITY).map((key) => [key, ''])) as typeof IDENTITY;

let admin: AdminApi;

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 390, height: 844 } });

test.beforeAll(async () => {
  admin = await AdminApi.open();
});

test.afterAll(async () => {
  await admin.updateSettings({ operatorIdentity: EMPTY });
  await admin.dispose();
});

test('without an operator identity the footer names none and the terms page points to the contact page', async ({ page }) => {
  await admin.updateSettings({ operatorIdentity: EMPTY });
  await page.goto('/terms');
  await expect(page.getByRole('heading', { name: 'Grievance officer' })).toBeVisible();
  await expect(page.getByTestId('operator-identity').getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
  await expect(page.getByRole('heading', { name: 'Who we are' })).toHaveCount(0);
  await expect(page.getByTestId('operator-footer')).toHaveText('');
  // The shared server turns the pause on a new bank account off (SECURITY_COOLING_OFF_HOURS=0): How It Works says nothing of it.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'How It Works' })).toBeVisible();
  await expect(page.getByTestId('new-account-pause-note')).toHaveCount(0);
});

test('the operator and grievance officer from the settings show in the footer and on the terms and privacy pages, in English and Hindi', async ({ page }) => {
  await admin.updateSettings({ operatorIdentity: IDENTITY });
  await page.goto('/');
  await expect(page.getByTestId('operator-footer')).toContainText(`Operated by ${IDENTITY.legalName}`);
  await expect(page.getByTestId('operator-footer')).toContainText(
    `Grievance officer: ${IDENTITY.grievanceOfficerName} · ${IDENTITY.grievanceOfficerEmail} · ${IDENTITY.grievanceOfficerPhone}`,
  );

  const problems: string[] = [];
  for (const path of ['/terms', '/privacy']) {
    await page.goto(path);
    const details = page.getByTestId('operator-identity');
    await expect(details.getByRole('heading', { name: 'Who we are' })).toBeVisible();
    await expect(details).toContainText(IDENTITY.address);
    await expect(details).toContainText(`Registration: ${IDENTITY.registration}`);
    await expect(details.getByRole('link', { name: IDENTITY.grievanceOfficerEmail })).toHaveAttribute('href', `mailto:${IDENTITY.grievanceOfficerEmail}`);
    await expect(details.getByRole('link', { name: IDENTITY.grievanceOfficerPhone })).toHaveAttribute('href', `tel:${IDENTITY.grievanceOfficerPhone}`);
    problems.push(...(await auditPage(page, path)));
  }

  await page.evaluate(() => localStorage.setItem('rupeedesk.language', 'hi'));
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { name: 'हम कौन हैं' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'शिकायत अधिकारी' })).toBeVisible();
  await expect(page.getByTestId('operator-footer')).toContainText(`${IDENTITY.legalName} द्वारा संचालित`);
  problems.push(...(await auditPage(page, '/privacy in Hindi')));
  expectNoProblems(problems);
});

test('the KYC page opens with the consent and privacy notice; the checks follow once it is accepted, and it is not asked again', async ({ page }) => {
  await signUpThroughForm(page, newCustomer(), { kycLevelOne: false });
  await page.goto('/kyc');
  const notice = page.getByTestId('consent-notice');
  await expect(notice.getByRole('heading', { name: 'Consent and privacy notice' })).toBeVisible();
  await expect(notice).toContainText(IDENTITY.legalName);
  await expect(notice).toContainText(IDENTITY.grievanceOfficerEmail);
  await expect(page.getByTestId('kyc-check-pan')).toHaveCount(0);
  expectNoProblems(await auditPage(page, '/kyc consent notice'));

  // Not ticked: said once, at the box, and no toast.
  await notice.getByRole('button', { name: 'Accept and continue' }).click();
  await expect(notice.getByText('Tick the box to accept the notice')).toBeVisible();
  await expect(page.getByRole('region', { name: /Notifications/ }).locator('li')).toHaveCount(0);

  await notice.getByLabel('I have read the consent and privacy notice and agree to it').check();
  await notice.getByRole('button', { name: 'Accept and continue' }).click();
  await expect(page.getByTestId('kyc-check-pan')).toBeVisible();
  await expect(page.getByTestId('consent-notice')).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId('kyc-check-pan')).toBeVisible();
  await expect(page.getByTestId('consent-notice')).toHaveCount(0);
});

test('an admin fills in the operator in the settings’ Support tab: a bad phone is refused at its field, and the saved name reaches the terms page', async ({
  page,
}) => {
  await logInThroughForm(page, E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_ADMIN_PIN);
  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: 'Support' }).click();
  const section = page.getByTestId('operator-identity-settings');
  await section.getByLabel('Operator legal name').fill('Rupeedesk Payments LLP');
  await section.getByLabel('Grievance officer phone').fill('12345');
  await page.getByRole('button', { name: 'Save All Settings' }).click();
  await expect(section.getByText(GRIEVANCE_PHONE_MESSAGE)).toBeVisible();
  await section.getByLabel('Grievance officer phone').fill('+91 80 4000 1234');
  await page.getByRole('button', { name: 'Save All Settings' }).click();
  await expect(page.getByText(SETTINGS_UPDATED_MESSAGE)).toBeVisible();
  await page.goto('/terms');
  await expect(page.getByTestId('operator-identity')).toContainText('Rupeedesk Payments LLP');
  await expect(page.getByTestId('operator-identity').getByRole('link', { name: '+918040001234' })).toBeVisible();
});
