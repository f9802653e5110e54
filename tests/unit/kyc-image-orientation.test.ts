import fc from 'fast-check';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { jpegOrientation, orientPixels, type Orientation } from '../../src/server/features/kyc/documents/exif-orientation.ts';
import { normalizeImage } from '../../src/server/features/kyc/documents/images.ts';
import {
  app1,
  BLUE,
  expectQuarters,
  GREEN,
  phoneTiff,
  plainJpeg,
  quartersOf,
  RED,
  tiff,
  withExif,
  YELLOW,
  type Colour,
  type TiffEntry,
} from '../fixtures/exif-photos.ts';

/*
 * A phone photo's EXIF orientation (tag 0x0112) is applied before the photo is stored without its EXIF. The photos are
 * real JPEGs encoded here with an APP1 "Exif" segment written from the EXIF/TIFF layout, in both byte orders. What the
 * camera saw is four coloured quarters; each orientation's stored layout below is written out from the EXIF
 * specification's words ("the 0th row is the visual right-hand side..."), not computed by the code under test.
 */

/** What the camera saw: red top left, green top right, blue bottom left, yellow bottom right, 480 x 320. */
const UPRIGHT = { width: 480, height: 320, quarters: [RED, GREEN, BLUE, YELLOW] };

/** The quarters as the phone stored them (top left, top right, bottom left, bottom right) for each orientation. */
const STORED: Record<Orientation, Colour[]> = {
  1: [RED, GREEN, BLUE, YELLOW],
  2: [GREEN, RED, YELLOW, BLUE], // mirrored left to right
  3: [YELLOW, BLUE, GREEN, RED], // upside down
  4: [BLUE, YELLOW, RED, GREEN], // mirrored top to bottom
  5: [RED, BLUE, GREEN, YELLOW], // 0th row is the visual left side, 0th column the visual top
  6: [GREEN, YELLOW, RED, BLUE], // 0th row is the visual right side, 0th column the visual top
  7: [YELLOW, GREEN, BLUE, RED], // 0th row is the visual right side, 0th column the visual bottom
  8: [BLUE, RED, YELLOW, GREEN], // 0th row is the visual left side, 0th column the visual bottom
};
const ORIENTATIONS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

function storedPhoto(orientation: Orientation, exif: Buffer, place?: 'after-start' | 'after-jfif'): Buffer {
  const turned = orientation >= 5;
  const width = turned ? UPRIGHT.height : UPRIGHT.width;
  const height = turned ? UPRIGHT.width : UPRIGHT.height;
  return withExif(plainJpeg(width, height, STORED[orientation]), exif, place);
}

