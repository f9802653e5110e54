import { z } from 'zod';
import { EXAMPLE_PHONE, LIMITS } from '../limits.ts';
import { FORBIDDEN_CHARACTERS_MESSAGE, hasForbiddenCharacters, hasVisibleLetter } from '../text.ts';
import { decimalStringSchema } from './common.ts';
import { signupGeolocationSchema } from './signup-trail.ts';
import { languageSchema, roleSchema, vipLevelSchema } from './enums.ts';
import { isWeakPin, WEAK_PIN_MESSAGE } from './pin.ts';

const requiredText = (message: string, max: number, tooLong: string) => z.string({ error: message }).trim().min(1, message).max(max, tooLong);

export const emailSchema = requiredText('Email is required', LIMITS.emailLength, 'Email is too long').pipe(z.email({ message: 'Email is invalid' }));

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(LIMITS.passwordMinLength, `Password must be at least ${LIMITS.passwordMinLength} characters`)
  .max(LIMITS.passwordMaxLength, `Password must be at most ${LIMITS.passwordMaxLength} characters`);

export const pinSchema = z
  .string({ error: 'PIN is required' })
  .min(1, 'PIN is required')
  .regex(/^\d{4}$/, 'PIN must be exactly 4 digits')
  .refine((pin) => !isWeakPin(pin), WEAK_PIN_MESSAGE);

/** Removes spaces, dashes and brackets people type inside phone numbers. */
export function normalizePhone(phone: string): string {
  return phone.replace(/[\s\-()]/g, '');
}

export const phoneSchema = z
  .string({ error: 'Phone number is required' })
  .transform(normalizePhone)
  .pipe(
    z
      .string()
      .min(1, 'Phone number is required')
      .startsWith('+', 'Phone must start with + (country code)')
      .regex(/^\+\d*$/, `Phone number must start with + (e.g., ${EXAMPLE_PHONE})`)
      .refine((value) => value.length - 1 >= 8, 'Phone number must have at least 7 digits after country code')
      .refine((value) => value.length - 1 <= LIMITS.phoneMaxDigits, `Phone number can have at most ${LIMITS.phoneMaxDigits} digits`),
  );

export const referralCodeSchema = z
  .string()
  .trim()
  .max(LIMITS.referralCodeLength, 'Referral code is not valid')
  .transform((value) => value.toUpperCase())
  .optional()
  .transform((value) => (value === '' ? undefined : value));

export const FULL_NAME_NEEDS_LETTER_MESSAGE = 'Full name must contain at least one letter';

export const fullNameSchema = requiredText('Full name is required', LIMITS.nameLength, `Full name must be at most ${LIMITS.nameLength} characters`)
  .refine((value) => !hasForbiddenCharacters(value), FORBIDDEN_CHARACTERS_MESSAGE)
  .refine(hasVisibleLetter, FULL_NAME_NEEDS_LETTER_MESSAGE);

export const signupRequestSchema = z.object({
  fullName: fullNameSchema,
  email: emailSchema,
  phone: phoneSchema,
  password: passwordSchema,
  pin: pinSchema,
  referralCode: referralCodeSchema,
  /** Where the browser says the customer is, or that they refused (issue 32); optional, never blocking. */
  geolocation: signupGeolocationSchema.optional(),
  /** The language chosen on the device before signing up; English when absent. */
  language: languageSchema.optional(),
});
export type SignupRequest = z.input<typeof signupRequestSchema>;

