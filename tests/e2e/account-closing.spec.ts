import { expect, test } from '@playwright/test';
import { ACCOUNT_CLOSING_MESSAGES } from '#shared/contracts/account-closing';
import { WRONG_CURRENT_PASSWORD_MESSAGE } from '#shared/contracts/auth';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';

// Issue 32, decision 060: a customer closes their own account from the profile, on a phone.
test.use({ viewport: { width: 390, height: 844 } });

test('a customer with nothing left closes the account from the profile and cannot sign in again', async ({ page }) => {
  const customer = newCustomer({ name: 'Kavya Closing' });
  await signUpThroughForm(page, customer);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Close account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Close your account?' });
  await expect(dialog.getByText('Your balance must be zero, with no deposit, withdrawal or transfer in progress.')).toBeVisible();

  const password = dialog.getByLabel('Current Password');
  await password.fill('not-my-password');
  await dialog.getByRole('button', { name: 'Close account' }).click();
  await expect(password).toHaveAccessibleDescription(WRONG_CURRENT_PASSWORD_MESSAGE);
  await expect(page.getByText(WRONG_CURRENT_PASSWORD_MESSAGE)).toHaveCount(1);

  await password.fill(customer.password);
  await dialog.getByRole('button', { name: 'Close account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('signed-out-notice')).toContainText('Your account is closed.');

  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText(ACCOUNT_CLOSING_MESSAGES.signInRefused)).toHaveCount(1);
  await expect(page).toHaveURL(/\/login$/);
});
