import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { matchNames, type NameMatchVerdict } from '../name-match.ts';
import { cursorQuerySchema, isoDateTimeSchema, pageSchema, uuidSchema } from './common.ts';
import { levelTwoStateSchema, type LevelTwoStatus } from './kyc-documents.ts';

/*
 * KYC levels (issue 32, decision 042). Level 0: signed up. Level 1: e-mail and mobile verified, a PAN
 * verified whose registered name matches the customer's name, and a self-declaration of tax residence;
 * money can leave the account (withdrawals, transfers) only from level 1. Level 2 adds a second
 * document, a live selfie and an address, approved by an admin (decision 050).
 */

export const KYC_LEVELS = [0, 1, 2] as const;
export type KycLevel = (typeof KYC_LEVELS)[number];

export const PAN_STATUSES = ['none', 'pending_review', 'verified', 'rejected'] as const;
export type PanStatus = (typeof PAN_STATUSES)[number];

/* ---------- PAN ---------- */

export const PAN_MESSAGES = {
  invalid: 'Enter a valid PAN: 5 letters, 4 digits and 1 letter, like ABCDE1234F.',
  notPlain: 'Enter the PAN with the plain letters A to Z and digits 0 to 9 only.',
  notPerson: 'Enter your own PAN: the 4th letter of a person’s PAN is P, like ABCPE1234F.',
  taken: 'This PAN is already registered to another account. If it is yours, contact support.',
  verifiedAlready: 'Your PAN is verified. To change it, contact support.',
  tooManyAttempts: 'Too many PAN submissions today. Try again tomorrow or contact support.',
  verified: 'PAN verified',
  rejected: 'PAN rejected',
  pendingReview: 'PAN saved. We will check it and tell you when it is verified.',
  providerUnavailable: 'PAN saved. We could not check it right now; we will check it and tell you when it is verified.',
  rejectedInvalid: 'The Income Tax Department has no record of this PAN. Check it and enter it again.',
  rejectedName: 'The name registered for this PAN does not match the name on your account.',
  reviewNameNeeded: 'Enter the name printed on the PAN card.',
  reviewReasonNeeded: 'Enter the reason the customer will see.',
  reviewNotPending: 'This PAN is not waiting for a review.',
  reviewOwnAccount: 'You cannot review your own PAN.',
  userNotFound: 'Customer not found',
  cardSaved: 'Photo of your PAN card added. We will check your PAN against it and tell you when it is verified.',
  cardNotWaiting: 'Enter your PAN first: the photo of the card goes with a PAN waiting for its check.',
  reviewCardNeeded: 'This PAN has no photo of the card to check it against: ask the customer for the photo, or reject the PAN.',
  cardRequested: 'The customer was asked for a photo of the PAN card',
} as const;

export const PAN_SHAPE = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
/** The 4th character is the holder type: P for a person (individual); customers are persons. */
export const PERSON_PAN_SHAPE = /^[A-Z]{3}P[A-Z][0-9]{4}[A-Z]$/;
const PLAIN_PAN_CHARACTERS = /^[A-Za-z0-9 ]*$/;

/** What a PAN shows after it is saved: the first five letters hidden, "XXXXX1234F". */
export function maskPan(pan: string): string {
  return `XXXXX${pan.slice(5)}`;
}

/**
 * A person's PAN. Anything but ASCII letters, digits and spaces is refused before any case change:
 * upper-casing "ﬀ" gives "FF" and a full-width "Ａ" is not "A", so folding would turn text that is no
 * PAN into a valid-looking one.
 */
export const personPanSchema = z
  .string({ error: PAN_MESSAGES.invalid })
  .max(20, PAN_MESSAGES.invalid)
  .refine((value) => PLAIN_PAN_CHARACTERS.test(value), PAN_MESSAGES.notPlain)
  .transform((value) => value.replaceAll(' ', '').toUpperCase())
  .refine((value) => PAN_SHAPE.test(value), PAN_MESSAGES.invalid)
  .refine((value) => PERSON_PAN_SHAPE.test(value), PAN_MESSAGES.notPerson);

export const submitPanRequestSchema = z.object({ pan: personPanSchema });
export type SubmitPanRequest = z.input<typeof submitPanRequestSchema>;

/* ---------- tax residence ---------- */

export const TAX_RESIDENCE_MESSAGES = {
  choose: 'Choose where you are resident for tax.',
  countryNeeded: 'Enter the other country where you are resident for tax.',
  countryTooLong: 'Enter the country in at most 60 characters.',
  confirmNeeded: 'Confirm that the declaration is true.',
  declared: 'Tax residence declared',
} as const;

