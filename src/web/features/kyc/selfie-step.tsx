import { useEffect, useRef, useState, type RefObject } from 'react';
import {
  bestFrameIndex,
  LIVENESS_MAX_FRAMES,
  livenessChallengeResponseSchema,
  type LivenessChallenge,
  type LivenessStep,
} from '#shared/contracts/kyc-documents';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { requestCamera } from './camera-request.ts';
import type { FaceCheck } from './face-check.ts';
import { uploadSelfieFrames } from './kyc-photo-upload.ts';
import { advance, isFinished, looksAtCamera, startProgress, type FaceObservation, type FrameHint, type LivenessProgress } from './liveness-steps.ts';

/*
 * The live selfie (issue 32, decision 052): the server chooses the steps, the front camera shows the
 * customer, and the face check (loaded here only) follows each frame until the steps are done. Up to 3
 * frames looking at the camera are compared with the document's photo and sent with their scores; the
 * server keeps the best by the one rule (bestFrameIndex).
 * A camera that is denied, missing or busy, or a phone the check cannot run on, gets its own message
 * and a way forward: try again, or continue on another phone. Nothing here leaves the screen blank.
 */

export interface Selfie {
  id: string;
  /** The frontal frame as a data URL, shown back to the customer. */
  preview: string;
}

type Phase =
  | { name: 'idle' }
  | { name: 'starting' }
  | { name: 'running'; progress: LivenessProgress }
  | { name: 'sending' }
  | { name: 'problem'; problem: Problem; message?: string };

type Problem = 'denied' | 'absent' | 'busy' | 'unsupported' | 'load_failed' | 'timed_out' | 'upload_failed';

/** The whole check gives up after this long, so a customer who cannot pass is told what to do. */
const CHECK_SECONDS = 90;

const STEP_TEXTS: Record<LivenessStep, MessageKey> = {
  blink: 'kyc.selfieStepBlink',
  turn_left: 'kyc.selfieStepTurnLeft',
  turn_right: 'kyc.selfieStepTurnRight',
};

const HINT_TEXTS: Record<FrameHint, MessageKey> = {
  no_face: 'kyc.selfieHintNoFace',
  several_faces: 'kyc.selfieHintSeveralFaces',
  look_at_camera: 'kyc.selfieHintLookAtCamera',
  keep_going: 'kyc.selfieHintKeepGoing',
};

const PROBLEM_TEXTS: Record<Problem, MessageKey> = {
  denied: 'kyc.selfieCameraDenied',
  absent: 'kyc.selfieCameraAbsent',
  busy: 'kyc.selfieCameraBusy',
  unsupported: 'kyc.selfieUnsupported',
  load_failed: 'kyc.selfieLoadFailed',
  timed_out: 'kyc.selfieTimedOut',
  upload_failed: 'kyc.selfieUploadFailed',
};

function cameraProblem(error: unknown): Problem {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'absent';
  return 'busy';
}

/** The camera's current picture, as the selfie is kept: not mirrored, as the document shows the face. */
function captureFrame(video: HTMLVideoElement): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')?.drawImage(video, 0, 0);
  return canvas;
}

function toJpeg(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no picture'))), 'image/jpeg', 0.9));
}

const clampScore = (score: number) => Math.min(1, Math.max(0, score));

type FaceDescriptor = NonNullable<Awaited<ReturnType<FaceCheck['describe']>>>;

/** The document photo's face descriptor, or null when it shows no single face. */
async function documentFace(check: FaceCheck, documentPhoto: File): Promise<FaceDescriptor | null> {
  let photo: ImageBitmap;
  try {
    photo = await createImageBitmap(documentPhoto);
  } catch {
    return null;
  }
  const face = await check.describe(photo);
  photo.close();
  return face;
}

