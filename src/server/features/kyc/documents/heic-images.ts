import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
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

/** One decode at a time: each worker's WebAssembly heap grows to hold its photo, and two at once would double it. */
let decodingQueue: Promise<unknown> = Promise.resolve();

function inQueue<Result>(work: () => Promise<Result>): Promise<Result> {
  const next = decodingQueue.then(work, work);
  decodingQueue = next.catch(() => undefined);
  return next;
}

/*
 * The worker's code, as a CommonJS script (`eval`), so that the same text runs from the sources (tsx, the tests) and
 * from the compiled server without a file of its own. It reads `heic-decode` from the path the server resolved.
 * `all` answers each top-level image's size before decoding and `dispose` on the list, which frees libheif's context
 * (read from heic-decode's source, version 2.1.0; its published types name neither).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const decodeHeic = require(workerData.modulePath);
async function decodeFirstImage(bytes, limits) {
  let images;
  try {
    images = await decodeHeic.all({ buffer: bytes });
  } catch {
    return { kind: 'unreadable' };
  }
  try {
    const first = images[0];
    if (first === undefined) return { kind: 'unreadable' };
    if (first.width * first.height > limits.maxPixels) return { kind: 'too-many-pixels' };
    if (Math.min(first.width, first.height) < limits.minSidePixels) return { kind: 'too-small' };
    const decoded = await first.decode();
    const rgba = new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
    return { kind: 'ok', pixels: { width: decoded.width, height: decoded.height, rgba } };
  } catch {
    return { kind: 'unreadable' };
  } finally {
    if (typeof images.dispose === 'function') images.dispose();
  }
}
decodeFirstImage(workerData.bytes, workerData.limits).then((result) => {
  parentPort.postMessage(result, result.kind === 'ok' ? [result.pixels.rgba.buffer] : []);
});
`;

const HEIC_DECODE_PATH = createRequire(import.meta.url).resolve('heic-decode');

export interface HeicDecodeOptions {
  /** How long the worker may take before it is terminated (default 30 seconds). */
  timeoutMilliseconds?: number;
  /** Told when the worker has ended: whether the time passed and it was terminated. */
  onWorkerExit?: (ended: { timedOut: boolean; exitCode: number }) => void;
}

/**
 * Decodes in a worker thread of its own, terminated when the time passes, so a decode that runs too long stops and
 * its WebAssembly memory is given back with the thread (amended: decision 063). The answer comes once the thread has
 * ended, so the queue runs one thread at a time.
 */
function decodeInWorker(bytes: Buffer, options: HeicDecodeOptions): Promise<HeicDecoding> {
  return new Promise((resolve) => {
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        bytes: copy,
        modulePath: HEIC_DECODE_PATH,
        limits: { maxPixels: KYC_IMAGE_LIMITS.maxPixels, minSidePixels: KYC_IMAGE_LIMITS.minSidePixels },
      },
      transferList: [copy.buffer],
    });
    let answer: HeicDecoding = { kind: 'unreadable' };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void worker.terminate();
    }, options.timeoutMilliseconds ?? DECODE_TIMEOUT_MILLISECONDS);
    worker.once('message', (result: HeicDecoding) => {
      clearTimeout(timer);
      answer = result;
      // Its work is done: ending it now does not wait for anything libheif may still hold open.
      void worker.terminate();
    });
    worker.once('exit', (exitCode) => {
      clearTimeout(timer);
      options.onWorkerExit?.({ timedOut, exitCode });
      resolve(timedOut ? { kind: 'unreadable' } : answer);
    });
    // A failure inside the worker is an unreadable photo; the exit that follows answers it.
    worker.once('error', () => undefined);
  });
}

/** The first image of a HEIC file as upright pixels, or why it cannot be used. */
export function decodeHeicPhoto(bytes: Buffer, options: HeicDecodeOptions = {}): Promise<HeicDecoding> {
  return inQueue(() => decodeInWorker(bytes, options));
}
