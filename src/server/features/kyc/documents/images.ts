import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { KYC_IMAGE_LIMITS } from '#shared/contracts/kyc-documents';
import { jpegOrientation, orientPixels, type Orientation, type Pixels } from './exif-orientation.ts';
import { decodeHeicPhoto } from './heic-images.ts';
import { jpegSegments } from './jpeg-segments.ts';

/*
 * What a KYC image becomes before it is stored (decision 050): the sender's JPEG or PNG is decoded
 * (within pixel limits checked from the header first), scaled down to a reviewer's size, and encoded
 * again as a new JPEG. Nothing of the sender's file but its pixels survives: no EXIF (the phone's
 * position, make, time), no thumbnails, no comments; a JPEG's EXIF orientation is applied to the pixels first, so
 * a photo taken with the phone turned is stored upright. HEIC (the iPhone's default) is decoded by
 * libheif compiled to WebAssembly (decision 063) and goes through the same scaling and encoding; AVIF and
 * the other HEIF brands are refused with a way forward.
 */

export type ImageInspection =
  | { kind: 'ok'; jpeg: Buffer; width: number; height: number }
  | { kind: 'other-format' }
  | { kind: 'unreadable' }
  | { kind: 'not-an-image' }
  | { kind: 'too-many-pixels' }
  | { kind: 'too-small' };

/** The HEIF brands `heic-decode` reads (HEVC-coded images); the rest of the family (AVIF, layered HEVC) it does not. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx']);
const GENERIC_HEIF_BRANDS = new Set(['mif1', 'msf1']);
const OTHER_HEIF_BRANDS = new Set(['avif', 'avis', 'avci', 'heim', 'heis', 'hevm', 'hevs', 'mif2', 'mif3']);

/** The `ftyp` box's major brand and compatible brands, read within the box and at most 64 of them. */
function fileTypeBrands(bytes: Buffer): { major: string; compatible: string[] } | undefined {
  if (bytes.length < 16 || bytes.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  const boxEnd = Math.min(bytes.readUInt32BE(0), bytes.length, 16 + 64 * 4);
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= boxEnd; at += 4) compatible.push(bytes.toString('latin1', at, at + 4));
  return { major: bytes.toString('latin1', 8, 12), compatible };
}

/**
 * Which HEIF family member an ISO base media file is: HEIC, another (AVIF and the like), or none. A file whose
 * major brand is the generic `mif1` is HEIC unless its compatible brands name only another member's coding.
 */
function heifKind(bytes: Buffer): 'heic' | 'other-heif' | undefined {
  const brands = fileTypeBrands(bytes);
  if (brands === undefined) return undefined;
  if (HEIC_BRANDS.has(brands.major)) return 'heic';
  if (GENERIC_HEIF_BRANDS.has(brands.major)) {
    const namesHeic = brands.compatible.some((brand) => HEIC_BRANDS.has(brand));
    return namesHeic || !brands.compatible.some((brand) => OTHER_HEIF_BRANDS.has(brand)) ? 'heic' : 'other-heif';
  }
  return OTHER_HEIF_BRANDS.has(brands.major) ? 'other-heif' : undefined;
}

/** What the first bytes say the file is; the sender's declared type is not believed. */
export function sniffImageType(bytes: Buffer): 'jpeg' | 'png' | 'heic' | 'other-heif' | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  return heifKind(bytes);
}

/** A JPEG's size from its start-of-frame marker, read before decoding so a small file cannot unpack into gigabytes. */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  for (const { marker, data } of jpegSegments(bytes)) {
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame's size: precision, height, width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return data.length < 5 ? undefined : { height: data.readUInt16BE(1), width: data.readUInt16BE(3) };
    }
  }
  return undefined;
}

function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function decode(bytes: Buffer, type: 'jpeg' | 'png'): Pixels {
  if (type === 'png') {
    const image = PNG.sync.read(bytes);
    return { width: image.width, height: image.height, rgba: image.data };
  }
  const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: KYC_IMAGE_LIMITS.maxPixels / 1_000_000, maxMemoryUsageInMB: 512 });
  return { width: image.width, height: image.height, rgba: image.data };
}

