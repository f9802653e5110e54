/*
 * The face check's model and WebAssembly files (decision 052), served from this app's origin: the build
 * copies them from the installed packages under /assets/, whose answers are cached for good, so the
 * versions are in the path. vite.config.ts checks that the installed packages have these versions.
 */

export const HUMAN_VERSION = '3.3.6';
export const TFJS_WASM_VERSION = '4.22.0';

export const FACE_CHECK_MODELS_PATH = `/assets/face-check/human-${HUMAN_VERSION}/models/`;
export const FACE_CHECK_WASM_PATH = `/assets/face-check/tfjs-backend-wasm-${TFJS_WASM_VERSION}/`;

/** Face box, face mesh, eyes (for the blink), anti-spoofing, liveness, and the face descriptor (for the similarity). */
export const FACE_CHECK_MODELS = ['blazeface', 'facemesh', 'iris', 'antispoof', 'liveness', 'faceres'] as const;

/** The SIMD build and the plain one for browsers without SIMD; the threaded one needs cross-origin isolation, which the app does not have. */
export const FACE_CHECK_WASM_FILES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm'] as const;
