import { expect as baseExpect, test, type Locator, type Page } from '@playwright/test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { depositAddressResponseSchema } from '#shared/contracts/deposit-addresses';
import type { DepositNetwork } from '#shared/contracts/enums';
import { deriveDepositAddress } from '../../src/server/features/deposit-addresses/derivation.ts';
import { TEST_DEPOSIT_XPUBS } from '../fixtures/deposit-keys.ts';
import { AdminApi } from './support/admin-api.ts';
import { E2E_BASE_URL, E2E_PORT } from './support/constants.ts';
import { startExtraApp, type ExtraApp } from './support/extra-app.ts';
import { newCustomer, signUpThroughForm } from './support/helpers.ts';

// The shared e2e server keeps the shared addresses (its tests submit hashes to them); this app is given
// the test mnemonic's account keys, so every customer of it has deposit addresses of their own.
// jsqr is CommonJS with its function as `exports.default`, as src/server/features/files/qr-image.ts reaches it.
const jsQR = jsQRModule.default;
const PORT = E2E_PORT + 3;
// Pages of a cold server on a shared, busy machine take their time; the assertions say what, not how fast.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });
let app: ExtraApp;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  app = await startExtraApp({
    port: PORT,
    env: { SECURITY_COOLING_OFF_HOURS: '0', DEPOSIT_XPUB_TRC20: TEST_DEPOSIT_XPUBS.TRC20, DEPOSIT_XPUB_ERC20: TEST_DEPOSIT_XPUBS.ERC20 },
  });
});
test.afterAll(async () => {
  await app?.stop();
});

/** What a phone's scanner reads from the QR code as the browser drew it: the pixels of the element's screenshot. */
async function decodeQrCode(image: Locator): Promise<string | undefined> {
  const png = PNG.sync.read(await image.screenshot());
  return jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data;
}

/**
 * The QR code's pixels as the page decoded its image: drawn at its natural size onto a canvas in the
 * page and read back with getImageData, then decoded here.
 */
async function decodeQrCodeInPage(image: Locator): Promise<string | undefined> {
  const pixels = await image.evaluate(async (element) => {
    if (!(element instanceof HTMLImageElement)) throw new Error('the QR code is not an image');
    await element.decode();
    const canvas = document.createElement('canvas');
    canvas.width = element.naturalWidth;
    canvas.height = element.naturalHeight;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    context.drawImage(element, 0, 0);
    return { width: canvas.width, height: canvas.height, data: Array.from(context.getImageData(0, 0, canvas.width, canvas.height).data) };
  });
  return jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height)?.data;
}

/** The signed-in customer's own address as the API answers it to the page's session. */
async function ownAddressOf(page: Page, network: DepositNetwork) {
  const response = await page.request.get(`/api/deposits/address?network=${network}`);
  expect(response.status()).toBe(200);
  return depositAddressResponseSchema.parse(await response.json());
}

test.describe('with extended public keys', () => {
  test.use({ baseURL: `http://localhost:${PORT}` });

  test('two customers see two different addresses', async ({ browser }) => {
    const addresses: string[] = [];
    for (const name of ['Arjun Das', 'Neha Gupta']) {
      const context = await browser.newContext({ baseURL: `http://localhost:${PORT}` });
      const page = await context.newPage();
      await signUpThroughForm(page, newCustomer({ name }), { kycLevelOne: false });
      await page.goto('/wallet/deposit');
      const shown = page.getByTestId('deposit-address');
      await expect(shown).toHaveText(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      addresses.push((await shown.textContent()) ?? '');
      await context.close();
    }
    expect(addresses[0]).not.toBe(addresses[1]);
  });
});

test.describe('without extended public keys', () => {
  test.use({ baseURL: E2E_BASE_URL });

  test('the shared address’s QR code is drawn from the address, and the hash form stays', async ({ page }) => {
    const admin = await AdminApi.open();
    const sharedAddress = await admin.ensureTrc20DepositAddress();
    await admin.dispose();
    await signUpThroughForm(page, newCustomer());
    await page.goto('/wallet/deposit');
    await expect(page.getByLabel('TRC20 Deposit Address')).toHaveText(sharedAddress);
    await expect(page.getByLabel('Transaction Hash')).toBeVisible();
    await page.getByRole('tab', { name: 'QR Code' }).click();
    const qrCode = page.getByRole('img', { name: 'QR code of the TRC20 deposit address' });
    await expect(qrCode).toBeVisible();
    await expect.poll(() => decodeQrCode(qrCode)).toBe(sharedAddress);
  });
});

test.describe('the own address’s QR code', () => {
  test.use({ baseURL: `http://localhost:${PORT}`, viewport: { width: 390, height: 844 } });

  test('decodes to the customer’s own address on each network, derived from the operator’s key, and not to another customer’s', async ({ browser }) => {
    const seen: Record<DepositNetwork, string[]> = { TRC20: [], ERC20: [] };
    for (const name of ['Kavya Iyer', 'Rohan Mehta']) {
      const context = await browser.newContext({ baseURL: `http://localhost:${PORT}`, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await signUpThroughForm(page, newCustomer({ name }), { kycLevelOne: false });
      await page.goto('/wallet/deposit');
      for (const network of ['TRC20', 'ERC20'] as const) {
        await page.getByLabel('Network').selectOption(network);
        const own = await ownAddressOf(page, network);
        expect(own.address).toBe(deriveDepositAddress(network, TEST_DEPOSIT_XPUBS[network], own.index));
        await expect(page.getByTestId('deposit-address')).toHaveText(own.address);
        const qrCode = page.getByRole('img', { name: `QR code of the ${network} deposit address` });
        await expect(qrCode).toBeVisible();
        // The bare address, as every wallet's and exchange's scanner reads it: read from the page's pixels and from its screenshot.
        expect(await decodeQrCodeInPage(qrCode)).toBe(own.address);
        // In the middle of the phone's screen, clear of the fixed bottom bar, as a customer shows it to a scanner.
        await qrCode.evaluate((element) => element.scrollIntoView({ block: 'center' }));
        await expect.poll(() => decodeQrCode(qrCode)).toBe(own.address);
        seen[network].push(own.address);
      }
      await context.close();
    }
    for (const network of ['TRC20', 'ERC20'] as const) expect(new Set(seen[network]).size).toBe(2);
  });
});
