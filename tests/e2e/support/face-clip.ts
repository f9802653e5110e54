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
function yuv420(file: string): { width: number; height: number; frame: Buffer } {
  const { width, height, data } = jpeg.decode(fs.readFileSync(file), { useTArray: true });
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

/** Writes the clip into a temporary folder and answers its path. */
export function writeFaceClip(): string {
  const poses = ['cgi-frontal.jpg', 'cgi-turned-left.jpg'].map((name) => yuv420(path.join(FACES, name)));
  const { width, height } = poses[0]!;
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F1:1 Ip A1:1 C420jpeg\n`)];
  for (const pose of poses) for (let second = 0; second < SECONDS_PER_POSE; second += 1) parts.push(Buffer.from('FRAME\n'), pose.frame);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rupeedesk-face-clip-')), 'face.y4m');
  fs.writeFileSync(file, Buffer.concat(parts));
  return file;
}

/** The document photo of the test: the same face, looking at the camera. */
export function documentFacePhoto(): Buffer {
  return fs.readFileSync(path.join(FACES, 'cgi-frontal.jpg'));
}
