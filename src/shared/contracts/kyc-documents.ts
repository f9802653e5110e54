import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { signupGeolocationSchema } from './signup-trail.ts';
import { cursorQuerySchema, isoDateTimeSchema, pageSchema, uuidSchema } from './common.ts';

/*
 * KYC level 2 (issue 32, decision 050): a second officially valid document with its images, a live
 * selfie and the address. Images are uploaded one by one (`POST /api/kyc/level2/images/:purpose`),
 * then the submission names them (`POST /api/kyc/level2`). A full 12-digit Aadhaar number is never
 * accepted in any field: only a masked Aadhaar (its last 4 digits) is kept.
 */

export const KYC_DOCUMENT_TYPES = ['passport', 'driving_licence', 'voter_id', 'aadhaar_masked'] as const;
export type KycDocumentType = (typeof KYC_DOCUMENT_TYPES)[number];
export const KYC_IMAGE_PURPOSES = ['document_front', 'document_back', 'selfie'] as const;
export type KycImagePurpose = (typeof KYC_IMAGE_PURPOSES)[number];
/** Every kind of KYC image stored: level 2's, and the PAN card's photo for the admin's PAN check (decision 066). */
export type KycStoredImagePurpose = KycImagePurpose | 'pan_card';
export const LEVEL_TWO_STATUSES = ['none', 'pending_review', 'approved', 'rejected', 'resubmit_requested'] as const;
export type LevelTwoStatus = (typeof LEVEL_TWO_STATUSES)[number];
/** What an admin may ask for again. */
export const REQUESTABLE_ITEMS = ['document_front', 'document_back', 'selfie', 'address'] as const;
export type RequestableItem = (typeof REQUESTABLE_ITEMS)[number];

export const KYC_IMAGE_LIMITS = {
  /** The largest file a phone sends (a 12-megapixel photo is 3 to 6 MB). */
  maxBytes: 10 * 1024 * 1024,
  /** 24 megapixels, checked from the header before decoding. */
  maxPixels: 24_000_000,
  /** A shorter side below this cannot show a document's text. */
  minSidePixels: 320,
  /** What is kept: the longer side scaled down to this. */
  storedMaxSidePixels: 2000,
  jpegQuality: 85,
} as const;

/** Documents whose back carries part of what is checked (the address, the photo of a voter ID). */
export const BACK_NEEDED: Record<KycDocumentType, boolean> = { passport: false, driving_licence: true, voter_id: true, aadhaar_masked: true };

export const KYC_DOCUMENT_MESSAGES = {
  chooseType: 'Choose the type of document: passport, driving licence, voter ID or masked Aadhaar.',
  passportNumber: 'Enter the passport number: a letter and 7 digits, like A1234567.',
  drivingLicenceNumber: 'Enter the driving licence number: 2 letters and 13 digits, like MH12 20110012345.',
  voterIdNumber: 'Enter the voter ID (EPIC) number: 3 letters and 7 digits, like ABC1234567.',
  aadhaarLastFour: 'Enter only the last 4 digits of your Aadhaar, as the masked Aadhaar shows them.',
  fullAadhaarRefused: 'Never enter a full 12-digit Aadhaar number. Use the masked Aadhaar, which shows only its last 4 digits.',
  nameNeeded: 'Enter your name as the document shows it.',
  addressLineNeeded: 'Enter your address (house, street and area).',
  cityNeeded: 'Enter your city or town.',
  stateNeeded: 'Enter your state or union territory.',
  pinCodeInvalid: 'Enter the 6-digit PIN code of your address.',
  textTooLong: 'This is too long.',
  frontNeeded: 'Add a photo of the front of the document.',
  backNeeded: 'Add a photo of the back of the document.',
  selfieNeeded: 'Take the live selfie first.',
  imageUnknown: 'This photo was not found. Add it again.',
  chooseImage: 'Choose a photo (JPEG, PNG or HEIC, at most 10 MB).',
  notAnImage: 'This file is not a photo we can read. Choose a JPEG, PNG or HEIC photo.',
  otherFormatRefused: 'We cannot read the format of this photo (such as AVIF). Choose a JPEG, PNG or HEIC photo.',
  photoUnreadable: 'This photo could not be read: the file may be damaged or incomplete. Take it again or choose another.',
  tooLarge: 'This photo is larger than 10 MB. Choose a smaller one.',
  tooManyPixels: 'This photo has more than 24 megapixels. Choose a smaller one.',
  tooSmall: 'This photo is too small to read. Take it again closer, at least 320 pixels on each side.',
  imageSaved: 'Photo added',
  submitted: 'Level 2 documents sent. We will check them and tell you when they are verified.',
  alreadyPending: 'Your level 2 documents are already waiting for a check.',
  alreadyApproved: 'Your KYC level 2 is already verified.',
  levelOneFirst: 'Reach KYC level 1 first.',
  tooManyUploads: 'Too many photos today. Try again tomorrow or contact support.',
  livenessInvalid: 'The liveness check did not finish. Take the selfie again.',
  livenessChallengeExpired: 'The liveness check took too long or was not the one we asked for. Take the selfie again.',
  tooManyFrames: 'Send at most 3 frames of the live selfie.',
  frameCountMismatch: 'The liveness report does not match the frames sent. Take the selfie again.',
} as const;

