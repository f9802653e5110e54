import { expect as baseExpect, test } from '@playwright/test';
import { PASSWORD_CHANGED_MESSAGE, PROFILE_UPDATED_MESSAGE, WRONG_CURRENT_PASSWORD_MESSAGE } from '#shared/contracts/auth';
import { WEAK_PIN_MESSAGE } from '#shared/contracts/pin';
import type { ReceivedMail } from '../fixtures/mail-server.ts';
import { E2E_INBOX_PORT } from './support/constants.ts';
import { logInThroughForm, newCustomer, signOutFromHeader, signUpThroughForm } from './support/helpers.ts';

// Pages load slowly on a machine shared with other test runs; no assertion here measures speed.
const expect = baseExpect.configure({ timeout: 30_000 });

/** The text of the newest mail to `to` whose subject contains `subject`, read from the test SMTP server's inbox. */
async function waitForMailText(to: string, subject: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const response = await fetch(`http://127.0.0.1:${E2E_INBOX_PORT}/messages?to=${encodeURIComponent(to)}`);
    const messages = (await response.json()) as ReceivedMail[];
    const found = messages.findLast((message) => /^Subject: (.*)$/m.exec(message.decoded)?.[1]?.includes(subject));
    if (found) return found.decoded;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No mail "${subject}" reached ${to}`);
}

test.describe('the account on the profile page', () => {
  // Two browsers, sign-up, sign-in and a password hashed three times: more than the default minute on a busy machine.
  test.slow();

  test('change password end to end: wrong current password at its field, then the change; the other device is signed out; the e-mail arrives', async ({
    page,
    browser,
  }) => {
    const customer = newCustomer({ name: 'Ishaan Verma' });
    await signUpThroughForm(page, customer);
    const otherContext = await browser.newContext();
    const otherPage = await otherContext.newPage();
    await logInThroughForm(otherPage, customer.email, customer.password, customer.pin);

    await page.goto('/profile');
    await expect(page.getByRole('main').getByText(customer.email).first()).toBeVisible();
    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await dialog.getByLabel('Current Password').fill('not-my-password');
    await dialog.getByLabel('New Password', { exact: true }).fill('ishaan-new-password');
    await dialog.getByLabel('Confirm New Password').fill('ishaan-new-password');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(dialog.getByText(WRONG_CURRENT_PASSWORD_MESSAGE)).toBeVisible();
    await expect(dialog.getByLabel('Current Password')).toHaveAttribute('aria-invalid', 'true');

    await dialog.getByLabel('Current Password').fill(customer.password);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText(PASSWORD_CHANGED_MESSAGE)).toBeVisible();
    await expect(dialog).toHaveCount(0);

    const mail = await waitForMailText(customer.email, 'your password was changed');
    expect(mail).toContain('every other session of it was signed out');

    // The other device's session has ended: its next page load asks it to sign in.
    await otherPage.goto('/dashboard');
    await expect(otherPage).toHaveURL(/\/login/);
    await otherContext.close();

    // This device stays signed in; the new password is the one that works from now on.
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard$/);
    await signOutFromHeader(page);
    await logInThroughForm(page, customer.email, 'ishaan-new-password', customer.pin);
  });

  test('name and phone are edited on the profile; the phone change is e-mailed', async ({ page }) => {
    const customer = newCustomer({ name: 'Ritu Old', phone: '+919811112222' });
    await signUpThroughForm(page, customer);
    await page.goto('/profile');
    await expect(page.getByTestId('profile-email')).toHaveText(customer.email);
    await page.getByRole('button', { name: 'Edit details' }).click();
    await page.getByLabel('Full Name').fill('Ritu New');
    await page.getByLabel('Phone Number').fill('12345');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Phone must start with + (country code)')).toBeVisible();
    await page.getByLabel('Phone Number').fill('+91 98111 13333');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText(PROFILE_UPDATED_MESSAGE)).toBeVisible();
    await expect(page.getByTestId('profile-name')).toHaveText('Ritu New');
    await expect(page.getByTestId('profile-phone')).toHaveText('+919811113333');
    expect(await waitForMailText(customer.email, 'your phone number was changed')).toContain('If this was not you');
  });

  test('sign-up refuses a PIN that is too easy to guess, as Change PIN does', async ({ page }) => {
    const customer = newCustomer({ pin: '1234' });
    await page.goto('/signup');
    await page.getByLabel('Full Name').fill(customer.name);
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Phone').fill(customer.phone);
    await page.getByLabel('Password', { exact: true }).fill(customer.password);
    await page.getByLabel('Confirm Password').fill(customer.password);
    await page.getByLabel('Transaction PIN (4 digits)').fill('1234');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText(WEAK_PIN_MESSAGE).first()).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);
  });
});