/** The similarity of a frame's face to the document photo's, or null when either shows no single face. */
async function documentSimilarity(check: FaceCheck, selfie: HTMLCanvasElement, document: FaceDescriptor | null): Promise<number | null> {
  if (document === null) return null;
  const selfieFace = await check.describe(selfie);
  if (selfieFace === null) return null;
  return clampScore(check.similarity(selfieFace, document));
}

/** Asks for the front camera: its stream, the problem that stopped it, or undefined when the step no longer wants it. */
async function openCamera(current: () => boolean): Promise<MediaStream | Problem | undefined> {
  try {
    return await requestCamera(
      () =>
        navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } },
          audio: false,
        }),
      current,
    );
  } catch (cameraError) {
    return cameraProblem(cameraError);
  }
}

/** Shows the camera in the step's video and loads the face check and the server's challenge. */
async function prepareCheck(video: HTMLVideoElement, stream: MediaStream): Promise<[FaceCheck, LivenessChallenge]> {
  video.srcObject = stream;
  await video.play();
  return Promise.all([
    import('./face-check.ts').then((module) => module.loadFaceCheck()),
    apiRequest('/api/kyc/level2/liveness-challenge', livenessChallengeResponseSchema, { method: 'POST' }),
  ]);
}

/** A frame that looked at the camera, with what the face check saw in it. */
interface FrontalFrame {
  canvas: HTMLCanvasElement;
  observation: FaceObservation;
}

type Followed = { kind: 'done'; progress: LivenessProgress; frontalFrames: FrontalFrame[] } | { kind: 'timed_out' } | { kind: 'left' };

/** Follows the camera's frames through the challenge until its steps are done, the time is up or the step is left. */
async function followChallenge(
  check: FaceCheck,
  video: HTMLVideoElement,
  challenge: LivenessChallenge,
  current: () => boolean,
  show: (progress: LivenessProgress) => void,
): Promise<Followed> {
  let progress = startProgress(challenge.challenge);
  // The first frame looking at the camera starts the steps; later ones during the steps are candidates too.
  const frontalFrames: FrontalFrame[] = [];
  const giveUpAt = Date.now() + CHECK_SECONDS * 1000;
  show(progress);
  while (!isFinished(progress)) {
    if (!current()) return { kind: 'left' };
    if (Date.now() > giveUpAt) return { kind: 'timed_out' };
    const frame = captureFrame(video);
    const observation = await check.observe(frame);
    const next = advance(progress, observation);
    if (next.progress.stepIndex >= 0 && looksAtCamera(observation) && frontalFrames.length < LIVENESS_MAX_FRAMES) {
      frontalFrames.push({ canvas: frame, observation });
    }
    progress = next.progress;
    if (current()) show(progress);
    // A breath between frames, so a fast phone does not spend its battery on the check.
    await new Promise((resolve) => window.setTimeout(resolve, 100));
  }
  return { kind: 'done', progress, frontalFrames };
}

/**
 * Sends the frames that looked at the camera with the liveness report (each frame's scores and its similarity to the
 * document photo); answers the selfie's id and the frame the server keeps by the same rule, to show back.
 */
async function sendSelfie(
  check: FaceCheck,
  challenge: LivenessChallenge,
  progress: LivenessProgress,
  frontalFrames: FrontalFrame[],
  photo: File,
): Promise<{ id: string; kept: HTMLCanvasElement }> {
  const document = await documentFace(check, photo);
  const frames = [];
  for (const { canvas, observation } of frontalFrames) {
    frames.push({
      liveScore: clampScore(observation.liveScore),
      realScore: clampScore(observation.realScore),
      faceScore: clampScore(observation.faceScore),
      documentSimilarity: await documentSimilarity(check, canvas, document),
    });
  }
  const report = { challenge: challenge.challenge, challengeToken: challenge.token, passedFrames: progress.passedFrames, frames };
  const blobs = await Promise.all(frontalFrames.map(({ canvas }) => toJpeg(canvas)));
  const id = await uploadSelfieFrames(blobs, report);
  const kept = frontalFrames[bestFrameIndex(frames)] ?? frontalFrames[0];
  if (kept === undefined) throw new Error('no frame to send');
  return { id, kept: kept.canvas };
}

