import { expect, test } from '@playwright/test';
import { ACCOUNT_CLOSING_MESSAGES } from '#shared/contracts/account-closing';
import { meResponseSchema, WRONG_CURRENT_PASSWORD_MESSAGE } from '#shared/contracts/auth';
import { openAdminAndCustomer } from './support/admin-and-customer.ts';
import { E2E_BASE_URL } from './support/constants.ts';
import { logInThroughForm, newCustomer, signUpThroughForm } from './support/helpers.ts';

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

test('an admin sees the closed account on its user page and reopens it with a reason; its owner signs in again', async ({ browser }) => {
  const desk = await openAdminAndCustomer(browser, { customer: { name: 'Ravi Reopened' }, adminViewport: { width: 1366, height: 900 } });
  try {
    const { customerPage, adminPage, customer } = desk;
    const me = meResponseSchema.parse(await (await customerPage.request.get(`${E2E_BASE_URL}/api/me`)).json());
    const closed = await customerPage.request.post(`${E2E_BASE_URL}/api/auth/close-account`, {
      data: { currentPassword: customer.password },
      headers: { origin: E2E_BASE_URL },
    });
    expect(closed.status()).toBe(200);

    await adminPage.goto(`/admin/users/${me.id}`);
    await expect(adminPage.getByText('Closed', { exact: true })).toBeVisible();
    const card = adminPage.getByTestId('closed-account');
    await expect(card).toContainText('Closed by the customer on');
    await card.getByRole('button', { name: 'Reopen account' }).click();
    const dialog = adminPage.getByRole('alertdialog', { name: 'Reopen this account?' });
    await dialog.getByRole('button', { name: 'Reopen account' }).click();
    await expect(dialog.getByLabel('Reason')).toHaveAccessibleDescription(/Please say why the account is reopened/);
    await dialog.getByLabel('Reason').fill('The customer asked to come back');
    await dialog.getByRole('button', { name: 'Reopen account' }).click();
    await expect(adminPage.getByRole('region', { name: /Notifications/ }).getByText(ACCOUNT_CLOSING_MESSAGES.reopened)).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(adminPage.getByText('Closed', { exact: true })).toHaveCount(0);

    await logInThroughForm(customerPage, customer.email, customer.password, customer.pin);
    await expect(customerPage).toHaveURL(/\/dashboard$/);
  } finally {
    await desk.close();
  }
});