/** Box-averages the pixels down so that the longer side is at most `maxSide` (a reviewer needs no more). */
export function scaleDown(pixels: Pixels, maxSide: number): Pixels {
  const factor = Math.max(pixels.width, pixels.height) / maxSide;
  if (factor <= 1) return pixels;
  const width = Math.max(1, Math.round(pixels.width / factor));
  const height = Math.max(1, Math.round(pixels.height / factor));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    const top = Math.floor((y * pixels.height) / height);
    const bottom = Math.max(top + 1, Math.floor(((y + 1) * pixels.height) / height));
    for (let x = 0; x < width; x += 1) {
      const left = Math.floor((x * pixels.width) / width);
      const right = Math.max(left + 1, Math.floor(((x + 1) * pixels.width) / width));
      let red = 0;
      let green = 0;
      let blue = 0;
      for (let sourceY = top; sourceY < bottom; sourceY += 1) {
        for (let sourceX = left; sourceX < right; sourceX += 1) {
          const source = (sourceY * pixels.width + sourceX) * 4;
          red += pixels.rgba[source] ?? 0;
          green += pixels.rgba[source + 1] ?? 0;
          blue += pixels.rgba[source + 2] ?? 0;
        }
      }
      const count = (bottom - top) * (right - left);
      const target = (y * width + x) * 4;
      rgba[target] = Math.round(red / count);
      rgba[target + 1] = Math.round(green / count);
      rgba[target + 2] = Math.round(blue / count);
      rgba[target + 3] = 255;
    }
  }
  return { width, height, rgba };
}

/** The pixels scaled to a reviewer's size, turned upright, and written as a new JPEG with nothing else of the sender's file. */
function storedJpeg(pixels: Pixels, orientation: Orientation): ImageInspection {
  // Turned after scaling, which moves fewer pixels and does not depend on which side is the longer.
  const scaled = orientPixels(scaleDown(pixels, KYC_IMAGE_LIMITS.storedMaxSidePixels), orientation);
  const encoded = jpeg.encode({ data: scaled.rgba, width: scaled.width, height: scaled.height }, KYC_IMAGE_LIMITS.jpegQuality);
  return { kind: 'ok', jpeg: Buffer.from(encoded.data), width: scaled.width, height: scaled.height };
}

function normalizeJpegOrPng(bytes: Buffer, type: 'jpeg' | 'png'): ImageInspection {
  const size = type === 'png' ? pngSize(bytes) : jpegSize(bytes);
  if (size === undefined) return { kind: 'not-an-image' };
  if (size.width * size.height > KYC_IMAGE_LIMITS.maxPixels) return { kind: 'too-many-pixels' };
  if (Math.min(size.width, size.height) < KYC_IMAGE_LIMITS.minSidePixels) return { kind: 'too-small' };
  let pixels: Pixels;
  try {
    pixels = decode(bytes, type);
  } catch (error) {
    if (error instanceof Error && /maxResolutionInMP|maxMemoryUsageInMB/.test(error.message)) return { kind: 'too-many-pixels' };
    return { kind: 'not-an-image' };
  }
  return storedJpeg(pixels, type === 'jpeg' ? jpegOrientation(bytes) : 1);
}

/** Reads an uploaded image (JPEG, PNG or HEIC) and answers a new JPEG of its pixels, or why it cannot be used. */
export async function normalizeImage(bytes: Buffer): Promise<ImageInspection> {
  const type = sniffImageType(bytes);
  if (type === undefined) return { kind: 'not-an-image' };
  if (type === 'other-heif') return { kind: 'other-format' };
  if (type === 'jpeg' || type === 'png') return normalizeJpegOrPng(bytes, type);
  const heic = await decodeHeicPhoto(bytes);
  // libheif has already turned the pixels as the file's rotation and mirroring say.
  return heic.kind === 'ok' ? storedJpeg(heic.pixels, 1) : heic;
}
