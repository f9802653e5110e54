/*
 * The marker segments at the head of a JPEG (ITU-T T.81, annex B): each is 0xFF, a marker byte, a 16-bit
 * big-endian length that counts itself, and its data. The walk stops at the start of the scan (after which
 * comes entropy-coded data, not segments), at the end of the image, at anything that is not a marker, and
 * after a bounded number of segments, so a crafted file cannot make it read past its end or loop long.
 */

export interface JpegSegment {
  marker: number;
  /** The segment's data after its length field, cut at the file's end if the length claims more. */
  data: Buffer;
}

/** A phone's JPEG has a handful of segments before its scan (ICC profiles split over APP2 add a few dozen at most). */
const MAX_SEGMENTS = 512;
const START_OF_SCAN = 0xda;
const END_OF_IMAGE = 0xd9;

/** The segments after the start-of-image marker, up to the start of the scan. */
export function* jpegSegments(bytes: Buffer): Generator<JpegSegment> {
  let offset = 2;
  for (let count = 0; count < MAX_SEGMENTS && offset + 4 <= bytes.length; count += 1) {
    if (bytes[offset] !== 0xff) return;
    const marker = bytes[offset + 1] ?? 0;
    // Any number of 0xFF fill bytes may come before a marker.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === START_OF_SCAN || marker === END_OF_IMAGE) return;
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2) return;
    yield { marker, data: bytes.subarray(offset + 4, Math.min(offset + 2 + length, bytes.length)) };
    offset += 2 + length;
  }
}
