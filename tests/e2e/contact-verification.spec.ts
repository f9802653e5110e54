import { expect as baseExpect, test } from '@playwright/test';
import {
  codeSentMessage,
  EMAIL_VERIFIED_MESSAGE,
  maskedPhoneNumber,
  PHONE_VERIFIED_MESSAGE,
  VERIFICATION_LINK_USED_MESSAGE,
  wrongCodeMessage,
} from '#shared/contracts/contact-verification';
import type { ReceivedMail } from '../fixtures/mail-server.ts';
import { E2E_INBOX_PORT } from './support/constants.ts';
import { acceptConsentAs, newCustomer, signUpThroughForm } from './support/helpers.ts';
import { kycStandInUrl } from './support/kyc-stand-in.ts';
import { expectNoSidewaysScroll } from './support/layout.ts';

// Pages load slowly on a machine shared with other test runs; no assertion here measures speed.
const expect = baseExpect.configure({ timeout: 30_000 });

/** The verification link in the newest sign-up mail to `to`, read from the real test SMTP server's inbox. */
async function waitForVerificationLink(to: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await fetch(`http://127.0.0.1:${E2E_INBOX_PORT}/messages?to=${encodeURIComponent(to)}`);
    const messages = (await response.json()) as ReceivedMail[];
    const link = messages
      .map((message) => /https?:\/\/\S+\/verify-email\?token=[A-Za-z0-9_%-]+/.exec(message.decoded)?.[0])
      .findLast((found) => found !== undefined);
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No verification mail reached ${to}`);
}

test.describe('verifying the e-mail address', () => {
  test.slow();

  test('the link e-mailed at sign-up verifies the address once; the profile shows it verified', async ({ page }) => {
    const customer = newCustomer({ name: 'Devika Menon' });
    await signUpThroughForm(page, customer, { kycLevelOne: false });
    await page.goto('/profile');
    const card = page.getByRole('region', { name: 'E-mail' });
    await expect(card.getByText('Not verified')).toBeVisible();

    const link = new URL(await waitForVerificationLink(customer.email));
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { name: 'E-mail verified' })).toBeVisible();
    await expect(page.getByText(EMAIL_VERIFIED_MESSAGE)).toBeVisible();

    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { name: 'Link already used' })).toBeVisible();
    await expect(page.getByText(VERIFICATION_LINK_USED_MESSAGE)).toBeVisible();

    await page.getByRole('link', { name: 'Go to your profile' }).click();
    await expect(page.getByRole('region', { name: 'E-mail' }).getByText('Verified', { exact: true })).toBeVisible();
  });

  test('the sign-up asks for the location with its reason, and refusing does not block the sign-up', async ({ page }) => {
    await page.goto('/signup');
    const ask = page.getByTestId('signup-location');
    await expect(ask).toContainText('record where accounts are opened');
    await ask.getByRole('button', { name: 'Not now' }).click();
    await expect(ask).toContainText('No location will be recorded; you can still sign up.');
  });
});

/** The 6-digit code in the newest text message to `phone`, read from the e2e server's SMS outbox (no SMS_PROVIDER is set). */
async function waitForSmsCode(phone: string, notThis?: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await fetch(`${kycStandInUrl()}/_e2e/latest-sms`, { method: 'POST', body: JSON.stringify({ to: phone }) });
    const code = response.ok ? /\b(\d{6}) is your /.exec(((await response.json()) as { text: string }).text)?.[1] : undefined;
    if (code !== undefined && code !== notThis) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No code was texted to ${phone}`);
}

test.describe('verifying the mobile number on a phone', () => {
  test.slow();
  test.use({ viewport: { width: 390, height: 844 } });

  test('the code texted to the number verifies it; a wrong code is refused at the field with the attempts left', async ({ page }) => {
    // A number of its own: the codes texted to one number a day are limited.
    const phone = `+9197${String(Date.now()).slice(-8)}`;
    const customer = newCustomer({ name: 'Arjun Pillai', phone });
    await signUpThroughForm(page, customer, { kycLevelOne: false });
    await page.goto('/profile');
    const mobile = page.getByRole('region', { name: 'Mobile number' });
    await expect(mobile.getByText('Not verified')).toBeVisible();
    await mobile.getByRole('button', { name: 'Send code by SMS' }).click();
    await expect(page.getByRole('region', { name: /Notifications/ }).getByText(codeSentMessage(maskedPhoneNumber(phone)), { exact: true })).toBeVisible();
    const code = await waitForSmsCode(phone);

    const codeField = mobile.getByLabel('6-digit code');
    await codeField.fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
    await mobile.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(mobile.getByText(wrongCodeMessage(4), { exact: true })).toBeVisible();
    await expect(codeField).toHaveAttribute('aria-invalid', 'true');
    await expectNoSidewaysScroll(page, '/profile with the code refused');

    await codeField.fill(code);
    await mobile.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByRole('region', { name: /Notifications/ }).getByText(PHONE_VERIFIED_MESSAGE, { exact: true })).toBeVisible();
    await expect(mobile.getByText('Verified', { exact: true })).toBeVisible();
    await expect(codeField).toHaveCount(0);
    // The KYC page (past its consent step) counts the check as done.
    await acceptConsentAs(page.request);
    await page.goto('/kyc');
    await expect(page.getByTestId('kyc-check-mobile')).toContainText('Done');
  });
});
