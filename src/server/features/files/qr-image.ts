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

export type QrReading = { kind: 'read'; text: string } | { kind: 'unreadable' } | { kind: 'too-large' };

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

/**
 * The text of the QR code in a PNG or JPEG image. A damaged image, or one without a readable code, is
 * "unreadable": whatever the decoders throw on the sender's bytes is their file's fault, never a 500.
 */
export function readQrImage(bytes: Buffer, contentType: string): QrReading {
  try {
    const pixels = decodePixels(bytes, contentType);
    if (pixels === 'too-large') return { kind: 'too-large' };
    if (!pixels) return { kind: 'unreadable' };
    const code = jsQR(pixels.rgba, pixels.width, pixels.height, { inversionAttempts: 'attemptBoth' });
    return code && code.data !== '' ? { kind: 'read', text: code.data } : { kind: 'unreadable' };
  } catch {
    return { kind: 'unreadable' };
  }
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
