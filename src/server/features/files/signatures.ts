/**
 * File types recognised by their first bytes ("magic numbers"), because the
 * type a browser declares is whatever the sender says it is.
 */

export const SIGNATURE_BYTES = 12;

export type ImageContentType = 'image/png' | 'image/jpeg' | 'image/webp';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const RIFF = Buffer.from('RIFF', 'ascii');
const WEBP = Buffer.from('WEBP', 'ascii');
/** A ZIP local file header; every APK starts with one. */
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export function detectImageType(head: Buffer): ImageContentType | undefined {
  if (head.subarray(0, PNG.length).equals(PNG)) return 'image/png';
  if (head.subarray(0, JPEG.length).equals(JPEG)) return 'image/jpeg';
  if (head.length >= 12 && head.subarray(0, 4).equals(RIFF) && head.subarray(8, 12).equals(WEBP)) return 'image/webp';
  return undefined;
}

export function isZipArchive(head: Buffer): boolean {
  return head.subarray(0, ZIP.length).equals(ZIP);
}
