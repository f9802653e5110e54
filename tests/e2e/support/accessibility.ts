import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/* The axe audit of tests/e2e/accessibility.spec.ts (decision 020), shared with the Hindi journey (tests/e2e/hindi.spec.ts). */

/** The serious and critical violations on the page as it is now, one readable line per element. */
export async function seriousViolations(page: Page, what: string): Promise<string[]> {
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
      violation.nodes.map(
        (node) =>
          `${what}: [${violation.impact}] ${violation.id} (${violation.help}) at ${node.target.join(' ')}\n    ${node.failureSummary?.replace(/\n/g, '\n    ') ?? ''}`,
      ),
    );
}

/** Waits for the page's heading and for its data (no loading placeholder left), then checks the landmarks and runs axe. */
export async function auditPage(page: Page, what: string): Promise<string[]> {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0);
  const problems: string[] = [];
  const headings = await page.locator('h1').count();
  if (headings !== 1) problems.push(`${what}: ${headings} h1 elements, expected 1`);
  const mains = await page.locator('main, [role="main"]').count();
  if (mains !== 1) problems.push(`${what}: ${mains} main regions, expected 1`);
  return [...problems, ...(await seriousViolations(page, what))];
}

export function expectNoProblems(problems: string[]): void {
  expect(problems, `accessibility problems:\n${problems.join('\n')}`).toEqual([]);
}