/** What one press of Start works with: whether it is still the step's run, its phase, its video and its camera. */
interface SelfieRun {
  current: () => boolean;
  setPhase: (phase: Phase) => void;
  video: () => HTMLVideoElement | null;
  keepStream: (stream: MediaStream) => void;
  stopCamera: () => void;
}

const apiMessage = (error: unknown) => (error instanceof ApiError ? error.message : undefined);

async function runLiveSelfie(photo: File, run: SelfieRun, onChange: (selfie: Selfie | null) => void): Promise<void> {
  onChange(null);
  run.setPhase({ name: 'starting' });
  if (navigator.mediaDevices?.getUserMedia === undefined || typeof WebAssembly === 'undefined') {
    run.setPhase({ name: 'problem', problem: 'unsupported' });
    return;
  }
  const stream = await openCamera(run.current);
  if (typeof stream === 'string') {
    if (run.current()) run.setPhase({ name: 'problem', problem: stream });
    return;
  }
  if (stream === undefined) return;
  run.keepStream(stream);
  let check: FaceCheck;
  let challenge: LivenessChallenge;
  try {
    const video = run.video();
    if (video === null || !run.current()) return;
    [check, challenge] = await prepareCheck(video, stream);
  } catch (loadError) {
    run.stopCamera();
    if (run.current()) run.setPhase({ name: 'problem', problem: 'load_failed', message: apiMessage(loadError) });
    return;
  }
  const video = run.video();
  if (video === null || !run.current()) return;
  const followed = await followChallenge(check, video, challenge, run.current, (progress) => run.setPhase({ name: 'running', progress }));
  // A run that was left stops nothing: Stop turned its camera off, and the camera now may be a newer run's.
  if (followed.kind === 'left' || !run.current()) return;
  run.stopCamera();
  if (followed.kind === 'timed_out') {
    run.setPhase({ name: 'problem', problem: 'timed_out' });
    return;
  }
  const { progress, frontalFrames } = followed;
  if (frontalFrames.length === 0) return;
  run.setPhase({ name: 'sending' });
  try {
    const { id, kept } = await sendSelfie(check, challenge, progress, frontalFrames, photo);
    if (!run.current()) return;
    onChange({ id, preview: kept.toDataURL('image/jpeg', 0.7) });
    run.setPhase({ name: 'idle' });
  } catch (uploadError) {
    if (run.current()) run.setPhase({ name: 'problem', problem: 'upload_failed', message: apiMessage(uploadError) });
  }
}

/** The step's phase and camera: Start runs the check on a document photo, Stop (or leaving the step) turns the camera off. */
function useLiveSelfie(onChange: (selfie: Selfie | null) => void) {
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  // Raised when the step is left or started again: a running check stops at its next frame.
  const runRef = useRef(0);

  const stopCamera = () => {
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  };

  useEffect(
    () => () => {
      runRef.current += 1;
      stopCamera();
    },
    [],
  );

  const start = (photo: File) => {
    const run = ++runRef.current;
    const keepStream = (stream: MediaStream) => {
      streamRef.current = stream;
    };
    void runLiveSelfie(photo, { current: () => runRef.current === run, setPhase, video: () => videoRef.current, keepStream, stopCamera }, onChange);
  };
  const stop = () => {
    runRef.current += 1;
    stopCamera();
    setPhase({ name: 'idle' });
  };
  return { phase, videoRef, start, stop };
}