export const taxResidenceRequestSchema = z
  .object({
    residence: z.enum(['india', 'other'], { error: TAX_RESIDENCE_MESSAGES.choose }),
    otherCountry: z.string({ error: TAX_RESIDENCE_MESSAGES.countryNeeded }).trim().max(60, TAX_RESIDENCE_MESSAGES.countryTooLong).optional(),
    confirmed: z.literal(true, { error: TAX_RESIDENCE_MESSAGES.confirmNeeded }),
  })
  .superRefine((value, context) => {
    if (value.residence === 'other' && (value.otherCountry === undefined || value.otherCountry.length < 2)) {
      context.addIssue({ code: 'custom', path: ['otherCountry'], message: TAX_RESIDENCE_MESSAGES.countryNeeded });
    }
  });
export type TaxResidenceRequest = z.input<typeof taxResidenceRequestSchema>;

/* ---------- levels ---------- */

export const KYC_CHECKS = ['email', 'mobile', 'pan', 'taxResidence', 'secondDocument', 'selfie', 'address'] as const;
export type KycCheck = (typeof KYC_CHECKS)[number];
export const KYC_CHECK_STATES = ['verified', 'missing', 'pending', 'rejected', 'not_available'] as const;
export type KycCheckState = (typeof KYC_CHECK_STATES)[number];

/** What the level rule reads about one customer. */
export interface KycFacts {
  emailVerified: boolean;
  mobileVerified: boolean;
  panStatus: PanStatus;
  panRegisteredName: string | null;
  /** The customer's name the PAN was accepted for (an admin may accept a partial match). */
  panNameAccepted: string | null;
  customerName: string;
  taxResidenceDeclared: boolean;
  /** The newest level 2 submission's state (decision 050); absent where only level 1 is read (the money gate). */
  levelTwoStatus?: LevelTwoStatus;
}

/** Whether the verified PAN's name is the customer's name now: the one rule of src/shared/name-match.ts, or the name it was accepted for. */
export function panNameHolds(facts: KycFacts): boolean {
  if (facts.panNameAccepted !== null && facts.panNameAccepted === facts.customerName) return true;
  return facts.panRegisteredName !== null && matchNames(facts.panRegisteredName, facts.customerName).verdict === 'match';
}

export function panCheckState(facts: KycFacts): KycCheckState {
  switch (facts.panStatus) {
    case 'none':
      return 'missing';
    case 'pending_review':
      return 'pending';
    case 'rejected':
      return 'rejected';
    case 'verified':
      return panNameHolds(facts) ? 'verified' : 'rejected';
  }
}

/** What `GET /api/kyc` can list as missing: the checks, and the PAN card's photo an admin needs to verify the PAN (decision 066). */
export const KYC_MISSING_ITEMS = ['email', 'mobile', 'pan', 'panCard', 'taxResidence', 'secondDocument', 'selfie', 'address'] as const;
export type KycMissingItem = (typeof KYC_MISSING_ITEMS)[number];

export const KYC_MISSING_TEXTS: Record<KycMissingItem, string> = {
  email: 'verify your e-mail address',
  mobile: 'verify your mobile number',
  pan: 'get your PAN verified in your name',
  panCard: 'add a photo of your PAN card',
  taxResidence: 'declare your tax residence',
  secondDocument: 'a second identity document',
  selfie: 'a live selfie',
  address: 'your address',
};

/** What says whether a PAN waiting for a person still needs the photo of its card. */
export interface PanCardFacts {
  panStatus: PanStatus;
  panCheckedBy: 'cashfree' | 'admin' | null;
  panCardImageId: string | null;
  panCardRequestReason: string | null;
}

/**
 * A PAN waiting for a person needs a photo of the card when no provider answered for it (none is configured, or
 * it could not answer), so the admin has the card to read the name from; or when the desk asked for the photo again.
 */
export function panCardNeeded(facts: PanCardFacts): boolean {
  if (facts.panStatus !== 'pending_review' || facts.panCardImageId !== null) return false;
  return facts.panCheckedBy !== 'cashfree' || facts.panCardRequestReason !== null;
}

/** The checks of level 1 not yet passed, in the order the KYC page shows them. */
export function missingForLevelOne(facts: KycFacts): KycCheck[] {
  const missing: KycCheck[] = [];
  if (!facts.emailVerified) missing.push('email');
  if (!facts.mobileVerified) missing.push('mobile');
  if (panCheckState(facts) !== 'verified') missing.push('pan');
  if (!facts.taxResidenceDeclared) missing.push('taxResidence');
  return missing;
}