export const KYC_REVIEW_MESSAGES = {
  reasonNeeded: 'Enter the reason the customer will see (at most 500 characters).',
  chooseItem: 'Choose what the customer must send again.',
  notPending: 'This level 2 case is not waiting for a review.',
  ownAccount: 'You cannot review your own KYC.',
  notFound: 'Level 2 case not found',
  imageNotFound: 'Image not found',
  pinNeeded: 'Verify your PIN to see KYC documents.',
  approved: 'KYC level 2 approved',
  approvalWaiting: 'Approving level 2 waits for a second admin to confirm it.',
  approvalAlreadyWaiting: 'An approval of this case already waits for a second admin.',
  rejected: 'KYC level 2 rejected',
  requestedAgain: 'The customer was asked to send it again',
  selfieMissing: 'This case has no live selfie: ask for the selfie again, or reject it.',
} as const;

/** A full Aadhaar number: 12 digits, the first 2 to 9, alone or grouped 4-4-4 by spaces or hyphens. */
const FULL_AADHAAR = /(^|[^0-9])[2-9][0-9]{3}[\s-]?[0-9]{4}[\s-]?[0-9]{4}($|[^0-9])/;

export function containsFullAadhaar(text: string): boolean {
  return FULL_AADHAAR.test(text);
}

/** A text field of the submission: trimmed, bounded, and never holding a full Aadhaar number. */
function textField(message: string, max: number) {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, KYC_DOCUMENT_MESSAGES.textTooLong)
    .refine((value) => !containsFullAadhaar(value), KYC_DOCUMENT_MESSAGES.fullAadhaarRefused);
}

const NUMBER_RULES: Record<KycDocumentType, { shape: RegExp; message: string }> = {
  passport: { shape: /^[A-Z][0-9]{7}$/, message: KYC_DOCUMENT_MESSAGES.passportNumber },
  driving_licence: { shape: /^[A-Z]{2}[0-9]{13}$/, message: KYC_DOCUMENT_MESSAGES.drivingLicenceNumber },
  voter_id: { shape: /^[A-Z]{3}[0-9]{7}$/, message: KYC_DOCUMENT_MESSAGES.voterIdNumber },
  aadhaar_masked: { shape: /^[0-9]{4}$/, message: KYC_DOCUMENT_MESSAGES.aadhaarLastFour },
};

/**
 * The document number as kept: spaces and hyphens removed, upper case; a masked Aadhaar keeps its last
 * 4 digits as "XXXX XXXX 1234" (the customer may type them alone or as the masked copy shows them).
 * Answers the message of the type's format when the number does not fit it.
 */
