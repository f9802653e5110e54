import { z } from 'zod';
import { LIMITS } from '../limits.ts';

export const okResponseSchema = z.object({ ok: z.literal(true) });

export const uuidSchema = z.uuid({ message: 'Invalid id' });
export const idParamsSchema = z.object({ id: uuidSchema });

export const roleSchema = z.enum(['user', 'admin']);
export type Role = z.infer<typeof roleSchema>;
export const vipLevelSchema = z.enum(['normal', 'vip', 'vip1', 'vip2', 'vip3']);
export type VipLevel = z.infer<typeof vipLevelSchema>;

/**
 * A page size in a query string: plain decimal digits only (no "1e1", "0x10",
 * " 5" or "5.0", which a number coercion would accept), from 1 to the maximum.
 */
export function pageSizeSchema(invalidMessage = `Page size must be a whole number from 1 to ${LIMITS.pageSizeMax}`, tooLargeMessage = invalidMessage) {
  return z
    .string({ error: invalidMessage })
    .regex(/^\d{1,4}$/, invalidMessage)
    .transform(Number)
    .pipe(z.number().min(1, invalidMessage).max(LIMITS.pageSizeMax, tooLargeMessage))
    .default(LIMITS.pageSizeDefault);
}

export const cursorQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: pageSizeSchema(),
});

export const isoDateTimeSchema = z.string();

/** A decimal string on the wire, e.g. "12.50"; parsed into integers only by src/shared/money.ts. */
export const decimalStringSchema = z.string().regex(/^-?\d+(\.\d+)?$/);
