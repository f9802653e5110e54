import { expect, test } from '@playwright/test';
import { auditPage, expectNoProblems, seriousViolations } from './support/accessibility.ts';
import { submitDepositAs } from './support/admin-api.ts';
import { PHONE_WIDTHS } from './support/layout.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';
import { useFileAdmin } from './support/file-admin.ts';

/*
 * Item 9 of issue 12 (docs/decisions/020): every customer and public page passes
 * axe-core (WCAG 2 A and AA rules) with no serious or critical violation, has one
 * h1 and one main region, and a dialog gives focus back to the button that opened it.
 */

const admin = useFileAdmin();

const PUBLIC_PAGES = ['/', '/login', '/signup', '/forgot-password', '/reset-password?token=x', '/privacy', '/terms', '/contact', '/no-such-page'];

for (const width of PHONE_WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('every public page passes axe with one h1 and one main', async ({ page }) => {
      // Nine pages, each audited by axe: on a busy machine that takes more than the default minute.
      test.setTimeout(150_000);
      const problems: string[] = [];
      for (const url of PUBLIC_PAGES) {
        await page.goto(url);
        problems.push(...(await auditPage(page, url)));
      }
      expectNoProblems(problems);
    });

    test('every customer page passes axe with one h1 and one main, the transfer dialog open included', async ({ page }) => {
      test.setTimeout(180_000);
      await signUpThroughForm(page, newCustomer());
      const deposit = await submitDepositAs(page, '25');
      await admin().approveDeposit(deposit.id);

      const problems: string[] = [];
      const customerPages = [
        '/dashboard',
        '/wallet',
        '/wallet/history',
        `/wallet/transactions/deposit/${deposit.id}`,
        '/wallet/deposit',
        '/wallet/withdraw',
        '/wallet/wallets',
        '/bank-accounts',
        '/profile',
        '/referral-vip',
        '/notifications',
      ];
      for (const url of customerPages) {
        await page.goto(url);
        problems.push(...(await auditPage(page, url)));
      }

      await page.goto('/wallet');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.getByRole('button', { name: 'Transfer USDT' }).click();
      await expect(page.getByRole('dialog', { name: 'Transfer USDT' })).toBeVisible();
      problems.push(...(await seriousViolations(page, '/wallet with the transfer dialog open')));
      expectNoProblems(problems);
    });

    test('a dialog gives focus back to the button that opened it, with the keyboard alone', async ({ page }) => {
      await signUpThroughForm(page, newCustomer());
      await page.goto('/wallet');
      const transfer = page.getByRole('button', { name: 'Transfer USDT' });
      await transfer.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Transfer USDT' });
      await expect(dialog).toBeVisible();
      await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(transfer).toBeFocused();

      const signOut = page.getByRole('button', { name: 'Sign out' });
      await signOut.focus();
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('alertdialog', { name: 'Log out' });
      await expect(confirm).toBeVisible();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(signOut).toBeFocused();
    });
  });
}
