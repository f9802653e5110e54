import { describe, expect, it } from 'vitest';
import { advance, isFinished, looksAtCamera, startProgress, type FaceObservation } from '../../src/web/features/kyc/liveness-steps.ts';

// The live selfie's steps, frame by frame (decision 052): a frontal frame first, then each step in order.
const frontal: FaceObservation = { faces: 1, faceScore: 0.95, yaw: 0.02, eyeOpenness: 0.4, liveScore: 0.9, realScore: 0.8 };

describe('the liveness steps', () => {
  it('wait for one face looking at the camera with open eyes, then take the steps in order', () => {
    let progress = startProgress(['turn_left', 'blink']);
    for (const observation of [
      { ...frontal, faces: 0 },
      { ...frontal, faceScore: 0.3 },
      { ...frontal, faces: 2 },
      { ...frontal, yaw: 0.4 },
      { ...frontal, eyeOpenness: 0.1 },
    ]) {
      const next = advance(progress, observation);
      expect(next.passed).toBe(false);
      progress = next.progress;
    }
    expect(progress.stepIndex).toBe(-1);
    expect(progress.hint).toBe('look_at_camera');
    expect(advance(progress, { ...frontal, faces: 2 }).progress.hint).toBe('several_faces');

    let next = advance(progress, frontal);
    expect(next).toMatchObject({ passed: true, progress: { stepIndex: 0, passedFrames: 1, frontal } });
    // A blink before the turn, or a turn to the right, does not count: the steps go in order.
    for (const observation of [
      { ...frontal, eyeOpenness: 0.1 },
      { ...frontal, yaw: 0.5 },
      { ...frontal, yaw: -0.2 },
    ]) {
      next = advance(next.progress, observation);
      expect(next.passed).toBe(false);
    }
    next = advance(next.progress, { ...frontal, yaw: -0.45, faceScore: 0.7 });
    expect(next).toMatchObject({ passed: true, progress: { stepIndex: 1, passedFrames: 2 } });
    next = advance(next.progress, { ...frontal, eyeOpenness: 0.15 });
    expect(next).toMatchObject({ passed: true, progress: { stepIndex: 2, passedFrames: 3, frontal } });
    expect(isFinished(next.progress)).toBe(true);
    expect(advance(next.progress, frontal).passed).toBe(false);
  });

  it('take a turn to the right as a positive yaw', () => {
    const started = advance(startProgress(['turn_right']), frontal).progress;
    expect(advance(started, { ...frontal, yaw: -0.6 }).passed).toBe(false);
    expect(isFinished(advance(started, { ...frontal, yaw: 0.6 }).progress)).toBe(true);
  });
});

describe('the frames that may become the selfie', () => {
  it('are those with one clear face looking at the camera with open eyes', () => {
    expect(looksAtCamera(frontal)).toBe(true);
    for (const other of [
      { ...frontal, faces: 2 },
      { ...frontal, faceScore: 0.3 },
      { ...frontal, yaw: -0.35 },
      { ...frontal, eyeOpenness: 0.1 },
    ]) {
      expect(looksAtCamera(other)).toBe(false);
    }
  });
});
