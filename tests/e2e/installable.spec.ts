import { expect, test, type Page } from '@playwright/test';
import { PHONE_WIDTHS } from './support/layout.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';

/*
 * The installable app (docs/decisions/020): the manifest and its icons, the
 * service worker that keeps the app shell and hashed assets, and never an API answer.
 */

interface WebAppManifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

async function waitForControllingServiceWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw\.js$/);
}

async function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
}

for (const width of PHONE_WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('the manifest is linked, valid, and its icons load', async ({ page }) => {
      await page.goto('/');
      const href = await page.locator('link[rel="manifest"]').getAttribute('href');
      expect(href).toBe('/manifest.webmanifest');
      const response = await page.request.get(href ?? '');
      expect(response.ok()).toBe(true);
      expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
      const manifest = (await response.json()) as WebAppManifest;
      expect(manifest).toMatchObject({ name: 'Rupeedesk', short_name: 'Rupeedesk', scope: '/', display: 'standalone', theme_color: '#0f766e' });
      expect(manifest.start_url.startsWith('/')).toBe(true);
      expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)).toEqual(
        expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
      );
      for (const icon of manifest.icons) {
        const image = await page.request.get(icon.src);
        expect(image.ok(), icon.src).toBe(true);
        expect(image.headers()['content-type']).toBe('image/png');
        const size = await page.evaluate(async (src) => {
          const bitmap = await createImageBitmap(await (await fetch(src)).blob());
          return `${bitmap.width}x${bitmap.height}`;
        }, icon.src);
        expect(size, icon.src).toBe(icon.sizes);
      }
      await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0f766e');
      expect((await page.request.get((await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')) ?? '')).ok()).toBe(true);
    });

    test('the service worker controls the page, keeps the shell for offline starts, and never answers an API request', async ({ page, context }) => {
      const apiResponses: { url: string; fromServiceWorker: boolean }[] = [];
      page.on('response', (response) => {
        const url = new URL(response.url());
        if (url.pathname.startsWith('/api/')) apiResponses.push({ url: url.pathname, fromServiceWorker: response.fromServiceWorker() });
      });

      await page.goto('/');
      await waitForControllingServiceWorker(page);
      // Browse as a customer: balances, the event stream, the transactions list all go through a controlled page.
      await signUpThroughForm(page, newCustomer());
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.goto('/wallet/history');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

      expect(apiResponses.length).toBeGreaterThan(0);
      expect(apiResponses.filter((response) => response.fromServiceWorker)).toEqual([]);
      const cached = await cachedUrls(page);
      expect(cached).toContain('/');
      expect(cached.some((url) => url.startsWith('/assets/'))).toBe(true);
      expect(cached.filter((url) => url.startsWith('/api/'))).toEqual([]);

      // The hashed assets come from the cache once kept; the page itself from the network while it answers.
      const navigation = await page.reload();
      expect(navigation?.fromServiceWorker()).toBe(true);

      // Offline, the installed app still opens: the shell and its assets come from the cache.
      await context.setOffline(true);
      try {
        await page.goto('/dashboard');
        await expect(page.locator('#root')).not.toBeEmpty();
      } finally {
        await context.setOffline(false);
      }
    });

    test('the landing page offers Install app when the browser offers the installation', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0);
      // Headless Chromium never offers the installation by itself; the page gets the event the browser would send.
      await expect
        .poll(() =>
          page.evaluate(() => {
            const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
              prompt: () => {
                (window as unknown as { installPrompted: boolean }).installPrompted = true;
                return Promise.resolve();
              },
              userChoice: Promise.resolve({ outcome: 'accepted' }),
            });
            window.dispatchEvent(offer);
            return offer.defaultPrevented;
          }),
        )
        .toBe(true);
      const install = page.getByRole('button', { name: 'Install app' });
      await expect(install).toBeVisible();
      await install.click();
      await expect.poll(() => page.evaluate(() => (window as unknown as { installPrompted?: boolean }).installPrompted === true)).toBe(true);
      await expect(install).toHaveCount(0);
    });
  });
}