export function normalizeDocumentNumber(type: KycDocumentType, raw: string): { number: string } | { error: string } {
  if (containsFullAadhaar(raw)) return { error: KYC_DOCUMENT_MESSAGES.fullAadhaarRefused };
  const rule = NUMBER_RULES[type];
  if (!/^[A-Za-z0-9 -]{1,24}$/.test(raw.trim())) return { error: rule.message };
  let compact = raw.replace(/[\s-]/g, '').toUpperCase();
  if (type === 'aadhaar_masked') compact = compact.replace(/^X{8}/, '');
  if (!rule.shape.test(compact)) return { error: rule.message };
  return { number: type === 'aadhaar_masked' ? `XXXX XXXX ${compact}` : compact };
}

export const kycAddressSchema = z.object({
  line1: textField(KYC_DOCUMENT_MESSAGES.addressLineNeeded, 200),
  line2: z
    .string({ error: KYC_DOCUMENT_MESSAGES.addressLineNeeded })
    .trim()
    .max(200, KYC_DOCUMENT_MESSAGES.textTooLong)
    .refine((value) => !containsFullAadhaar(value), KYC_DOCUMENT_MESSAGES.fullAadhaarRefused)
    .optional(),
  city: textField(KYC_DOCUMENT_MESSAGES.cityNeeded, 100),
  state: textField(KYC_DOCUMENT_MESSAGES.stateNeeded, 60),
  pinCode: z
    .string({ error: KYC_DOCUMENT_MESSAGES.pinCodeInvalid })
    .trim()
    .regex(/^[1-9][0-9]{5}$/, KYC_DOCUMENT_MESSAGES.pinCodeInvalid),
});
export type KycAddress = z.infer<typeof kycAddressSchema>;

const imageIdSchema = (message: string) => z.string({ error: message }).uuid(message);

/** `POST /api/kyc/level2`: the second document, its images, the selfie, the address and, when allowed, the position. */
export const submitLevelTwoRequestSchema = z
  .object({
    documentType: z.enum(KYC_DOCUMENT_TYPES, { error: KYC_DOCUMENT_MESSAGES.chooseType }),
    documentNumber: z.string({ error: KYC_DOCUMENT_MESSAGES.chooseType }).max(40, KYC_DOCUMENT_MESSAGES.textTooLong),
    nameOnDocument: textField(KYC_DOCUMENT_MESSAGES.nameNeeded, LIMITS.nameLength),
    frontImageId: imageIdSchema(KYC_DOCUMENT_MESSAGES.frontNeeded),
    backImageId: imageIdSchema(KYC_DOCUMENT_MESSAGES.backNeeded).optional(),
    /** The live selfie's best frame; a case without one cannot be approved (the desk asks for it). */
    selfieImageId: imageIdSchema(KYC_DOCUMENT_MESSAGES.selfieNeeded).optional(),
    address: kycAddressSchema,
    geolocation: signupGeolocationSchema.optional(),
  })
  .superRefine((value, context) => {
    const number = normalizeDocumentNumber(value.documentType, value.documentNumber);
    if ('error' in number) context.addIssue({ code: 'custom', path: ['documentNumber'], message: number.error });
    if (BACK_NEEDED[value.documentType] && value.backImageId === undefined) {
      context.addIssue({ code: 'custom', path: ['backImageId'], message: KYC_DOCUMENT_MESSAGES.backNeeded });
    }
  });
export type SubmitLevelTwoRequest = z.input<typeof submitLevelTwoRequestSchema>;

export const imagePurposeParamsSchema = z.object({ purpose: z.enum(KYC_IMAGE_PURPOSES) });

export const LIVENESS_STEPS = ['blink', 'turn_left', 'turn_right'] as const;
export type LivenessStep = (typeof LIVENESS_STEPS)[number];
/** The steps of one challenge, in order: as the server asks for them and as the report names them. */
const livenessChallengeStepsSchema = z.array(z.enum(LIVENESS_STEPS)).min(1).max(5);

/** The scores of one selfie frame that passed the challenge, as the browser measured them (0 to 1). */
export const livenessFrameScoresSchema = z.object({
  liveScore: z.number().min(0).max(1),
  realScore: z.number().min(0).max(1),
  faceScore: z.number().min(0).max(1),
  /** The similarity of the frame's face to the document photo's (0 to 1), when the browser could compare them. */
  documentSimilarity: z.number().min(0).max(1).nullable(),
});
export type LivenessFrameScores = z.infer<typeof livenessFrameScoresSchema>;

