import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { inspectQrImage, qrShowsAddress } from '../../src/server/features/files/qr-image.ts';
import { KNOWN_ERC20_ADDRESS, TEST_ERC20_ADDRESS, TEST_TRC20_ADDRESS } from '../fixtures/addresses.ts';
import { animatedPng, plainPng, qrJpeg, qrPng, twoQrCodesPng } from '../fixtures/qr-images.ts';

describe('reading the QR code in an uploaded image', () => {
  it('reads the text of a PNG and of a JPEG QR image', async () => {
    expect(inspectQrImage(await qrPng(TEST_TRC20_ADDRESS), 'image/png')).toMatchObject({ kind: 'read', text: TEST_TRC20_ADDRESS });
    expect(inspectQrImage(await qrJpeg(TEST_ERC20_ADDRESS), 'image/jpeg')).toMatchObject({ kind: 'read', text: TEST_ERC20_ADDRESS });
  });

  it('reads a PNG padded with a chunk readers skip (the fixture the upload tests use for exact sizes)', async () => {
    const padded = await qrPng(TEST_TRC20_ADDRESS, { totalBytes: 50_000 });
    expect(padded.length).toBe(50_000);
    expect(inspectQrImage(padded, 'image/png')).toMatchObject({ kind: 'read', text: TEST_TRC20_ADDRESS });
  });

  it('finds no code in a picture without one, in bytes that only start like an image, or in another type', async () => {
    expect(inspectQrImage(plainPng(), 'image/png')).toEqual({ kind: 'unreadable' });
    const damaged = Buffer.concat([(await qrPng(TEST_TRC20_ADDRESS)).subarray(0, 200), Buffer.alloc(200)]);
    expect(inspectQrImage(damaged, 'image/png')).toEqual({ kind: 'unreadable' });
    expect(inspectQrImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 'image/jpeg')).toEqual({ kind: 'unreadable' });
    expect(inspectQrImage(await qrPng(TEST_TRC20_ADDRESS), 'image/webp')).toEqual({ kind: 'unreadable' });
  });

  it('refuses to unpack a picture of more than 4 megapixels, whatever its file size', () => {
    const wide = plainPng(2001, 2000);
    expect(wide.length).toBeLessThan(100_000);
    expect(inspectQrImage(wide, 'image/png')).toEqual({ kind: 'too-large' });
    expect(inspectQrImage(plainPng(2000, 2000), 'image/png')).toEqual({ kind: 'unreadable' });
    const white = new Uint8Array(2100 * 2000 * 4).fill(0xff);
    const largeJpeg = jpeg.encode({ data: white, width: 2100, height: 2000 }, 50).data;
    expect(inspectQrImage(largeJpeg, 'image/jpeg')).toEqual({ kind: 'too-large' });
    // Drawing and encoding two 4-megapixel pictures takes seconds on a busy 2-core machine; nothing here is timed.
  }, 30_000);
});

describe('what an upload keeps (decision 037)', () => {
  it('refuses an animated PNG (APNG), whatever its default image shows', async () => {
    const animated = animatedPng(await qrPng(TEST_TRC20_ADDRESS));
    expect(PNG.sync.read(animated).width).toBe(300);
    expect(inspectQrImage(animated, 'image/png')).toEqual({ kind: 'animated' });
  });

  it('refuses a picture with more than one QR code', async () => {
    // The decoder reads the larger code first; the smaller one beside it shows another address.
    const two = twoQrCodesPng(await qrPng(TEST_TRC20_ADDRESS), await qrPng(KNOWN_ERC20_ADDRESS, { width: 150 }));
    expect(inspectQrImage(two, 'image/png')).toEqual({ kind: 'several-codes' });
  });

  it('keeps a new PNG of the pixels read, without the sender’s other chunks, for a PNG and for a JPEG', async () => {
    const padded = await qrPng(TEST_TRC20_ADDRESS, { totalBytes: 50_000 });
    const reading = inspectQrImage(padded, 'image/png');
    if (reading.kind !== 'read') throw new Error(`expected a reading, got ${reading.kind}`);
    expect(reading.png.includes(Buffer.from('ruPd', 'latin1'))).toBe(false);
    expect(reading.png.length).toBeLessThan(padded.length);
    expect(PNG.sync.read(reading.png).data.equals(PNG.sync.read(padded).data)).toBe(true);
    expect(inspectQrImage(reading.png, 'image/png')).toMatchObject({ kind: 'read', text: TEST_TRC20_ADDRESS });
    const fromJpeg = inspectQrImage(await qrJpeg(TEST_ERC20_ADDRESS), 'image/jpeg');
    if (fromJpeg.kind !== 'read') throw new Error(`expected a reading, got ${fromJpeg.kind}`);
    expect(inspectQrImage(fromJpeg.png, 'image/png')).toMatchObject({ kind: 'read', text: TEST_ERC20_ADDRESS });
  });
});

describe('whether a QR code shows the deposit address', () => {
  it('accepts the address alone or behind its network URI scheme', () => {
    expect(qrShowsAddress('TRC20', TEST_TRC20_ADDRESS, TEST_TRC20_ADDRESS)).toBe(true);
    expect(qrShowsAddress('TRC20', ` tron:${TEST_TRC20_ADDRESS}\n`, TEST_TRC20_ADDRESS)).toBe(true);
    expect(qrShowsAddress('ERC20', `ethereum:${TEST_ERC20_ADDRESS}`, TEST_ERC20_ADDRESS)).toBe(true);
  });

  it('compares ERC20 addresses without case (hexadecimal) and TRON addresses exactly (base58)', () => {
    expect(qrShowsAddress('ERC20', TEST_ERC20_ADDRESS.toLowerCase(), TEST_ERC20_ADDRESS)).toBe(true);
    expect(qrShowsAddress('TRC20', TEST_TRC20_ADDRESS.toLowerCase(), TEST_TRC20_ADDRESS)).toBe(false);
  });

  it('refuses another address, the other network’s scheme, anything after the address, and a network without an address', () => {
    expect(qrShowsAddress('ERC20', KNOWN_ERC20_ADDRESS, TEST_ERC20_ADDRESS)).toBe(false);
    expect(qrShowsAddress('TRC20', `ethereum:${TEST_TRC20_ADDRESS}`, TEST_TRC20_ADDRESS)).toBe(false);
    expect(qrShowsAddress('ERC20', `ethereum:${TEST_ERC20_ADDRESS}?value=1e18`, TEST_ERC20_ADDRESS)).toBe(false);
    expect(qrShowsAddress('ERC20', `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${TEST_ERC20_ADDRESS}`, TEST_ERC20_ADDRESS)).toBe(
      false,
    );
    expect(qrShowsAddress('TRC20', '', '')).toBe(false);
  });
});
