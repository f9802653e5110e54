import type { LivenessStep } from '#shared/contracts/kyc-documents';

/*
 * The live selfie's challenge, followed frame by frame (decision 052). The face check (face-check.ts)
 * turns each camera frame into an observation; this decides, without the library, whether the frame
 * shows one face looking at the camera, or the step being asked for. First the customer looks at the
 * camera (that frame becomes the selfie), then does each step in order.
 */

export interface FaceObservation {
  /** Faces in the frame: exactly one is needed. */
  faces: number;
  /** The detector's confidence that this is a face (0 to 1). */
  faceScore: number;
  /** Left-right rotation in radians, negative when the customer turns to their own left (the library's sign). */
  yaw: number;
  /** How open the more open eye is: the lid gap over the eye's height, about 0.3 and more when open. */
  eyeOpenness: number;
  /** The library's liveness and anti-spoofing scores (0 to 1). */
  liveScore: number;
  realScore: number;
}

export const LIVENESS_THRESHOLDS = {
  /** Below this the detector is not sure it sees a face. */
  minFaceScore: 0.5,
  /** Looking at the camera: the head turned less than this (about 9 degrees). */
  maxFrontalYaw: 0.15,
  /** A turn: the head turned more than this (about 17 degrees). */
  minTurnYaw: 0.3,
  /** Eyes open for the selfie, and the gap a blink must go below in both eyes (the library's blink gesture uses 0.2). */
  minOpenEyes: 0.25,
  maxClosedEyes: 0.2,
} as const;

export type FrameHint = 'no_face' | 'several_faces' | 'look_at_camera' | 'keep_going';

export interface LivenessProgress {
  challenge: readonly LivenessStep[];
  /** -1 while waiting for the frontal frame, then the index of the step being asked for; `challenge.length` when done. */
  stepIndex: number;
  /** Frames that passed: the frontal one and each step's. */
  passedFrames: number;
  /** The frontal frame's observation, whose picture becomes the selfie. */
  frontal: FaceObservation | null;
  hint: FrameHint;
}

export function startProgress(challenge: readonly LivenessStep[]): LivenessProgress {
  return { challenge, stepIndex: -1, passedFrames: 0, frontal: null, hint: 'look_at_camera' };
}

export function isFinished(progress: LivenessProgress): boolean {
  return progress.stepIndex >= progress.challenge.length;
}

function stepDone(step: LivenessStep, observation: FaceObservation): boolean {
  if (step === 'turn_left') return observation.yaw <= -LIVENESS_THRESHOLDS.minTurnYaw;
  if (step === 'turn_right') return observation.yaw >= LIVENESS_THRESHOLDS.minTurnYaw;
  return observation.eyeOpenness <= LIVENESS_THRESHOLDS.maxClosedEyes;
}

/** One face looking at the camera with open eyes: a frame that may become the selfie. */
export function looksAtCamera(observation: FaceObservation): boolean {
  if (observation.faces !== 1 || observation.faceScore < LIVENESS_THRESHOLDS.minFaceScore) return false;
  return Math.abs(observation.yaw) <= LIVENESS_THRESHOLDS.maxFrontalYaw && observation.eyeOpenness >= LIVENESS_THRESHOLDS.minOpenEyes;
}

/** The progress after one frame, and whether that frame passed (the caller keeps the frontal frame's picture). */
export function advance(progress: LivenessProgress, observation: FaceObservation): { progress: LivenessProgress; passed: boolean } {
  if (isFinished(progress)) return { progress, passed: false };
  if (observation.faces === 0 || observation.faceScore < LIVENESS_THRESHOLDS.minFaceScore) return { progress: { ...progress, hint: 'no_face' }, passed: false };
  if (observation.faces > 1) return { progress: { ...progress, hint: 'several_faces' }, passed: false };
  if (progress.stepIndex < 0) {
    if (!looksAtCamera(observation)) return { progress: { ...progress, hint: 'look_at_camera' }, passed: false };
    return { progress: { ...progress, stepIndex: 0, passedFrames: 1, frontal: observation, hint: 'keep_going' }, passed: true };
  }
  const step = progress.challenge[progress.stepIndex];
  if (step === undefined || !stepDone(step, observation)) return { progress: { ...progress, hint: 'keep_going' }, passed: false };
  return { progress: { ...progress, stepIndex: progress.stepIndex + 1, passedFrames: progress.passedFrames + 1, hint: 'keep_going' }, passed: true };
}