/** The most frames of the live selfie one upload may carry; the server keeps the best (decision 052). */
export const LIVENESS_MAX_FRAMES = 3;

/**
 * What is kept with the selfie (decisions 050, 052): the challenge, how many frames passed, the kept frame's scores,
 * and, when the browser sent several frames, every frame's scores in the order sent and which one was kept.
 */
export const livenessReportSchema = livenessFrameScoresSchema.extend({
  challenge: livenessChallengeStepsSchema,
  passedFrames: z.number().int().min(1).max(100),
  frames: z.array(livenessFrameScoresSchema).min(1).max(LIVENESS_MAX_FRAMES).optional(),
  keptFrameIndex: z
    .number()
    .int()
    .min(0)
    .max(LIVENESS_MAX_FRAMES - 1)
    .optional(),
});
export type LivenessReport = z.infer<typeof livenessReportSchema>;

/**
 * The order frames are ranked in, best first: the higher face detection score (the clearest face), then the higher
 * liveness, then the higher anti-spoofing (real) score, then the higher similarity to the document (not compared
 * counts lowest); on a full tie the earlier frame. Answers the index of the best frame.
 */
export function bestFrameIndex(frames: readonly LivenessFrameScores[]): number {
  const keys = (frame: LivenessFrameScores) => [frame.faceScore, frame.liveScore, frame.realScore, frame.documentSimilarity ?? -1];
  let best = 0;
  frames.forEach((frame, index) => {
    const [candidate, current] = [keys(frame), keys(frames[best] ?? frame)];
    const difference = candidate.findIndex((value, position) => value !== current[position]);
    if (difference >= 0 && (candidate[difference] ?? 0) > (current[difference] ?? 0)) best = index;
  });
  return best;
}

/** How long a challenge may take from the server's choice to the selfie's upload. */
export const LIVENESS_CHALLENGE_MINUTES = 10;

/**
 * `POST /api/kyc/level2/liveness-challenge` (decision 052): the steps the server chose at random, and a
 * token that signs them for this customer until `expiresAt`, so the report cannot name other steps.
 */
export const livenessChallengeResponseSchema = z.object({
  challenge: livenessChallengeStepsSchema,
  token: z.string().max(1024),
  expiresAt: isoDateTimeSchema,
});
export type LivenessChallenge = z.infer<typeof livenessChallengeResponseSchema>;

const challengeTokenSchema = z.string().min(1).max(1024);

/**
 * The selfie upload's `liveness` field: the token of the challenge it answers, and either one frame's scores (one
 * `file` part) or `frames`, the scores of each `file` part in the order sent, at most 3 (decision 052).
 */
export const livenessUploadSchema = z.union([
  z.object({
    challenge: livenessChallengeStepsSchema,
    challengeToken: challengeTokenSchema,
    passedFrames: z.number().int().min(1).max(100),
    frames: z.array(livenessFrameScoresSchema).min(1).max(LIVENESS_MAX_FRAMES),
  }),
  livenessFrameScoresSchema.extend({
    challenge: livenessChallengeStepsSchema,
    challengeToken: challengeTokenSchema,
    passedFrames: z.number().int().min(1).max(100),
  }),
]);
export type LivenessUpload = z.infer<typeof livenessUploadSchema>;

/**
 * Similarity (0 to 1) of the selfie's face descriptor to the document photo's, in plain words for the reviewer
 * (decision 052). The library's own guidance is that above 0.5 the faces can be taken as one person's.
 */
export function documentSimilarityVerdict(similarity: number | null): 'same_person_likely' | 'unsure' | 'different_person_likely' | 'not_compared' {
  if (similarity === null) return 'not_compared';
  if (similarity >= 0.5) return 'same_person_likely';
  if (similarity >= 0.4) return 'unsure';
  return 'different_person_likely';
}

export const uploadKycImageResponseSchema = z.object({
  message: z.string(),
  image: z.object({ id: uuidSchema, purpose: z.enum(KYC_IMAGE_PURPOSES), width: z.number().int(), height: z.number().int() }),
});

