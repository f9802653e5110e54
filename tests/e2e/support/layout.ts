import { expect, type Locator, type Page } from '@playwright/test';

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

/** The element is laid out with some room and shows all of its text: no ellipsis and no clamped line cuts it off. */
export async function expectWhollyShown(element: Locator, what: string): Promise<void> {
  const extent = await element.evaluate((node) => ({
    scrollWidth: node.scrollWidth,
    clientWidth: node.clientWidth,
    scrollHeight: node.scrollHeight,
    clientHeight: node.clientHeight,
  }));
  expect(extent.clientWidth, `${what} has no room`).toBeGreaterThan(0);
  expect(extent.scrollWidth, `${what} is cut off at the side`).toBeLessThanOrEqual(extent.clientWidth);
  expect(extent.scrollHeight, `${what} is cut off below`).toBeLessThanOrEqual(extent.clientHeight);
}