/** Level 2's own checks, sent together and approved together by an admin (decision 050). */
export const LEVEL_TWO_CHECKS = ['secondDocument', 'selfie', 'address'] as const satisfies readonly KycCheck[];

/** Level 2 is level 1 plus an approved level 2 submission; level 1's facts still hold it up. */
export function kycLevelOf(facts: KycFacts): KycLevel {
  if (missingForLevelOne(facts).length > 0) return 0;
  return facts.levelTwoStatus === 'approved' ? 2 : 1;
}

export type MoneyLeaving = 'withdrawals' | 'transfers';

/** The refusal of the money gate: what is refused and exactly what is missing. */
export function kycGateMessage(leaving: MoneyLeaving, missing: readonly KycCheck[]): string {
  const what = leaving === 'withdrawals' ? 'Withdrawals' : 'Transfers to other customers';
  return `${what} need KYC level 1. Still missing: ${missing.map((check) => KYC_MISSING_TEXTS[check]).join('; ')}. Open the KYC page to finish.`;
}

export const KYC_TEXTS = {
  levelZeroHolds: 'Deposits to your account are credited to your balance, but you cannot withdraw or transfer them until you reach level 1.',
  unlocks: {
    1: 'Level 1 unlocks withdrawals to your bank account and transfers to other customers, within the level 1 limits.',
    2: 'Level 2 unlocks the full limits of your tier: send a second identity document, a live selfie and your address.',
  },
} as const;

/* ---------- GET /api/kyc ---------- */

const checkSchema = z.object({ state: z.enum(KYC_CHECK_STATES), message: z.string() });

export const kycStatusResponseSchema = z.object({
  level: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  nextLevel: z.union([z.literal(1), z.literal(2)]).nullable(),
  /** What reaching the next level allows. */
  nextLevelUnlocks: z.string().nullable(),
  checks: z.object({
    email: checkSchema,
    mobile: checkSchema,
    pan: checkSchema.extend({
      pan: z.string().nullable(),
      rejectionReason: z.string().nullable(),
      /** False: the PAN is inoperative (not linked to Aadhaar), so TDS takes the no-PAN rate. */
      aadhaarLinked: z.boolean().nullable(),
      /** The photo of the PAN card (decision 066): needed while a person checks the PAN without a provider's answer. */
      cardImage: z.enum(['needed', 'received', 'not_needed']),
      /** Why the desk asked for the card's photo again, when it did. */
      cardRequestReason: z.string().nullable(),
    }),
    taxResidence: checkSchema.extend({
      residence: z.enum(['india', 'other']).nullable(),
      otherCountry: z.string().nullable(),
      declaredAt: isoDateTimeSchema.nullable(),
    }),
    secondDocument: checkSchema,
    selfie: checkSchema,
    address: checkSchema,
  }),
  /** Exactly what the next level still needs, each with its text. */
  missing: z.array(z.object({ check: z.enum(KYC_MISSING_ITEMS), message: z.string() })),
  /** Why money cannot leave the account now (frozen, below level 1, KYC refresh overdue); null when it can. */
  moneyBlockedMessage: z.string().nullable(),
  /** The level's own INR limits (null: none); the tier's limits apply within them. */
  levelLimits: z.object({ dailyInr: z.string().nullable(), monthlyInr: z.string().nullable() }),
  /** The level 2 submission's state, the reason an admin gave, and what was asked for again (decision 050). */
  levelTwo: levelTwoStateSchema,
  /** Set while an admin has frozen the account: what the customer is told (decision 047). */
  accountFrozenMessage: z.string().nullable(),
  /** From level 1: when the KYC must be refreshed, whether that date has passed, and what to do. */
  refresh: z.object({ dueAt: isoDateTimeSchema, overdue: z.boolean(), open: z.boolean(), message: z.string() }).nullable(),
});
export type KycStatus = z.infer<typeof kycStatusResponseSchema>;

export const kycPanResponseSchema = z.object({ message: z.string(), kyc: kycStatusResponseSchema });
export const kycTaxResidenceResponseSchema = kycPanResponseSchema;

/* ---------- admin ---------- */

