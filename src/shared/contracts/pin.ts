import { z } from 'zod';
import { LIMITS } from '../limits.ts';

const fourDigits = (message: string) => z.string({ error: message }).regex(/^\d{4}$/, message);

export const verifyPinRequestSchema = z.object({ pin: fourDigits('PIN must be exactly 4 digits') });
export const verifyPinResponseSchema = z.object({ verified: z.literal(true) });

export const setupPinRequestSchema = z.object({ pin: fourDigits('PIN must be 4 digits.') });

export const setupPinFormSchema = z
  .object({ pin: z.string(), confirmPin: z.string() })
  .refine((values) => /^\d{4}$/.test(values.pin), { message: 'PIN must be 4 digits.', path: ['pin'] })
  .refine((values) => values.pin === values.confirmPin, { message: 'PINs do not match.', path: ['confirmPin'] });

export const resetPinRequestSchema = z.object({
  password: z.string().min(1, 'Please enter your account password').max(LIMITS.passwordMaxLength),
  pin: fourDigits('PIN must be exactly 4 digits'),
});

export const resetPinFormSchema = z
  .object({ password: z.string(), pin: z.string(), confirmPin: z.string() })
  .refine((values) => values.password.length > 0, { message: 'Please enter your account password', path: ['password'] })
  .refine((values) => /^\d{4}$/.test(values.pin), { message: 'PIN must be exactly 4 digits', path: ['pin'] })
  .refine((values) => values.pin === values.confirmPin, { message: 'PINs do not match', path: ['confirmPin'] });

export const changePinRequestSchema = z.object({
  currentPin: z.string().min(1, 'All fields are required').max(4, 'PIN must be 4 digits'),
  newPin: fourDigits('PIN must be 4 digits'),
});

export const changePinFormSchema = z
  .object({ currentPin: z.string(), newPin: z.string(), confirmPin: z.string() })
  .refine((values) => values.currentPin !== '' && values.newPin !== '' && values.confirmPin !== '', {
    message: 'All fields are required',
    path: ['currentPin'],
  })
  .refine((values) => values.newPin === values.confirmPin, { message: "New PIN and confirmation don't match", path: ['confirmPin'] })
  .refine((values) => /^\d{4}$/.test(values.newPin), { message: 'PIN must be 4 digits', path: ['newPin'] });

/** Keeps only digits and at most four of them, as every PIN input does while typing. */
export function sanitizePinInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, 4);
}
