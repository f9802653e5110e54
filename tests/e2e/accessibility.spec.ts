import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
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

/** The serious and critical violations on the page as it is now, one readable line per element. */
async function seriousViolations(page: Page, what: string): Promise<string[]> {
  // Colours are measured as painted: a button still fading in would be judged on a blend of two colours.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => `${what}: [${violation.impact}] ${violation.id} (${violation.help}) at ${node.target.join(' ')}\n    ${node.failureSummary?.replace(/\n/g, '\n    ') ?? ''}`),
    );
}

/** Waits for the page's heading and for its data (no loading placeholder left), then checks the landmarks and runs axe. */
async function auditPage(page: Page, what: string): Promise<string[]> {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0);
  const problems: string[] = [];
  const headings = await page.locator('h1').count();
  if (headings !== 1) problems.push(`${what}: ${headings} h1 elements, expected 1`);
  const mains = await page.locator('main, [role="main"]').count();
  if (mains !== 1) problems.push(`${what}: ${mains} main regions, expected 1`);
  return [...problems, ...(await seriousViolations(page, what))];
}

function expectNoProblems(problems: string[]): void {
  expect(problems, `accessibility problems:\n${problems.join('\n')}`).toEqual([]);
}

for (const width of PHONE_WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('every public page passes axe with one h1 and one main', async ({ page }) => {
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
