import { z } from 'zod';

/** The body of every 4xx/5xx answer: `{ error: { code, message, fields? } }`. */
export const errorResponseSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    remainingAttempts: z.number().int().optional(),
    /** On 5xx answers: the request id, which the server's log carries too, for a customer to quote. */
    reference: z.string().max(64).optional(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'PIN_REQUIRED',
  'PIN_NOT_SET',
  'PIN_INCORRECT',
  'PIN_LOCKED',
  'PIN_BLOCKED',
  'COOLING_OFF',
  'NOT_FOUND',
  'CONFLICT',
  'EMAIL_TAKEN',
  'INVALID_CREDENTIALS',
  'INVALID_RESET_TOKEN',
  'VERIFICATION_LINK_INVALID',
  'VERIFICATION_LINK_EXPIRED',
  'VERIFICATION_LINK_USED',
  'CODE_INCORRECT',
  'CODE_EXPIRED',
  'SMS_NOT_SENT',
  'RATE_LIMITED',
  'ORIGIN_REFUSED',
  'UNSUPPORTED_MEDIA_TYPE',
  'INSUFFICIENT_BALANCE',
  'DEPOSIT_ON_HOLD',
  'ALREADY_DECIDED',
  'DECIDED_ELSEWHERE',
  'PRICE_CHANGED',
  'RATE_CHANGE_NEEDS_CONFIRMATION',
  'CHANGE_ALREADY_WAITING',
  'CHAIN_REFUTES',
  'STALE_CHANGE',
  'WITHDRAWAL_LIMIT',
  'PAN_REQUIRED',
  'KYC_LEVEL_REQUIRED',
  'ACCOUNT_FROZEN',
  'ACCOUNT_CLOSED',
  'ACCOUNT_NOT_CLOSABLE',
  'KYC_REFRESH_REQUIRED',
  'PAN_TAKEN',
  'DEPOSIT_ADDRESS_NOT_CONFIGURED',
  'IDEMPOTENCY_MISMATCH',
  'PAYLOAD_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
