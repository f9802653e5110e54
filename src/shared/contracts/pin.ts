import { z } from 'zod';
import { LIMITS } from '../limits.ts';

const fourDigits = (message: string) => z.string({ error: message }).regex(/^\d{4}$/, message);

export const WEAK_PIN_MESSAGE = 'This PIN is too easy to guess: avoid one digit four times (1111) and straight runs (1234, 4321).';
export const SAME_PIN_MESSAGE = 'The new PIN must be different from your current PIN.';

/**
 * The PINs tried first by anyone who guesses: one digit four times (0000 ... 9999) and straight runs
 * up or down (0123 ... 6789, 9876 ... 3210). A short fixed list on purpose: an ordinary PIN such as
 * 4829 stays allowed.
 */
export function isWeakPin(pin: string): boolean {
  if (!/^\d{4}$/.test(pin)) return false;
  const digits = [...pin].map(Number);
  const steps = digits.slice(1).map((digit, index) => digit - (digits[index] ?? 0));
  return [0, 1, -1].some((step) => steps.every((each) => each === step));
}

/** A PIN being chosen (sign-up, first setup, reset, change): four digits and not one of the weak ones; one rule everywhere. */
export const newPinSchema = (formatMessage: string) => fourDigits(formatMessage).refine((pin) => !isWeakPin(pin), WEAK_PIN_MESSAGE);

export const verifyPinRequestSchema = z.object({ pin: fourDigits('PIN must be exactly 4 digits') });
export const verifyPinResponseSchema = z.object({ verified: z.literal(true) });

export const setupPinRequestSchema = z.object({ pin: newPinSchema('PIN must be 4 digits.') });

export const setupPinFormSchema = z
  .object({ pin: z.string(), confirmPin: z.string() })
  .refine((values) => /^\d{4}$/.test(values.pin), { message: 'PIN must be 4 digits.', path: ['pin'] })
  .refine((values) => !isWeakPin(values.pin), { message: WEAK_PIN_MESSAGE, path: ['pin'] })
  .refine((values) => values.pin === values.confirmPin, { message: 'PINs do not match.', path: ['confirmPin'] });

/** Step 1 of a forgotten PIN: the account password; the server then e-mails a single-use link. */
export const pinResetLinkRequestSchema = z.object({
  password: z.string({ error: 'Please enter your account password' }).min(1, 'Please enter your account password').max(LIMITS.passwordMaxLength),
});
export const pinResetLinkResponseSchema = z.object({ message: z.string() });
export const PIN_RESET_LINK_SENT_MESSAGE = 'We have e-mailed you a link to reset your PIN. It works once, within 30 minutes.';
export const INVALID_PIN_RESET_LINK_MESSAGE = 'This PIN reset link is invalid or has expired. Please request a new one.';

/** Step 2: the token from the e-mailed link and the new PIN. */
export const resetPinRequestSchema = z.object({
  token: z
    .string({ error: INVALID_PIN_RESET_LINK_MESSAGE })
    .min(1, INVALID_PIN_RESET_LINK_MESSAGE)
    .max(LIMITS.resetTokenLength, INVALID_PIN_RESET_LINK_MESSAGE),
  pin: newPinSchema('PIN must be exactly 4 digits'),
});
/** Whether the session that completed the reset is now PIN-verified (it is when it belongs to the same account). */
export const resetPinResponseSchema = z.object({ ok: z.literal(true), signedIn: z.boolean() });

export const pinResetLinkFormSchema = z.object({ password: z.string().min(1, 'Please enter your account password') });

export const resetPinFormSchema = z
  .object({ pin: z.string(), confirmPin: z.string() })
  .refine((values) => /^\d{4}$/.test(values.pin), { message: 'PIN must be exactly 4 digits', path: ['pin'] })
  .refine((values) => !isWeakPin(values.pin), { message: WEAK_PIN_MESSAGE, path: ['pin'] })
  .refine((values) => values.pin === values.confirmPin, { message: 'PINs do not match', path: ['confirmPin'] });

export const changePinRequestSchema = z
  .object({
    currentPin: z.string().min(1, 'All fields are required').max(4, 'PIN must be 4 digits'),
    newPin: newPinSchema('PIN must be 4 digits'),
  })
  .refine((values) => values.newPin !== values.currentPin, { message: SAME_PIN_MESSAGE, path: ['newPin'] });

export const changePinFormSchema = z
  .object({ currentPin: z.string(), newPin: z.string(), confirmPin: z.string() })
  .refine((values) => values.currentPin !== '' && values.newPin !== '' && values.confirmPin !== '', {
    message: 'All fields are required',
    path: ['currentPin'],
  })
  .refine((values) => values.newPin === values.confirmPin, { message: "New PIN and confirmation don't match", path: ['confirmPin'] })
  .refine((values) => /^\d{4}$/.test(values.newPin), { message: 'PIN must be 4 digits', path: ['newPin'] })
  .refine((values) => !isWeakPin(values.newPin), { message: WEAK_PIN_MESSAGE, path: ['newPin'] })
  .refine((values) => values.newPin === '' || values.newPin !== values.currentPin, { message: SAME_PIN_MESSAGE, path: ['newPin'] });

/** Keeps only digits and at most four of them, as every PIN input does while typing. */
export function sanitizePinInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, 4);
}