function SelfieCamera({ phase, running, videoRef }: { phase: Phase; running: boolean; videoRef: RefObject<HTMLVideoElement | null> }) {
  const progress = phase.name === 'running' ? phase.progress : null;
  const step = progress && progress.stepIndex >= 0 ? progress.challenge[progress.stepIndex] : undefined;
  return (
    <div className={running ? 'flex flex-col gap-2' : 'hidden'}>
      <video ref={videoRef} muted playsInline className="aspect-[4/3] w-full -scale-x-100 rounded bg-slate-900 object-cover" aria-hidden />
      <div aria-live="polite" className="text-sm" data-testid="kyc-selfie-instruction">
        {phase.name === 'starting' && <p>{t('kyc.selfieStarting')}</p>}
        {progress && (
          <>
            <p className="font-medium">
              {step === undefined
                ? t('kyc.selfieLookAtCamera')
                : t('kyc.selfieStepOf', { step: progress.stepIndex + 1, count: progress.challenge.length, what: t(STEP_TEXTS[step]) })}
            </p>
            {progress.hint !== 'keep_going' && <p className="text-slate-600">{t(HINT_TEXTS[progress.hint])}</p>}
          </>
        )}
      </div>
    </div>
  );
}

function SelfieProblem({ problem, message }: { problem: Problem; message?: string }) {
  const kycUrl = `${window.location.origin}/kyc`;
  return (
    <Alert variant="destructive" data-testid="kyc-selfie-problem">
      <p className="font-medium">{message ? localizeMessage(message) : t(PROBLEM_TEXTS[problem])}</p>
      {(problem === 'denied' || problem === 'absent' || problem === 'busy' || problem === 'unsupported') && (
        <p className="mt-1">{t('kyc.selfieAnotherDevice', { url: kycUrl })}</p>
      )}
      {problem === 'denied' && <p className="mt-1">{t('kyc.selfieAllowCamera')}</p>}
    </Alert>
  );
}

export function SelfieStep({
  documentPhoto,
  selfie,
  onChange,
  error,
}: {
  documentPhoto: File | undefined;
  selfie: Selfie | null;
  onChange: (selfie: Selfie | null) => void;
  error?: string;
}) {
  const { phase, videoRef, start, stop } = useLiveSelfie(onChange);
  const running = phase.name === 'running' || phase.name === 'starting';

  return (
    <section className="flex flex-col gap-3 rounded-md border border-slate-200 p-3" aria-labelledby="kyc-selfie-title" data-testid="kyc-selfie">
      <h3 id="kyc-selfie-title" className="font-medium">
        {t('kyc.selfieTitle')}
      </h3>
      {selfie === null && phase.name === 'idle' && <p className="text-sm text-slate-600">{t('kyc.selfieIntro')}</p>}
      {selfie !== null && (
        <div className="flex items-center gap-3">
          <img src={selfie.preview} alt={t('kyc.selfieTakenAlt')} className="h-20 w-auto rounded border border-slate-200" />
          <p className="text-sm text-emerald-700" role="status">
            {t('kyc.selfieTaken')}
          </p>
        </div>
      )}
      <SelfieCamera phase={phase} running={running} videoRef={videoRef} />
      {phase.name === 'sending' && <p className="text-sm">{t('kyc.selfieSending')}</p>}
      {phase.name === 'problem' && <SelfieProblem problem={phase.problem} message={phase.message} />}
      {error && selfie === null && phase.name === 'idle' && <p className="text-sm text-red-700">{localizeMessage(error)}</p>}
      {documentPhoto === undefined && selfie === null && <p className="text-sm text-slate-600">{t('kyc.selfieFrontFirst')}</p>}
      {!running && phase.name !== 'sending' && (
        <Button
          type="button"
          variant={selfie === null ? 'default' : 'outline'}
          disabled={documentPhoto === undefined}
          onClick={() => documentPhoto !== undefined && start(documentPhoto)}
        >
          {phase.name === 'problem' ? t('kyc.selfieTryAgain') : selfie === null ? t('kyc.selfieStart') : t('kyc.selfieRetake')}
        </Button>
      )}
      {running && (
        <Button type="button" variant="ghost" onClick={stop}>
          {t('kyc.selfieCancel')}
        </Button>
      )}
    </section>
  );
}
