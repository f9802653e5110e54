import { expect, test, type Locator } from '@playwright/test';
import { logInThroughForm, newCustomer, signOutFromHeader, signUpThroughForm, waitForResetLink } from './support/helpers.ts';

/**
 * A link on its own is at least 24 px high, the smallest target WCAG 2.2 allows a finger (2.5.8). Measured until it
 * holds: while the live login page takes over from the one drawn at build time (decision 065), the link found may be
 * the one just removed, which has no box; a link that is never 24 px high still fails.
 */
async function expectTapTarget(target: Locator): Promise<void> {
  await expect.poll(async () => (await target.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(24);
}

test('a new customer signs up, is asked for the PIN, and reaches the dashboard', async ({ page }) => {
  const customer = newCustomer();
  await signUpThroughForm(page, customer);
  await expect(page.getByText(`Welcome, ${customer.name}`)).toBeVisible();
  await expect(page.getByTestId('balance-chip')).toHaveText('0.00 USDT');
  await expect(page.getByText('+91****5678')).toBeVisible();
});

test('sign-up shows the spec messages for invalid fields', async ({ page }) => {
  await page.goto('/signup');
  await page.getByLabel('Phone').fill('98123');
  await page.getByLabel('Password', { exact: true }).fill('123');
  await page.getByLabel('Confirm Password').fill('1234');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('Full name is required')).toBeVisible();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Phone must start with + (country code)')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(page.getByText('PIN is required')).toBeVisible();
  await page.getByLabel('Full Name').fill('A');
  await expect(page.getByText('Full name is required')).toBeHidden();
});

test('a wrong password shows the login failure on the form', async ({ page }) => {
  const customer = newCustomer();
  await signUpThroughForm(page, customer);
  await signOutFromHeader(page);
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  // SPEC.md's words on the login screen, said once (issue 12: no toast besides).
  await expect(page.getByText('Login failed. Please check your credentials.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('a customer resets a forgotten password with the link from a real e-mail', async ({ page }) => {
  const customer = newCustomer();
  await signUpThroughForm(page, customer);
  await signOutFromHeader(page);

  await page.goto('/login');
  await expectTapTarget(page.getByRole('link', { name: 'Forgot Password?' }));
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page.getByText('Forgot Password', { exact: true })).toBeVisible();
  await expectTapTarget(page.getByRole('link', { name: 'Back to Login' }));
  await page.getByLabel('Email').fill(customer.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Check Your Email')).toBeVisible();
  await expect(page.getByText(customer.email)).toBeVisible();

  const link = await waitForResetLink(customer.email);
  await page.goto(link);
  await page.getByLabel('New Password', { exact: true }).fill('a-new-password');
  await page.getByLabel('Confirm New Password').fill('a-typo-password');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  // Said once, at the confirmation (decision 055: DESIGN.md's errors at the field, not SPEC.md's 'Password Error' toast).
  await expect(page.getByLabel('Confirm New Password')).toHaveAccessibleDescription('Passwords do not match');
  await page.getByLabel('Confirm New Password').fill('a-new-password');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password Reset Successful')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Passwords do not match')).toHaveCount(0);

  // A wrong PIN first: once the right one is in, only the success is on screen.
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill('a-new-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/verify-pin/);
  await page.getByLabel('PIN').fill(customer.pin === '1357' ? '2468' : '1357');
  await page.getByRole('button', { name: 'Verify PIN' }).click();
  // Said once, at the PIN field, in the spec's words (decision 055: DESIGN.md's errors at the field, not SPEC.md's toast).
  await expect(page.getByLabel('PIN')).toHaveAccessibleDescription('Incorrect PIN: PIN verification failed. 2 attempts remaining.');
  await expect(page.getByText(/Incorrect PIN/)).toHaveCount(1);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
  await page.getByLabel('PIN').fill(customer.pin);
  await page.getByRole('button', { name: 'Verify PIN' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('PIN verified', { exact: true })).toBeVisible();
  await expect(page.getByText(/Incorrect PIN/)).toBeHidden();
});

test('a reset link that no longer works says so as soon as it opens; forgot-password takes only an e-mail address', async ({ page }) => {
  const madeUp = 'x'.repeat(43);
  await page.goto(`/reset-password?token=${madeUp}`);
  await expect(page.getByText('This password reset link is invalid or has expired. Please request a new one.')).toBeVisible();
  await expect(page.getByLabel('New Password', { exact: true })).toHaveCount(0);
  await page.goto(`/reset-pin?token=${madeUp}`);
  await expect(page.getByText('This PIN reset link is invalid or has expired. Please request a new one.')).toBeVisible();
  await expect(page.getByLabel('New PIN', { exact: true })).toHaveCount(0);

  await page.goto('/forgot-password');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.getByLabel('Email').fill('+919876543210');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Please enter a valid email address, such as name@example.com.')).toBeVisible();
  await expect(page.getByText('Check Your Email')).toHaveCount(0);
});

test('a customer replaces a forgotten PIN with the password and then the link from a real e-mail', async ({ page }) => {
  // No page may trip the Content-Security-Policy (zod's eval probe used to, on every page that parsed a schema).
  const policyViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|unsafe-eval|Refused to evaluate/i.test(message.text())) policyViolations.push(message.text());
  });
  const customer = newCustomer();
  await signUpThroughForm(page, customer);
  await signOutFromHeader(page);
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/verify-pin/);

  await page.getByRole('link', { name: 'Forgot PIN?' }).click();
  await expect(page).toHaveURL(/\/reset-pin$/);
  await page.getByLabel('Account Password').fill(customer.password);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Check Your Email')).toBeVisible();
  await expect(page.getByText('We have e-mailed you a link to reset your PIN. It works once, within 30 minutes.')).toBeVisible();

  const link = await waitForResetLink(customer.email, '/reset-pin');
  await page.goto(link);
  await expect(page.getByText('Reset Your PIN')).toBeVisible();
  await page.getByLabel('New PIN', { exact: true }).fill('9731');
  await page.getByLabel('Confirm New PIN').fill('9731');
  await page.getByRole('button', { name: 'Reset PIN' }).click();
  await expect(page.getByText('PIN reset successful')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);

  await signOutFromHeader(page);
  await logInThroughForm(page, customer.email, customer.password, '9731');
  expect(policyViolations).toEqual([]);
});

