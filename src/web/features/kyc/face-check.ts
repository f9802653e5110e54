import { Human, type Config, type FaceResult } from '@vladmandic/human';
import { FACE_CHECK_MODELS_PATH, FACE_CHECK_WASM_PATH } from './face-check-assets.ts';
import type { FaceObservation } from './liveness-steps.ts';

/*
 * The face check of the live selfie (decision 052), with @vladmandic/human on TensorFlow.js's WebAssembly
 * backend: it needs no GPU, so it runs the same on a phone and in headless Chromium. This module is
 * loaded by a dynamic import from the selfie step only (the library is 1.5 MB minified); models and WebAssembly
 * come from this app's origin.
 */

const BASE_CONFIG = {
  backend: 'wasm',
  modelBasePath: FACE_CHECK_MODELS_PATH,
  wasmPath: FACE_CHECK_WASM_PATH,
  wasmPlatformFetch: false,
  debug: false,
  async: true,
  warmup: 'none',
  // Every frame is looked at afresh: a cached answer could let an unchanged picture pass a step.
  cacheSensitivity: 0,
  // The image filters run on WebGL, which a phone without it, or a headless browser, may not have.
  filter: { enabled: false },
  face: {
    enabled: true,
    detector: { modelPath: 'blazeface.json', rotation: false, maxDetected: 2, minConfidence: 0.3, return: false },
    mesh: { enabled: true, modelPath: 'facemesh.json' },
    iris: { enabled: true, modelPath: 'iris.json' },
    description: { enabled: false, modelPath: 'faceres.json' },
    emotion: { enabled: false },
    antispoof: { enabled: true, modelPath: 'antispoof.json' },
    liveness: { enabled: true, modelPath: 'liveness.json' },
    attention: { enabled: false },
    gear: { enabled: false },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
} as unknown as Partial<Config>;

/** The gap between an eye's lids over the eye's height, from the face mesh (as the library's blink gesture measures it). */
function eyeOpenness(face: FaceResult): number {
  const mesh = face.mesh;
  if (mesh.length <= 450) return 0;
  const ratio = (lidTop: number, lidBottom: number, top: number, bottom: number) =>
    Math.abs(mesh[lidTop]![1] - mesh[lidBottom]![1]) / Math.max(1, Math.abs(mesh[top]![1] - mesh[bottom]![1]));
  return Math.max(ratio(374, 386, 443, 450), ratio(145, 159, 223, 230));
}

export interface FaceCheck {
  observe(frame: HTMLVideoElement | HTMLCanvasElement): Promise<FaceObservation>;
  /** The face descriptor of the one face in a picture, or null when there is none (or several). */
  describe(picture: HTMLCanvasElement | HTMLImageElement | ImageBitmap): Promise<number[] | null>;
  similarity(first: number[], second: number[]): number;
}

export async function loadFaceCheck(): Promise<FaceCheck> {
  const human = new Human(BASE_CONFIG);
  await human.load();
  await human.tf.ready();
  return {
    async observe(frame) {
      // A detection's settings stay with the library: the descriptor, switched on by describe(), is switched off again.
      const result = await human.detect(frame, { face: { description: { enabled: false } } } as unknown as Partial<Config>);
      const face = result.face[0];
      if (face === undefined) return { faces: 0, faceScore: 0, yaw: 0, eyeOpenness: 0, liveScore: 0, realScore: 0 };
      return {
        faces: result.face.length,
        faceScore: face.score,
        yaw: face.rotation?.angle.yaw ?? 0,
        eyeOpenness: eyeOpenness(face),
        liveScore: face.live ?? 0,
        realScore: face.real ?? 0,
      };
    },
    async describe(picture) {
      const result = await human.detect(picture, { face: { description: { enabled: true } } } as unknown as Partial<Config>);
      const embedding = result.face.length === 1 ? result.face[0]?.embedding : undefined;
      return embedding === undefined || embedding.length === 0 ? null : embedding;
    },
    similarity: (first, second) => human.match.similarity(first, second),
  };
}
