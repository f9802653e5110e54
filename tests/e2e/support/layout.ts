import { expect, type Page } from '@playwright/test';

/** The phone widths every customer-facing browser test runs at: a common phone and the narrowest we support. */
export const PHONE_WIDTHS = [390, 320] as const;

/** The page itself never scrolls sideways: its scrolling element is no wider than the window. */
export async function expectNoSidewaysScroll(page: Page, what: string = page.url()): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const scrolling = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: scrolling.scrollWidth, clientWidth: scrolling.clientWidth };
  });
  expect(scrollWidth, `${what} scrolls sideways (${scrollWidth} > ${clientWidth})`).toBeLessThanOrEqual(clientWidth);
}
