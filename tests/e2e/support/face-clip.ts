import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jpeg from 'jpeg-js';

/*
 * The clip Chromium's fake camera plays in the live selfie's browser test (decision 052): a face looking at the
 * camera, then turned to its own left (tests/fixtures/faces/README.md says where the pictures come from). Y4M at
 * one frame a second, each picture held for several seconds, so the face check, which takes about a second a
 * frame in a busy headless Chromium, sees each pose. Chromium plays it in a loop.
 */

const FACES = path.resolve(import.meta.dirname, '../../fixtures/faces');
const SECONDS_PER_POSE = 4;

/** The picture as planar YUV 4:2:0 (BT.601, full range), as Y4M's C420jpeg holds it. */
function yuv420(picture: Buffer): { width: number; height: number; frame: Buffer } {
  const { width, height, data } = jpeg.decode(picture, { useTArray: true });
  const luma = Buffer.alloc(width * height);
  const chromaBlue = Buffer.alloc((width / 2) * (height / 2));
  const chromaRed = Buffer.alloc((width / 2) * (height / 2));
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      const [red, green, blue] = [data[at]!, data[at + 1]!, data[at + 2]!];
      luma[y * width + x] = Math.round(0.299 * red + 0.587 * green + 0.114 * blue);
      if (x % 2 === 0 && y % 2 === 0) {
        const half = (y / 2) * (width / 2) + x / 2;
        chromaBlue[half] = Math.max(0, Math.min(255, Math.round(128 - 0.168736 * red - 0.331264 * green + 0.5 * blue)));
        chromaRed[half] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * red - 0.418688 * green - 0.081312 * blue)));
      }
    }
  }
  return { width, height, frame: Buffer.concat([luma, chromaBlue, chromaRed]) };
}

/**
 * The clip's path, written once: Playwright loads the spec in its runner and again in each worker, so the file is
 * named by the pictures it is made of (and this code) and reused while they are unchanged, instead of a new 3.7 MB
 * folder in the temporary directory at every load. It is written under another name and renamed into place, so a
 * reader never sees half a clip.
 */
export function writeFaceClip(): string {
  const pictures = ['cgi-frontal.jpg', 'cgi-turned-left.jpg'].map((name) => fs.readFileSync(path.join(FACES, name)));
  // This file's own text is part of the name too, so a change to the conversion makes a new clip.
  const digest = createHash('sha256').update(fs.readFileSync(import.meta.filename));
  for (const picture of pictures) digest.update(picture);
  const file = path.join(os.tmpdir(), `rupeedesk-face-clip-${digest.digest('hex').slice(0, 16)}.y4m`);
  if (fs.existsSync(file)) return file;
  const poses = pictures.map(yuv420);
  const { width, height } = poses[0]!;
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F1:1 Ip A1:1 C420jpeg\n`)];
  for (const pose of poses) for (let second = 0; second < SECONDS_PER_POSE; second += 1) parts.push(Buffer.from('FRAME\n'), pose.frame);
  const partial = `${file}.${process.pid}`;
  fs.writeFileSync(partial, Buffer.concat(parts));
  fs.renameSync(partial, file);
  return file;
}

/** The document photo of the test: the same face, looking at the camera. */
export function documentFacePhoto(): Buffer {
  return fs.readFileSync(path.join(FACES, 'cgi-frontal.jpg'));
}
