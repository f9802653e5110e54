import { z } from 'zod';
import { LIMITS } from '../limits.ts';

export const okResponseSchema = z.object({ ok: z.literal(true) });

export const uuidSchema = z.uuid({ message: 'Invalid id' });
export const idParamsSchema = z.object({ id: uuidSchema });

export const cursorQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(LIMITS.pageSizeMax).default(LIMITS.pageSizeDefault),
});

export const isoDateTimeSchema = z.string();

/** A decimal string on the wire, e.g. "12.50"; parsed into integers only by src/shared/money.ts. */
export const decimalStringSchema = z.string().regex(/^-?\d+(\.\d+)?$/);
