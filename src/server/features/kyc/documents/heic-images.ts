import decodeHeic from 'heic-decode';
import { KYC_IMAGE_LIMITS } from '#shared/contracts/kyc-documents';
import type { Pixels } from './exif-orientation.ts';

/*
 * HEIC photos (the iPhone's default, decision 063) are decoded by `heic-decode` on `libheif-js`, libheif
 * compiled to WebAssembly. The container is parsed first and the image's size read from it, so a file that
 * would unpack into too many pixels is refused before any pixel is decoded. libheif applies the file's
 * rotation and mirroring (`irot`/`imir`) while decoding, and the size it reports is already the turned one;
 * the EXIF orientation an iPhone also writes is not read again, as the HEIF standard says.
 */

export type HeicDecoding = { kind: 'ok'; pixels: Pixels } | { kind: 'unreadable' } | { kind: 'too-many-pixels' } | { kind: 'too-small' };

/** Far longer than a photo within the limits takes (a 12-megapixel one decodes in about 2 seconds here, decision 063). */
const DECODE_TIMEOUT_MILLISECONDS = 30_000;

/** One decode at a time: the WebAssembly heap grows to hold the largest photo, and two at once would double it. */
let decodingQueue: Promise<unknown> = Promise.resolve();

function inQueue<Result>(work: () => Promise<Result>): Promise<Result> {
  const next = decodingQueue.then(work, work);
  decodingQueue = next.catch(() => undefined);
  return next;
}

function withinTime<Result>(work: Promise<Result>, fallback: Result): Promise<Result> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Result>((resolve) => {
    timer = setTimeout(() => resolve(fallback), DECODE_TIMEOUT_MILLISECONDS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * What `heic-decode`'s `all` answers (read from its source, version 2.1.0): each top-level image's size before
 * decoding, and `dispose` on the list, which frees libheif's context. Its published types name neither.
 */
type HeicImages = (Awaited<ReturnType<typeof decodeHeic.all>>[number] & { width: number; height: number })[] & { dispose?: () => void };

async function decodeFirstImage(bytes: Buffer): Promise<HeicDecoding> {
  let images: HeicImages;
  try {
    images = (await decodeHeic.all({ buffer: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) })) as HeicImages;
  } catch {
    return { kind: 'unreadable' };
  }
  try {
    const first = images[0];
    if (first === undefined) return { kind: 'unreadable' };
    if (first.width * first.height > KYC_IMAGE_LIMITS.maxPixels) return { kind: 'too-many-pixels' };
    if (Math.min(first.width, first.height) < KYC_IMAGE_LIMITS.minSidePixels) return { kind: 'too-small' };
    const decoded = await first.decode();
    const rgba = new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
    return { kind: 'ok', pixels: { width: decoded.width, height: decoded.height, rgba } };
  } catch {
    return { kind: 'unreadable' };
  } finally {
    images.dispose?.();
  }
}

/** The first image of a HEIC file as upright pixels, or why it cannot be used. */
export function decodeHeicPhoto(bytes: Buffer): Promise<HeicDecoding> {
  return inQueue(() => withinTime(decodeFirstImage(bytes), { kind: 'unreadable' }));
}
