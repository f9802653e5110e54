import { expect as baseExpect, test } from '@playwright/test';
import { EMAIL_VERIFIED_MESSAGE, VERIFICATION_LINK_USED_MESSAGE } from '#shared/contracts/contact-verification';
import type { ReceivedMail } from '../fixtures/mail-server.ts';
import { E2E_INBOX_PORT } from './support/constants.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';

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