describe('EXIF orientation of a KYC photo', () => {
  it.each(ORIENTATIONS.flatMap((orientation) => (['II', 'MM'] as const).map((order) => [orientation, order] as const)))(
    'stores a photo with orientation %i (%s byte order) upright',
    async (orientation, order) => {
      const bytes = storedPhoto(orientation, phoneTiff(order, orientation));
      expect(jpegOrientation(bytes)).toBe(orientation);
      const result = await normalizeImage(bytes);
      if (result.kind !== 'ok') throw new Error(`refused: ${result.kind}`);
      expect([result.width, result.height]).toEqual([UPRIGHT.width, UPRIGHT.height]);
      const stored = jpeg.decode(result.jpeg, { useTArray: true });
      expect([stored.width, stored.height]).toEqual([UPRIGHT.width, UPRIGHT.height]);
      expectQuarters(quartersOf(stored.width, stored.height, stored.data), UPRIGHT.quarters);
      expect(result.jpeg.includes(Buffer.from('Exif', 'latin1'))).toBe(false);
    },
  );

  it('finds the segment after a JFIF segment too', async () => {
    const bytes = storedPhoto(6, phoneTiff('MM', 6), 'after-jfif');
    expect(jpegOrientation(bytes)).toBe(6);
    const result = await normalizeImage(bytes);
    if (result.kind !== 'ok') throw new Error(`refused: ${result.kind}`);
    expect([result.width, result.height]).toEqual([480, 320]);
  });

  it('turns every pixel to its place, exactly', () => {
    // Stored 3 x 2 with pixel values 0..5 in reading order; the upright image of each orientation, read row by row.
    const stored = { width: 3, height: 2, rgba: new Uint8Array([0, 1, 2, 3, 4, 5].flatMap((value) => [value, value, value, 255])) };
    const upright: Record<Orientation, { width: number; values: number[] }> = {
      1: { width: 3, values: [0, 1, 2, 3, 4, 5] },
      2: { width: 3, values: [2, 1, 0, 5, 4, 3] },
      3: { width: 3, values: [5, 4, 3, 2, 1, 0] },
      4: { width: 3, values: [3, 4, 5, 0, 1, 2] },
      5: { width: 2, values: [0, 3, 1, 4, 2, 5] },
      6: { width: 2, values: [3, 0, 4, 1, 5, 2] },
      7: { width: 2, values: [5, 2, 4, 1, 3, 0] },
      8: { width: 2, values: [2, 5, 1, 4, 0, 3] },
    };
    for (const orientation of ORIENTATIONS) {
      const turned = orientPixels(stored, orientation);
      expect([turned.width, turned.height], `orientation ${orientation}`).toEqual([upright[orientation].width, 6 / upright[orientation].width]);
      expect(Array.from(turned.rgba.filter((_, index) => index % 4 === 0)), `orientation ${orientation}`).toEqual(upright[orientation].values);
    }
  });

  it('ignores EXIF it cannot read, storing the photo as taken and never failing', async () => {
    const orientationEntry = (type: number, count: number, value: number): TiffEntry => ({ tag: 0x0112, type, count, value });
    const malformed: [string, Buffer][] = [
      ['no TIFF at all', Buffer.alloc(0)],
      ['a TIFF cut short', phoneTiff('II', 6).subarray(0, 6)],
      ['an unknown byte order', Buffer.concat([Buffer.from('XX', 'latin1'), phoneTiff('II', 6).subarray(2)])],
      ['a wrong magic number', tiff('II', [orientationEntry(3, 1, 6)], { magic: 43 })],
      ['an IFD beyond the segment', tiff('MM', [orientationEntry(3, 1, 6)], { directoryOffset: 0xfffffff0 })],
      ['an IFD inside the header', tiff('MM', [orientationEntry(3, 1, 6)], { directoryOffset: 2 })],
      ['more entries claimed than present', tiff('II', [{ tag: 0x0100, type: 4, count: 1, value: 1 }], { entryCount: 0xffff })],
      ['an orientation of the wrong type', tiff('II', [orientationEntry(4, 1, 6)])],
      ['an orientation with two values', tiff('MM', [orientationEntry(3, 2, 6)])],
      ['an orientation of 0', tiff('II', [orientationEntry(3, 1, 0)])],
      ['an orientation of 9', tiff('MM', [orientationEntry(3, 1, 9)])],
      ['no orientation tag', tiff('II', [{ tag: 0x010f, type: 2, count: 4, value: 0 }])],
    ];
    const plain = plainJpeg(480, 320, STORED[6]);
    const photoOfSixWithout = (exif: Buffer) => withExif(plain, exif);
    for (const [label, exif] of malformed) expect(jpegOrientation(photoOfSixWithout(exif)), label).toBe(1);
    // Stored as taken: the quarters as the phone wrote them.
    for (const [label, exif] of malformed.slice(0, 3)) {
      const result = await normalizeImage(photoOfSixWithout(exif));
      if (result.kind !== 'ok') throw new Error(`${label}: refused ${result.kind}`);
      const stored = jpeg.decode(result.jpeg, { useTArray: true });
      expectQuarters(quartersOf(stored.width, stored.height, stored.data), STORED[6]);
    }
  });

  it('answers an orientation from 1 to 8 for any bytes in the EXIF segment, never an error', () => {
    const head = Buffer.concat([Buffer.from([0xff, 0xd8]), app1(Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), phoneTiff('II', 6)]))]);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: head.length - 1 }), fc.nat({ max: 255 })), { maxLength: 8 }),
        fc.nat({ max: head.length }),
        (changes, cut) => {
          const bytes = Buffer.from(head);
          for (const [at, value] of changes) bytes[at] = value;
          expect([1, 2, 3, 4, 5, 6, 7, 8]).toContain(jpegOrientation(bytes.subarray(0, cut)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('reads nothing past the file when a segment claims more bytes than there are', async () => {
    const cut = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff]), Buffer.from('Exif\0\0MM\0*', 'latin1')]);
    expect(jpegOrientation(cut)).toBe(1);
    expect((await normalizeImage(cut)).kind).toBe('not-an-image');
    // Only the first Exif segment counts, and an "Exif" without its padding is not one.
    const wrongHeader = Buffer.concat([Buffer.from([0xff, 0xd8]), app1(Buffer.concat([Buffer.from('Exif\0', 'latin1'), phoneTiff('MM', 6)]))]);
    expect(jpegOrientation(wrongHeader)).toBe(1);
  });
});