/** The signup form adds the confirmation field, checked in the browser only. */
export const signupFormSchema = signupRequestSchema
  .extend({ confirmPassword: z.string().min(1, 'Please confirm your password') })
  .refine((values) => values.password === values.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export const loginRequestSchema = z.object({
  email: z.string({ error: 'Please enter your email and password.' }).trim().min(1, 'Please enter your email and password.').max(LIMITS.emailLength),
  password: z.string({ error: 'Please enter your email and password.' }).min(1, 'Please enter your email and password.').max(LIMITS.passwordMaxLength),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const meResponseSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  phone: z.string(),
  role: roleSchema,
  vipLevel: vipLevelSchema,
  referralCode: z.string(),
  balanceUsdt: decimalStringSchema,
  hasPin: z.boolean(),
  pinVerified: z.boolean(),
  createdAt: z.string(),
  /** The PAN for TDS, masked ("XXXXX1234F"); null until the customer adds it. */
  pan: z.string().nullable(),
  /** The language of the customer's screens and e-mails. */
  language: languageSchema,
});
export type Me = z.infer<typeof meResponseSchema>;

/** The customer's choice of language, kept with the account (issue 33). */
export const setLanguageRequestSchema = z.object({ language: languageSchema });
export const setLanguageResponseSchema = z.object({ language: languageSchema });

export const sessionResponseSchema = z.object({ user: meResponseSchema });

export const FORGOT_PASSWORD_EMAIL_MESSAGE = 'Please enter the email address of your account.';

export const forgotPasswordRequestSchema = z.object({
  // Only an e-mail address: a reset link can be sent nowhere else (SPEC.md's "email or phone" message predates that).
  email: requiredText(FORGOT_PASSWORD_EMAIL_MESSAGE, LIMITS.emailLength, 'Email is too long').pipe(
    z.email({ message: 'Please enter a valid email address, such as name@example.com.' }),
  ),
});

export const forgotPasswordResponseSchema = z.object({ message: z.string() });

export const resetPasswordRequestSchema = z.object({
  token: z
    .string()
    .min(1, 'This password reset link is invalid or has expired.')
    .max(LIMITS.resetTokenLength, 'This password reset link is invalid or has expired.'),
  password: passwordSchema,
});

/** Whether an e-mailed reset link (password or PIN) still works, asked when its page opens; it uses nothing up. */
export const resetLinkCheckRequestSchema = z.object({ token: z.string().max(LIMITS.resetTokenLength) });
export const resetLinkCheckResponseSchema = z.object({ valid: z.boolean() });
export type ResetLinkCheck = z.infer<typeof resetLinkCheckResponseSchema>;

export const resetPasswordFormSchema = z
  .object({
    password: z.string().min(1, 'Please enter both password fields'),
    confirmPassword: z.string().min(1, 'Please enter both password fields'),
  })
  .refine((values) => values.password === values.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] })
  .pipe(z.object({ password: passwordSchema, confirmPassword: z.string() }));

/* ---------- the account: change password, edit name and phone ---------- */

export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully. Your other sessions were signed out.';
export const WRONG_CURRENT_PASSWORD_MESSAGE = 'The current password is incorrect.';
export const SAME_PASSWORD_MESSAGE = 'The new password must be different from your current password.';

export const changePasswordRequestSchema = z
  .object({
    currentPassword: z.string({ error: 'Please enter your current password' }).min(1, 'Please enter your current password').max(LIMITS.passwordMaxLength),
    newPassword: passwordSchema,
  })
  .refine((values) => values.newPassword !== values.currentPassword, { message: SAME_PASSWORD_MESSAGE, path: ['newPassword'] });
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

export const changePasswordResponseSchema = z.object({ message: z.string(), sessionsEnded: z.number().int() });

/** The form asks for the new password twice; only the request's two fields are sent. */
export const changePasswordFormSchema = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .refine((values) => values.currentPassword !== '', { message: 'Please enter your current password', path: ['currentPassword'] })
  .refine((values) => values.newPassword === values.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] })
  .refine((values) => passwordSchema.safeParse(values.newPassword).success, {
    message: `Password must be at least ${LIMITS.passwordMinLength} characters`,
    path: ['newPassword'],
  })
  .refine((values) => values.newPassword === '' || values.newPassword !== values.currentPassword, { message: SAME_PASSWORD_MESSAGE, path: ['newPassword'] });

export const PROFILE_UPDATED_MESSAGE = 'Profile updated successfully';

/** Name and phone, as the profile form sends them (both, always). */
export const updateProfileRequestSchema = z.object({ fullName: fullNameSchema, phone: phoneSchema });
export type UpdateProfileRequest = z.input<typeof updateProfileRequestSchema>;
export const updateProfileResponseSchema = z.object({ message: z.string(), user: meResponseSchema });
