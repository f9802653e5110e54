import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { CONSENT_NOTICE_VERSION } from '#shared/contracts/operator-identity';
import { uniquePersonPan } from '../../fixtures/cashfree-stand-in.ts';
import { findResetLink, type ReceivedMail } from '../../fixtures/mail-server.ts';
import { E2E_BASE_URL, E2E_INBOX_PORT } from './constants.ts';
import { kycStandInUrl } from './kyc-stand-in.ts';

let counter = 0;
export function uniqueEmail(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

export interface NewCustomer {
  name: string;
  email: string;
  phone: string;
  password: string;
  pin: string;
}

export function newCustomer(overrides: Partial<NewCustomer> = {}): NewCustomer {
  return { name: 'Meera Iyer', email: uniqueEmail(), phone: '+919812345678', password: 'meera-password', pin: '2580', ...overrides };
}

/** The app a customer signs up on: the shared e2e server, or a spec's extra app (extra-app.ts). */
export interface CustomerServer {
  baseUrl: string;
  markContactsVerified(email: string): Promise<void>;
}

const sharedServer: CustomerServer = {
  baseUrl: E2E_BASE_URL,
  async markContactsVerified(email) {
    const marked = await fetch(`${kycStandInUrl()}/_e2e/contacts-verified`, { method: 'POST', body: JSON.stringify({ email }) });
    expect(marked.status, 'the e2e server marks the contacts verified').toBe(204);
  },
};

/**
 * Brings the customer signed in on `request` to KYC level 1 (decision 042): their e-mail and mobile are marked verified
 * in the app's database (those flows have their own tests) and a PAN is registered under their name in the Cashfree
 * stand-in; the PAN and the tax residence then go through the app's API, as the KYC page sends them.
 */
/** Accepts the consent and privacy notice, as the KYC page's first step does (decision 051). */
export async function acceptConsentAs(request: APIRequestContext, server: Pick<CustomerServer, 'baseUrl'> = sharedServer): Promise<void> {
  const accepted = await request.post(`${server.baseUrl}/api/kyc/consent`, {
    data: { noticeVersion: CONSENT_NOTICE_VERSION },
    headers: { origin: server.baseUrl },
  });
  expect(accepted.status(), 'the consent and privacy notice accepted').toBe(200);
}

export async function reachKycLevelOneAs(request: APIRequestContext, customer: NewCustomer, server: CustomerServer = sharedServer): Promise<void> {
  await acceptConsentAs(request, server);
  await server.markContactsVerified(customer.email);
  const pan = uniquePersonPan();
  const registered = await fetch(`${kycStandInUrl()}/_e2e/register-pan`, { method: 'POST', body: JSON.stringify({ name: customer.name, pan }) });
  expect(registered.status, 'the stand-in registers the PAN').toBe(204);
  const headers = { origin: server.baseUrl };
  expect((await request.post(`${server.baseUrl}/api/kyc/pan`, { data: { pan }, headers })).status(), 'PAN submission').toBe(200);
  const declared = await request.post(`${server.baseUrl}/api/kyc/tax-residence`, { data: { residence: 'india', confirmed: true }, headers });
  expect(declared.status(), 'tax residence declaration').toBe(200);
  expect(((await declared.json()) as { kyc: { level: number } }).kyc.level, 'KYC level').toBe(1);
}

/** Signs up through the form, verifies the PIN and reaches KYC level 1 (reachKycLevelOneAs), ending on the dashboard. */
export async function signUpThroughForm(
  page: Page,
  customer: NewCustomer,
  options: { referralCode?: string; kycLevelOne?: boolean; server?: CustomerServer } = {},
): Promise<void> {
  await page.goto(options.referralCode ? `/signup?ref=${options.referralCode}` : '/signup');
  await page.getByLabel('Full Name').fill(customer.name);
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Phone').fill(customer.phone);
  await page.getByLabel('Password', { exact: true }).fill(customer.password);
  await page.getByLabel('Confirm Password').fill(customer.password);
  await page.getByLabel('Transaction PIN (4 digits)').fill(customer.pin);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/verify-pin/);
  await page.getByLabel('PIN').fill(customer.pin);
  await page.getByRole('button', { name: 'Verify PIN' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  if (options.kycLevelOne !== false) await reachKycLevelOneAs(page.request, customer, options.server);
}

/** Logs in through the form and verifies (or sets up) the PIN, ending on the dashboard. */
export async function logInThroughForm(page: Page, email: string, password: string, pin: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/(verify-pin|pin-setup)/);
  if (page.url().includes('/pin-setup')) {
    await page.getByLabel('New PIN').fill(pin);
    await page.getByLabel('Confirm PIN').fill(pin);
    await page.getByRole('button', { name: 'Set PIN' }).click();
  } else {
    await page.getByLabel('PIN').fill(pin);
    await page.getByRole('button', { name: 'Verify PIN' }).click();
  }
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Waits for a mail to `to` in the real SMTP server's inbox and returns the reset link in it. */
export async function waitForResetLink(to: string, linkPage: '/reset-password' | '/reset-pin' = '/reset-password'): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await fetch(`http://127.0.0.1:${E2E_INBOX_PORT}/messages?to=${encodeURIComponent(to)}`);
    const messages = (await response.json()) as ReceivedMail[];
    const link = messages.map((message) => findResetLink(message.decoded, linkPage)).findLast((candidate) => candidate !== undefined);
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No reset mail reached ${to}`);
}

/** The header's Sign out asks first, like Profile's Logout; this confirms and waits for the login page. */
export async function signOutFromHeader(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('alertdialog', { name: 'Log out' }).getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}
