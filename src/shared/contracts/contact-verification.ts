import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { emailSchema } from './auth.ts';

/**
 * The contact checks of issue 32: the e-mail verification link (24 hours, single use), the change of
 * e-mail (the password, then a link to the new address), and the mobile one-time code (6 digits,
 * 10 minutes, 5 tries). The limits are the server's; the web app shows them from these constants.
 */
export const CONTACT_LIMITS = {
  emailLinkLifetimeHours: 24,
  /** Verification and change links e-mailed to one account in any 24 hours. */
  emailLinksPerAccountPerDay: 5,
  /** Seconds between two links e-mailed to one account. */
  emailLinkPauseSeconds: 60,
  codeLifetimeMinutes: 10,
  codeAttempts: 5,
  /** Codes texted for one account in any 24 hours. */
  codesPerAccountPerDay: 5,
  /** Codes texted to one number in any 24 hours, whichever accounts asked. */
  codesPerNumberPerDay: 5,
  /** Seconds between two codes texted for one account. */
  codePauseSeconds: 60,
  userAgentLength: 512,
} as const;

export const EMAIL_VERIFIED_MESSAGE = 'Your e-mail address is verified.';
export const EMAIL_CHANGED_MESSAGE = 'Your e-mail address is changed and verified.';
export const EMAIL_ALREADY_VERIFIED_MESSAGE = 'Your e-mail address is already verified.';
export const VERIFICATION_LINK_SENT_MESSAGE = 'We sent a verification link to your e-mail address. It works for 24 hours.';
export const VERIFICATION_LINK_EXPIRED_MESSAGE = 'This verification link has expired. Sign in and ask for a new one.';
export const VERIFICATION_LINK_USED_MESSAGE = 'This verification link was already used.';
export const VERIFICATION_LINK_INVALID_MESSAGE = 'This verification link is not valid. Open the whole link from the newest e-mail we sent.';
export const EMAIL_CHANGE_SENT_MESSAGE =
  'We sent a link to your new e-mail address. Your e-mail changes when you open it (within 24 hours); until then you sign in with the current one.';
export const SAME_EMAIL_MESSAGE = 'This is already your e-mail address.';
export const EMAIL_TAKEN_MESSAGE = 'This email is already registered. Please log in instead.';
export const PHONE_VERIFIED_MESSAGE = 'Your mobile number is verified.';
export const PHONE_ALREADY_VERIFIED_MESSAGE = 'Your mobile number is already verified.';
export const CODE_EXPIRED_MESSAGE = 'This code no longer works. Ask for a new code.';
export const CODE_SHAPE_MESSAGE = 'Enter the 6-digit code we sent by SMS';
export const SMS_NOT_SENT_MESSAGE = 'We could not send the SMS. Please try again in a few minutes.';

/** A phone number as the app shows it: first 3 characters, four asterisks, last 4 (when longer than 7 characters). */
export function maskedPhoneNumber(phone: string): string {
  return phone.length > 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone;
}

export function codeSentMessage(maskedPhone: string): string {
  return `We sent a 6-digit code to ${maskedPhone}. It works for ${CONTACT_LIMITS.codeLifetimeMinutes} minutes.`;
}

export function wrongCodeMessage(attemptsLeft: number): string {
  return attemptsLeft > 0
    ? `This code is wrong. ${attemptsLeft} ${attemptsLeft === 1 ? 'attempt' : 'attempts'} left.`
    : 'This code is wrong, and it was the last attempt. Ask for a new code.';
}

export function waitBeforeResendMessage(seconds: number, what: 'e-mail' | 'code'): string {
  return `Please wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} before asking for another ${what}.`;
}

export function dailyLimitMessage(limit: number, what: 'e-mails' | 'codes', forWhat: 'account' | 'number'): string {
  return `${limit} verification ${what} were already sent to this ${forWhat === 'account' ? 'account' : 'mobile number'} in the last 24 hours. Please try again tomorrow.`;
}

/** A token as the link carries it: newToken's 43 base64url characters; anything else is refused without a lookup. */
const linkTokenSchema = z.string({ error: VERIFICATION_LINK_INVALID_MESSAGE }).max(LIMITS.resetTokenLength, VERIFICATION_LINK_INVALID_MESSAGE);

export const verifyEmailRequestSchema = z.object({ token: linkTokenSchema });
export const verifyEmailResponseSchema = z.object({ message: z.string(), email: z.string() });

export const changeEmailRequestSchema = z.object({
  currentPassword: z.string({ error: 'Enter your current password' }).min(1, 'Enter your current password').max(LIMITS.passwordMaxLength),
  newEmail: emailSchema,
});

export const verifyPhoneRequestSchema = z.object({
  code: z
    .string({ error: CODE_SHAPE_MESSAGE })
    .trim()
    .regex(/^\d{6}$/, CODE_SHAPE_MESSAGE),
});

export const contactMessageResponseSchema = z.object({ message: z.string() });

export const contactStatusResponseSchema = z.object({
  email: z.string(),
  emailVerifiedAt: z.string().nullable(),
  /** The new address a change link was sent to, while that link still works. */
  pendingEmail: z.string().nullable(),
  /** Masked as everywhere else (first 3 characters, four asterisks, last 4). */
  phone: z.string(),
  phoneVerifiedAt: z.string().nullable(),
  /** Whether a code texted to the current number can still be entered. */
  codeOpen: z.boolean(),
});
export type ContactStatus = z.infer<typeof contactStatusResponseSchema>;