export const panReviewSchema = z.object({
  userId: uuidSchema,
  name: z.string(),
  email: z.string(),
  pan: z.string(),
  submittedAt: isoDateTimeSchema.nullable(),
  registeredName: z.string().nullable(),
  providerNameScore: z.number().int().nullable(),
  /** The app's own rule (src/shared/name-match.ts) on the registered name and the customer's name. */
  nameMatch: z.object({ score: z.number().int(), verdict: z.enum(['match', 'partial', 'mismatch']) }).nullable(),
  aadhaarLinked: z.boolean().nullable(),
  otherAccountsWithPan: z.number().int(),
  riskCategory: z.enum(['low', 'medium', 'high']),
  /** The photo of the PAN card the customer added (decision 066), served by `GET /api/admin/kyc/images/:id`. */
  cardImageId: uuidSchema.nullable(),
  /** Whether approving waits for that photo: no provider answered for this PAN, or the desk asked for it again. */
  cardImageNeeded: z.boolean(),
  cardRequestReason: z.string().nullable(),
});
export type PanReview = z.infer<typeof panReviewSchema>;
export const panReviewListResponseSchema = pageSchema(panReviewSchema);
export const panReviewQuerySchema = cursorQuerySchema;

/** The registered name an admin reads from the PAN card when approving. */
export const panRegisteredNameSchema = z
  .string({ error: PAN_MESSAGES.reviewNameNeeded })
  .trim()
  .min(1, PAN_MESSAGES.reviewNameNeeded)
  .max(LIMITS.nameLength, PAN_MESSAGES.reviewNameNeeded);
export const panRejectionReasonSchema = z
  .string({ error: PAN_MESSAGES.reviewReasonNeeded })
  .trim()
  .min(1, PAN_MESSAGES.reviewReasonNeeded)
  .max(500, PAN_MESSAGES.reviewReasonNeeded);

/**
 * `POST /api/admin/kyc/pan-reviews/:id/approve` (the id is the customer's): the name printed on the
 * PAN card and, when the admin learned it, that the PAN is inoperative (not linked to Aadhaar).
 */
export const verifyPanRequestSchema = z.object({
  registeredName: panRegisteredNameSchema,
  aadhaarLinked: z.boolean().optional(),
});
export type VerifyPanRequest = z.input<typeof verifyPanRequestSchema>;
export const rejectPanRequestSchema = z.object({ reason: panRejectionReasonSchema });
/** `POST /api/admin/kyc/pan-reviews/:id/request-card`: ask for the PAN card's photo (again), with a reason the customer sees. */
export const requestPanCardRequestSchema = z.object({ reason: panRejectionReasonSchema });
export const requestPanCardResponseSchema = z.object({ message: z.string(), review: panReviewSchema });
export type RejectPanRequest = z.input<typeof rejectPanRequestSchema>;
export const panReviewDecisionResponseSchema = z.object({ message: z.string(), review: panReviewSchema.extend({ status: z.enum(PAN_STATUSES) }) });

export const panConflictSchema = z.object({
  id: z.string(),
  pan: z.string(),
  source: z.enum(['submission', 'migration']),
  user: z.object({ id: uuidSchema, name: z.string(), email: z.string() }),
  existingUser: z.object({ id: uuidSchema, name: z.string(), email: z.string() }).nullable(),
  createdAt: isoDateTimeSchema,
});
export type PanConflict = z.infer<typeof panConflictSchema>;
export const panConflictListResponseSchema = pageSchema(panConflictSchema);

export type { NameMatchVerdict };

/* ---------- freeze, risk and the KYC refresh (decision 047) ---------- */

export const RISK_CATEGORIES = ['low', 'medium', 'high'] as const;
export type RiskCategory = (typeof RISK_CATEGORIES)[number];

export const FREEZE_MESSAGES = {
  reasonNeeded: 'Enter the reason (at most 500 characters).',
  frozen: 'Account frozen',
  unfrozen: 'Account unfrozen',
  unfreezeWaiting: 'Unfreezing waits for a second admin to confirm it.',
  alreadyFrozen: 'This account is already frozen.',
  notFrozen: 'This account is not frozen.',
  unfreezeAlreadyWaiting: 'An unfreeze of this account already waits for a second admin.',
  ownAccount: 'You cannot freeze, unfreeze or rate your own account.',
  approvalRefused: 'This customer’s account is frozen: reject the request, or lift the freeze first.',
  batchRefused: (withdrawalIds: string[]) => `Withdrawals ${withdrawalIds.join(', ')} belong to a frozen account: reject them, or lift the freeze first.`,
  /** What a frozen customer is told, in the app and in every refusal. */
  customer:
    'Your account is under review, so withdrawals, transfers and changes to your bank accounts are paused. Deposits are still credited to your balance. Contact support if you have questions.',
} as const;

export const RISK_MESSAGES = {
  choose: 'Choose a risk category: low, medium or high.',
  saved: 'Risk category saved',
} as const;