test('three wrong PINs log the customer out', async ({ page }) => {
  const customer = newCustomer();
  await signUpThroughForm(page, customer);
  await signOutFromHeader(page);
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/verify-pin/);
  for (const [pin, remaining] of [
    ['0000', '2 attempts'],
    ['1111', '1 attempt'],
  ] as const) {
    await page.getByLabel('PIN').fill(pin);
    await page.getByRole('button', { name: 'Verify PIN' }).click();
    await expect(page.getByText(`PIN verification failed. ${remaining} remaining.`)).toBeVisible();
  }
  await page.getByLabel('PIN').fill('2222');
  await page.getByRole('button', { name: 'Verify PIN' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // Said once, in one banner on the login page (not a toast that outlives the page it was about).
  await expect(page.getByRole('alert').filter({ hasText: 'Too many failed attempts' })).toContainText('For security reasons you will be logged out.');
  await expect(page.getByText('Too many failed attempts')).toHaveCount(1);
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
});

test('customer pages send a visitor to the login page and back after signing in', async ({ page }) => {
  const customer = newCustomer();
  await signUpThroughForm(page, customer);
  await signOutFromHeader(page);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);

  // Signing in from there keeps the way back through the PIN screen, and ends on the page asked for.
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill(customer.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/verify-pin\?next=%2Fprofile$/);
  await page.getByLabel('PIN').fill(customer.pin);
  await page.getByRole('button', { name: 'Verify PIN' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
});

test('the 404 page offers the way back, and PIN screens for PIN-like paths', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  for (const name of ['Return to Home', 'Login', 'Sign Up']) await expect(page.getByRole('link', { name })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Verify PIN' })).toHaveCount(0);

  await page.goto('/verify-pin-now');
  for (const name of ['Verify PIN', 'Setup PIN', 'Reset PIN']) await expect(page.getByRole('link', { name })).toBeVisible();
});
