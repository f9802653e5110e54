import { z } from 'zod';
import { EXAMPLE_PHONE } from '../limits.ts';
import { FORBIDDEN_CHARACTERS_MESSAGE, hasForbiddenCharacters } from '../text.ts';
import { emailSchema, normalizePhone, phoneSchema } from './auth.ts';
import { isoDateTimeSchema } from './common.ts';

/*
 * The operator's identity and its grievance officer (issues 32 and 33, decision 051): settings an admin
 * edits, shown in the footer, on the terms and privacy pages and in the consent and privacy notice a
 * customer accepts before KYC starts. Every field may be empty (not known yet); the pages leave an empty
 * one out. A save without `operatorIdentity` keeps the current values.
 */

export const OPERATOR_IDENTITY_LIMITS = {
  legalNameLength: 200,
  addressLength: 500,
  registrationLength: 100,
  officerNameLength: 200,
  officerEmailLength: 254,
  /** The phone as typed, spaces and dashes included; stored without them (at most + and 15 digits). */
  officerPhoneInputLength: 40,
} as const;

function optionalText(label: string, max: number) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => !hasForbiddenCharacters(value), `${label}: ${FORBIDDEN_CHARACTERS_MESSAGE}`);
}

export const GRIEVANCE_EMAIL_MESSAGE = 'Grievance officer e-mail is invalid';
export const GRIEVANCE_PHONE_MESSAGE = `Grievance officer phone must start with + and the country code, then 7 to 14 digits (e.g. ${EXAMPLE_PHONE})`;

export const operatorIdentitySchema = z.object({
  legalName: optionalText('Legal name', OPERATOR_IDENTITY_LIMITS.legalNameLength),
  address: optionalText('Registered address', OPERATOR_IDENTITY_LIMITS.addressLength),
  registration: optionalText('Registration', OPERATOR_IDENTITY_LIMITS.registrationLength),
  grievanceOfficerName: optionalText('Grievance officer name', OPERATOR_IDENTITY_LIMITS.officerNameLength),
  grievanceOfficerEmail: z
    .string({ error: GRIEVANCE_EMAIL_MESSAGE })
    .trim()
    .max(OPERATOR_IDENTITY_LIMITS.officerEmailLength, 'Grievance officer e-mail is too long')
    .refine((value) => value === '' || emailSchema.safeParse(value).success, GRIEVANCE_EMAIL_MESSAGE),
  grievanceOfficerPhone: z
    .string({ error: GRIEVANCE_PHONE_MESSAGE })
    .max(OPERATOR_IDENTITY_LIMITS.officerPhoneInputLength, GRIEVANCE_PHONE_MESSAGE)
    .transform(normalizePhone)
    .refine((value) => value === '' || phoneSchema.safeParse(value).success, GRIEVANCE_PHONE_MESSAGE),
});
export type OperatorIdentity = z.output<typeof operatorIdentitySchema>;

export const operatorIdentityFormShape = { operatorIdentity: operatorIdentitySchema.optional() };

/** As the admin settings answer them (and as the public endpoint does): empty strings where unknown. */
export const operatorIdentityViewSchema = z.object({
  legalName: z.string(),
  address: z.string(),
  registration: z.string(),
  grievanceOfficerName: z.string(),
  grievanceOfficerEmail: z.string(),
  grievanceOfficerPhone: z.string(),
});
export const operatorIdentityViewShape = { operatorIdentity: operatorIdentityViewSchema };

/** GET /api/legal/operator: the identity the public pages show, and the notice's current version. */
export const operatorIdentityResponseSchema = operatorIdentityViewSchema.extend({ consentNoticeVersion: z.string() });
export type OperatorIdentityResponse = z.infer<typeof operatorIdentityResponseSchema>;

/* ---------- the consent and privacy notice before KYC ---------- */

/**
 * The version of the notice's text; a change of the text (both catalogs' `consent.*` keys) gives a new
 * version, and customers who accepted an older one are asked again before their next KYC step.
 */
export const CONSENT_NOTICE_VERSION = '2026-11-27';
export const CONSENT_NOTICE_OUTDATED_MESSAGE = 'The privacy notice has changed: reload the page and read it again';
export const CONSENT_REQUIRED_MESSAGE = 'Read and accept the consent and privacy notice before KYC';

export const acceptConsentRequestSchema = z.object({
  noticeVersion: z.string({ error: CONSENT_NOTICE_OUTDATED_MESSAGE }).max(40, CONSENT_NOTICE_OUTDATED_MESSAGE),
});
export type AcceptConsentRequest = z.input<typeof acceptConsentRequestSchema>;

export const consentStatusResponseSchema = z.object({
  noticeVersion: z.string(),
  /** When the customer accepted this version; null when not yet. */
  acceptedAt: isoDateTimeSchema.nullable(),
});
export type ConsentStatus = z.infer<typeof consentStatusResponseSchema>;