/** The KYC refresh: how many months a level 1 KYC lasts for each risk category, from the settings. */
export interface KycRefreshSettings {
  kycRefreshMonthsHighRisk: number;
  kycRefreshMonthsOther: number;
}

export function refreshMonthsFor(risk: RiskCategory, settings: KycRefreshSettings): number {
  return risk === 'high' ? settings.kycRefreshMonthsHighRisk : settings.kycRefreshMonthsOther;
}

/**
 * When the customer's KYC must be refreshed: the older of the PAN's last check and the tax residence
 * declaration, plus the months of their risk category (calendar months, UTC). Null below level 1.
 */
export function kycDueAt(checkedAt: { panCheckedAt: Date | null; taxResidenceDeclaredAt: Date | null }, months: number): Date | null {
  if (checkedAt.panCheckedAt === null || checkedAt.taxResidenceDeclaredAt === null) return null;
  const since = checkedAt.panCheckedAt < checkedAt.taxResidenceDeclaredAt ? checkedAt.panCheckedAt : checkedAt.taxResidenceDeclaredAt;
  const due = new Date(since.getTime());
  due.setUTCMonth(due.getUTCMonth() + months);
  return due;
}

/** From this many days before the due date the customer may refresh the KYC, and is told to. */
export const KYC_REFRESH_OPENS_DAYS_BEFORE = 14;

export function kycRefreshOpen(dueAt: Date | null, now: Date): boolean {
  return dueAt !== null && dueAt.getTime() - now.getTime() <= KYC_REFRESH_OPENS_DAYS_BEFORE * 24 * 60 * 60 * 1000;
}

export const KYC_REFRESH_MESSAGES = {
  /** The refusal of withdrawals and transfers after the due date, and what the KYC page says. */
  overdue:
    'Your KYC is overdue for its periodic refresh, so withdrawals and transfers are paused. Refresh it on the KYC page: submit your PAN again for a fresh check and declare your tax residence again.',
  due: 'Refresh your KYC by this date: submit your PAN again for a fresh check and declare your tax residence again.',
  notDue: 'Your KYC is refreshed periodically; you will be told 14 days before this date.',
} as const;

export const freezeRequestSchema = z.object({
  reason: z.string({ error: FREEZE_MESSAGES.reasonNeeded }).trim().min(1, FREEZE_MESSAGES.reasonNeeded).max(500, FREEZE_MESSAGES.reasonNeeded),
});
export type FreezeRequest = z.input<typeof freezeRequestSchema>;

export const riskCategoryRequestSchema = z.object({ riskCategory: z.enum(RISK_CATEGORIES, { error: RISK_MESSAGES.choose }) });
export type RiskCategoryRequest = z.input<typeof riskCategoryRequestSchema>;

/** A customer's KYC as the admin sees it on the user page: the level, each check and when, freeze, risk and the refresh date. */
export const adminKycRecordSchema = z.object({
  userId: uuidSchema,
  level: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  checks: z.array(z.object({ check: z.enum(KYC_CHECKS), state: z.enum(KYC_CHECK_STATES), at: isoDateTimeSchema.nullable() })),
  pan: z.object({
    pan: z.string().nullable(),
    status: z.enum(PAN_STATUSES),
    registeredName: z.string().nullable(),
    nameMatch: z.object({ score: z.number().int(), verdict: z.enum(['match', 'partial', 'mismatch']) }).nullable(),
    providerNameScore: z.number().int().nullable(),
    aadhaarLinked: z.boolean().nullable(),
    checkedBy: z.enum(['cashfree', 'admin']).nullable(),
    submittedAt: isoDateTimeSchema.nullable(),
    checkedAt: isoDateTimeSchema.nullable(),
    rejectionReason: z.string().nullable(),
  }),
  freeze: z.object({ frozenAt: isoDateTimeSchema, reason: z.string(), frozenBy: z.string().nullable() }).nullable(),
  /** The id of the unfreeze that waits for a second admin, if any. */
  unfreezePendingChangeId: z.string().nullable(),
  riskCategory: z.enum(RISK_CATEGORIES),
  kycDueAt: isoDateTimeSchema.nullable(),
  kycOverdue: z.boolean(),
});
export type AdminKycRecord = z.infer<typeof adminKycRecordSchema>;

export const freezeResponseSchema = z.object({ message: z.string(), kyc: adminKycRecordSchema });
export const unfreezeResponseSchema = z.object({ message: z.string(), kyc: adminKycRecordSchema, pendingChangeId: z.string().nullable() });
export const riskCategoryResponseSchema = freezeResponseSchema;
