import { jpegSegments } from './jpeg-segments.ts';

/*
 * A phone stores a photo as its sensor read it and writes how to turn it upright into the EXIF Orientation
 * tag (EXIF 2.32 / CIPA DC-008, tag 0x0112 in IFD0 of the TIFF structure in the APP1 "Exif" segment; TIFF 6.0
 * for the structure, either byte order). The stored KYC image keeps no EXIF, so the turn is applied to the
 * pixels before they are encoded again. A missing or malformed tag counts as 1 (as stored): an odd file is
 * at worst shown as taken, never refused for its metadata.
 */

/** 1 upright; 2 mirrored; 3 upside down; 4 mirrored upside down; 5 to 8 the same four turned a quarter. */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** Decoded pixels, four bytes (red, green, blue, alpha) each, row after row. */
export interface Pixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

const APP1 = 0xe1;
const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
const ORIENTATION_TAG = 0x0112;
const SHORT_TYPE = 3;
const IFD_ENTRY_BYTES = 12;

function isOrientation(value: number): value is Orientation {
  return Number.isInteger(value) && value >= 1 && value <= 8;
}

/** The Orientation tag of a TIFF structure's first IFD, every read checked against the structure's end. */
function tiffOrientation(tiff: Buffer): Orientation {
  if (tiff.length < 8) return 1;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return 1;
  const little = order === 'II';
  const uint16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const uint32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  if (uint16(2) !== 42) return 1;
  const directory = uint32(4);
  if (directory < 8 || directory + 2 > tiff.length) return 1;
  const entries = uint16(directory);
  for (let index = 0; index < entries; index += 1) {
    const entry = directory + 2 + index * IFD_ENTRY_BYTES;
    if (entry + IFD_ENTRY_BYTES > tiff.length) return 1;
    if (uint16(entry) !== ORIENTATION_TAG) continue;
    // One SHORT, kept in the first two bytes of the entry's value field.
    if (uint16(entry + 2) !== SHORT_TYPE || uint32(entry + 4) !== 1) return 1;
    const value = uint16(entry + 8);
    return isOrientation(value) ? value : 1;
  }
  return 1;
}

/** The orientation a JPEG's EXIF asks for; 1 when it has none or it cannot be read. */
export function jpegOrientation(bytes: Buffer): Orientation {
  for (const segment of jpegSegments(bytes)) {
    if (segment.marker === APP1 && segment.data.subarray(0, EXIF_HEADER.length).equals(EXIF_HEADER)) {
      return tiffOrientation(segment.data.subarray(EXIF_HEADER.length));
    }
  }
  return 1;
}

/**
 * Where each upright pixel (x, y) is found in the stored pixels, for an image stored `width` x `height`.
 * For 5 to 8 the upright image is `height` wide and `width` tall.
 */
function sourceOf(orientation: Orientation, width: number, height: number): (x: number, y: number) => number {
  const at = (sourceX: number, sourceY: number) => sourceY * width + sourceX;
  switch (orientation) {
    case 1:
      return (x, y) => at(x, y);
    case 2:
      return (x, y) => at(width - 1 - x, y);
    case 3:
      return (x, y) => at(width - 1 - x, height - 1 - y);
    case 4:
      return (x, y) => at(x, height - 1 - y);
    case 5:
      return (x, y) => at(y, x);
    case 6:
      return (x, y) => at(y, height - 1 - x);
    case 7:
      return (x, y) => at(width - 1 - y, height - 1 - x);
    case 8:
      return (x, y) => at(width - 1 - y, x);
  }
}

/** The pixels turned and mirrored as the orientation says, so that they are upright without the tag. */
export function orientPixels(pixels: Pixels, orientation: Orientation): Pixels {
  if (orientation === 1) return pixels;
  const turned = orientation >= 5;
  const width = turned ? pixels.height : pixels.width;
  const height = turned ? pixels.width : pixels.height;
  const source = sourceOf(orientation, pixels.width, pixels.height);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const from = source(x, y) * 4;
      const to = (y * width + x) * 4;
      rgba[to] = pixels.rgba[from] ?? 0;
      rgba[to + 1] = pixels.rgba[from + 1] ?? 0;
      rgba[to + 2] = pixels.rgba[from + 2] ?? 0;
      rgba[to + 3] = pixels.rgba[from + 3] ?? 255;
    }
  }
  return { width, height, rgba };
}