/** Level 2 as `GET /api/kyc` answers it. */
export const levelTwoStateSchema = z.object({
  status: z.enum(LEVEL_TWO_STATUSES),
  documentType: z.enum(KYC_DOCUMENT_TYPES).nullable(),
  submittedAt: isoDateTimeSchema.nullable(),
  /** The reason an admin gave for a rejection or for asking again; the customer sees it. */
  reason: z.string().nullable(),
  requestedAgain: z.enum(REQUESTABLE_ITEMS).nullable(),
});
export type LevelTwoState = z.infer<typeof levelTwoStateSchema>;

/* ---------- the desk ---------- */

const nameMatchSchema = z.object({ score: z.number().int(), verdict: z.enum(['match', 'partial', 'mismatch']) });

export const levelTwoCaseSummarySchema = z.object({
  id: uuidSchema,
  userId: uuidSchema,
  name: z.string(),
  email: z.string(),
  documentType: z.enum(KYC_DOCUMENT_TYPES),
  submittedAt: isoDateTimeSchema,
  riskCategory: z.enum(['low', 'medium', 'high']),
  /** The one name rule on the document's name and the customer's name. */
  nameMatch: nameMatchSchema,
  pendingChangeId: z.string().nullable(),
});
export type LevelTwoCaseSummary = z.infer<typeof levelTwoCaseSummarySchema>;
export const levelTwoCaseListResponseSchema = pageSchema(levelTwoCaseSummarySchema);
export const levelTwoCaseQuerySchema = cursorQuerySchema;

const trailSchema = z.object({
  ipAddress: z.string(),
  userAgent: z.string().nullable(),
  at: isoDateTimeSchema,
  geolocation: z.object({
    status: z.enum(['granted', 'denied', 'unavailable', 'not_asked']),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    accuracyMeters: z.number().nullable(),
  }),
});

export const levelTwoCaseSchema = levelTwoCaseSummarySchema.extend({
  status: z.enum(['pending_review', 'approved', 'rejected', 'resubmit_requested']),
  documentNumber: z.string(),
  nameOnDocument: z.string(),
  /** The one name rule on the document's name and the PAN's registered name, when the PAN has one. */
  panNameMatch: nameMatchSchema.nullable(),
  pan: z.object({ status: z.string(), registeredName: z.string().nullable(), checkedBy: z.string().nullable(), aadhaarLinked: z.boolean().nullable() }),
  address: z.object({ line1: z.string(), line2: z.string().nullable(), city: z.string(), state: z.string(), pinCode: z.string() }),
  images: z.array(z.object({ id: uuidSchema, purpose: z.enum(KYC_IMAGE_PURPOSES), width: z.number().int(), height: z.number().int() })),
  liveness: livenessReportSchema.nullable(),
  submission: trailSchema,
  signup: trailSchema.nullable(),
  decidedAt: isoDateTimeSchema.nullable(),
  reason: z.string().nullable(),
  requestedAgain: z.enum(REQUESTABLE_ITEMS).nullable(),
});
export type LevelTwoCase = z.infer<typeof levelTwoCaseSchema>;

export const levelTwoReasonSchema = z
  .string({ error: KYC_REVIEW_MESSAGES.reasonNeeded })
  .trim()
  .min(1, KYC_REVIEW_MESSAGES.reasonNeeded)
  .max(500, KYC_REVIEW_MESSAGES.reasonNeeded);
export const rejectLevelTwoRequestSchema = z.object({ reason: levelTwoReasonSchema });
export type RejectLevelTwoRequest = z.input<typeof rejectLevelTwoRequestSchema>;
export const requestAgainRequestSchema = z.object({ item: z.enum(REQUESTABLE_ITEMS, { error: KYC_REVIEW_MESSAGES.chooseItem }), reason: levelTwoReasonSchema });
export type RequestAgainRequest = z.input<typeof requestAgainRequestSchema>;
export const levelTwoDecisionResponseSchema = z.object({ message: z.string(), case: levelTwoCaseSchema, pendingChangeId: z.string().nullable() });
