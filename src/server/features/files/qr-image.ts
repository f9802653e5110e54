import jpeg from 'jpeg-js';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import type { DepositNetwork } from '#shared/contracts/enums';

// jsqr is CommonJS with its function as `exports.default` (also the module itself): the typed way to reach it from ESM.
const jsQR = jsQRModule.default;

/**
 * Reading the QR code in an uploaded QR image, so that customers are never shown a picture that
 * sends their USDT somewhere other than the deposit address beside it (decision 023).
 */

/** The largest picture read: 4 megapixels (for example 2000 x 2000), about 16 MB once decoded. */
export const QR_IMAGE_MAX_PIXELS = 4_000_000;

/**
 * What an upload keeps (decision 037): the text of its one QR code and a new PNG of the pixels that
 * were read, so that no other frame, chunk or metadata of the sender's file ever reaches a browser.
 */
export type QrInspection =
  { kind: 'read'; text: string; png: Buffer } | { kind: 'unreadable' } | { kind: 'too-large' } | { kind: 'animated' } | { kind: 'several-codes' };

/** The PNG chunks of an animated PNG (APNG): a browser shows its frames, while decoders read only the default image. */
const ANIMATION_CHUNKS = new Set(['acTL', 'fcTL', 'fdAT']);
const PNG_SIGNATURE_BYTES = 8;
const CHUNK_OVERHEAD_BYTES = 12;
/** A valid PNG of at most 2 MB has far fewer chunks; more is treated as damaged. */
const MAX_PNG_CHUNKS = 10_000;

/** Whether a PNG carries animation chunks; chunks are walked by their lengths up to the end of the file. */
function isAnimatedPng(bytes: Buffer): boolean {
  let offset = PNG_SIGNATURE_BYTES;
  for (let chunk = 0; chunk < MAX_PNG_CHUNKS && offset + CHUNK_OVERHEAD_BYTES <= bytes.length; chunk += 1) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (ANIMATION_CHUNKS.has(type)) return true;
    if (type === 'IEND') return false;
    offset += CHUNK_OVERHEAD_BYTES + length;
  }
  return false;
}

/** The pixels with the found code's area painted white, to look for a second code. */
function withoutCode(pixels: Pixels, corners: { x: number; y: number }[]): Pixels {
  const xs = corners.map((corner) => corner.x);
  const ys = corners.map((corner) => corner.y);
  // The quiet zone and finder patterns reach a little beyond the corners jsQR reports.
  const margin = Math.ceil(Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) * 0.1) + 2;
  const left = Math.max(0, Math.floor(Math.min(...xs)) - margin);
  const right = Math.min(pixels.width, Math.ceil(Math.max(...xs)) + margin);
  const top = Math.max(0, Math.floor(Math.min(...ys)) - margin);
  const bottom = Math.min(pixels.height, Math.ceil(Math.max(...ys)) + margin);
  const rgba = new Uint8ClampedArray(pixels.rgba);
  for (let y = top; y < bottom; y += 1) rgba.fill(0xff, (y * pixels.width + left) * 4, (y * pixels.width + right) * 4);
  return { width: pixels.width, height: pixels.height, rgba };
}

/**
 * Reads an uploaded QR image for keeping: an animated PNG is refused (its default image may differ
 * from what browsers show), so is a picture with more than one QR code, and what is kept is a new
 * PNG of the decoded pixels. Whatever the decoders throw on the sender's bytes is "unreadable".
 */
export function inspectQrImage(bytes: Buffer, contentType: string): QrInspection {
  try {
    if (contentType === 'image/png' && isAnimatedPng(bytes)) return { kind: 'animated' };
    const pixels = decodePixels(bytes, contentType);
    if (pixels === 'too-large') return { kind: 'too-large' };
    if (!pixels) return { kind: 'unreadable' };
    const code = jsQR(pixels.rgba, pixels.width, pixels.height, { inversionAttempts: 'attemptBoth' });
    if (!code || code.data === '') return { kind: 'unreadable' };
    const location = code.location;
    const corners = [location.topLeftCorner, location.topRightCorner, location.bottomLeftCorner, location.bottomRightCorner];
    const rest = withoutCode(pixels, corners);
    if (jsQR(rest.rgba, rest.width, rest.height, { inversionAttempts: 'attemptBoth' }) !== null) return { kind: 'several-codes' };
    const image = new PNG({ width: pixels.width, height: pixels.height });
    Buffer.from(pixels.rgba.buffer, pixels.rgba.byteOffset, pixels.rgba.byteLength).copy(image.data);
    return { kind: 'read', text: code.data, png: PNG.sync.write(image) };
  } catch {
    return { kind: 'unreadable' };
  }
}

const PNG_HEADER_BYTES = 24;

interface Pixels {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

/** A PNG's size from its header (IHDR), read before decoding so that a small file cannot unpack into gigabytes. */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < PNG_HEADER_BYTES || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function decodePixels(bytes: Buffer, contentType: string): Pixels | 'too-large' | undefined {
  if (contentType === 'image/png') {
    const size = pngSize(bytes);
    if (!size) return undefined;
    if (size.width * size.height > QR_IMAGE_MAX_PIXELS) return 'too-large';
    const image = PNG.sync.read(bytes);
    return { width: image.width, height: image.height, rgba: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength) };
  }
  if (contentType === 'image/jpeg') {
    try {
      const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: QR_IMAGE_MAX_PIXELS / 1_000_000, maxMemoryUsageInMB: 64 });
      return { width: image.width, height: image.height, rgba: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength) };
    } catch (error) {
      if (error instanceof Error && /maxResolutionInMP|maxMemoryUsageInMB/.test(error.message)) return 'too-large';
      throw error;
    }
  }
  return undefined;
}

const URI_SCHEME: Record<DepositNetwork, string> = { TRC20: 'tron:', ERC20: 'ethereum:' };

/**
 * Whether a QR code's text is the deposit address: the address alone, or behind its network's URI
 * scheme (`tron:`, `ethereum:`) as wallet apps write it, with nothing after it (no amount, no
 * token contract). An ERC20 address is hexadecimal, so its letters may differ in case.
 */
export function qrShowsAddress(network: DepositNetwork, text: string, address: string): boolean {
  if (address === '') return false;
  const scheme = URI_SCHEME[network];
  const shown = text.trim();
  const bare = shown.toLowerCase().startsWith(scheme) ? shown.slice(scheme.length) : shown;
  return network === 'ERC20' ? bare.toLowerCase() === address.toLowerCase() : bare === address;
}
