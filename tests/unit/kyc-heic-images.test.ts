import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { decodeHeicPhoto } from '../../src/server/features/kyc/documents/heic-images.ts';
import { normalizeImage, sniffImageType } from '../../src/server/features/kyc/documents/images.ts';
import { BLUE, expectQuarters, GREEN, quartersOf, RED, YELLOW } from '../fixtures/exif-photos.ts';
import { avifHeader, HEIC_EXIF_MARKER, heicFixture, withClaimedSize, withZeroedPictureData } from '../fixtures/heic-photos.ts';

/* HEIC photos (decision 063): decoded upright by libheif, checked for size before decoding, stored as a new JPEG. */

describe('HEIC photos', () => {
  it('are stored as a new JPEG of their pixels, turned as the file’s rotation says, without their EXIF', async () => {
    const heic = heicFixture('turned-quarters.heic');
    expect(heic.includes(Buffer.from(HEIC_EXIF_MARKER, 'latin1'))).toBe(true);
    expect(sniffImageType(heic)).toBe('heic');
    const result = await normalizeImage(heic);
    if (result.kind !== 'ok') throw new Error(`refused: ${result.kind}`);
    expect([result.width, result.height]).toEqual([480, 320]);
    expect(result.jpeg.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect(result.jpeg.includes(Buffer.from('Exif', 'latin1'))).toBe(false);
    expect(result.jpeg.includes(Buffer.from(HEIC_EXIF_MARKER, 'latin1'))).toBe(false);
    const stored = jpeg.decode(result.jpeg, { useTArray: true });
    expect([stored.width, stored.height]).toEqual([480, 320]);
    expectQuarters(quartersOf(stored.width, stored.height, stored.data), [RED, GREEN, BLUE, YELLOW]);
  });

  it('decodes in a worker that is terminated when its time passes: the photo counts as unreadable, and the next decode still works', async () => {
    const ends: { timedOut: boolean; exitCode: number }[] = [];
    const started = Date.now();
    const late = await decodeHeicPhoto(heicFixture('face.heic'), { timeoutMilliseconds: 1, onWorkerExit: (ended) => ends.push(ended) });
    expect(late).toEqual({ kind: 'unreadable' });
    // The answer comes once the worker thread has ended: it was stopped, not left running in the background.
    expect(ends.map((ended) => ended.timedOut)).toEqual([true]);
    expect(Date.now() - started).toBeLessThan(10_000);
    const inTime = await decodeHeicPhoto(heicFixture('face.heic'), { onWorkerExit: (ended) => ends.push(ended) });
    expect(inTime.kind).toBe('ok');
    expect(ends[1]?.timedOut).toBe(false);
  });

  it('decodes a photo to its pixels', async () => {
    const decoded = await decodeHeicPhoto(heicFixture('face.heic'));
    if (decoded.kind !== 'ok') throw new Error(`refused: ${decoded.kind}`);
    expect([decoded.pixels.width, decoded.pixels.height, decoded.pixels.rgba.length]).toEqual([640, 480, 640 * 480 * 4]);
  });

  it('refuses a photo over the pixel limit, and one too small, from the size its container states, before decoding', async () => {
    expect((await normalizeImage(heicFixture('over-24-megapixels.heic'))).kind).toBe('too-many-pixels');
    // These sizes do not match the coded picture, which libheif refuses to decode: the refusal names the size, so no decoding was tried.
    expect((await normalizeImage(withClaimedSize(heicFixture('face.heic'), 60_000, 60_000))).kind).toBe('too-many-pixels');
    expect((await normalizeImage(withClaimedSize(heicFixture('face.heic'), 200, 300))).kind).toBe('too-small');
    expect((await normalizeImage(withClaimedSize(heicFixture('face.heic'), 640, 400))).kind).toBe('unreadable');
  });

  it('answers "unreadable" for a damaged or cut file, never an error', async () => {
    const face = heicFixture('face.heic');
    const cases = [
      face.subarray(0, 2000),
      face.subarray(0, 300),
      Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic', 'latin1'), Buffer.alloc(200)]),
      withZeroedPictureData(face),
    ];
    for (const bytes of cases) expect((await normalizeImage(bytes)).kind).toBe('unreadable');
  });

  it('tells HEIC from AVIF and the other HEIF brands by the file type box', async () => {
    const fileType = (major: string, ...compatible: string[]) =>
      Buffer.concat([Buffer.from([0, 0, 0, 16 + 4 * compatible.length]), Buffer.from(`ftyp${major}\0\0\0\0${compatible.join('')}`, 'latin1')]);
    expect(sniffImageType(fileType('heic', 'mif1', 'heic'))).toBe('heic');
    expect(sniffImageType(fileType('mif1', 'heic'))).toBe('heic');
    expect(sniffImageType(fileType('mif1'))).toBe('heic');
    expect(sniffImageType(fileType('mif1', 'avif', 'miaf'))).toBe('other-heif');
    expect(sniffImageType(fileType('avif', 'mif1'))).toBe('other-heif');
    expect(sniffImageType(fileType('heim', 'mif1'))).toBe('other-heif');
    expect(sniffImageType(fileType('isom', 'mp41'))).toBeUndefined();
    expect((await normalizeImage(avifHeader())).kind).toBe('other-format');
  });
});
