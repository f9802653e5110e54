import { expect, test } from '@playwright/test';
import { uniqueEmail } from './support/helpers.ts';

/*
 * Issue 33, item 9 (decision 065): the landing and login pages arrive drawn, so that a phone shows them
 * before any JavaScript has run; the live page then takes their place unseen, with what was typed.
 */

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the landing and login pages still show, and the login form cannot be sent by the browser itself', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Turn USDT into rupees, straight to your bank' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signup');
    await expect(page.getByText('Exchange Rates')).toBeVisible();

    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByLabel('Email')).not.toHaveAttribute('name');
    await expect(page.getByLabel('Password', { exact: true })).not.toHaveAttribute('name');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeDisabled();
  });
});

test('what a visitor types before the JavaScript runs moves into the live form, with the focus', async ({ page }) => {
  // The app's entry script is held until the visitor has typed into the drawn form.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
  const email = uniqueEmail('drawn');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password-1');
  await expect(page.locator('#prerendered-page')).toHaveCount(1);

  release();
  await expect(page.locator('#prerendered-page')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toHaveCount(1);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('not-the-password-1');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  // The live form holds both values: the server, not the form's own checks, answers.
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Login failed. Please check your credentials.')).toBeVisible();
});

test('a device that chose Hindi is sent the pages undrawn, so no English shows first', async ({ page }) => {
  const first = await page.goto('/');
  expect(await first?.text()).toContain('id="prerendered-page"');
  await expect(page.locator('#prerendered-page')).toHaveCount(0);
  await page.getByLabel('Language').selectOption('hi');
  await expect(page.getByRole('heading', { level: 1, name: 'USDT को रुपयों में बदलें, सीधे अपने बैंक खाते में' })).toBeVisible();

  for (const url of ['/', '/login']) {
    const response = await page.goto(url);
    expect(await response?.text(), url).not.toContain('prerendered-page');
  }
  await expect(page.getByRole('heading', { level: 1, name: 'फिर से स्वागत है' })).toBeVisible();
});
