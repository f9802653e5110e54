import { z } from 'zod';
import { LIMITS } from '../limits.ts';

export const okResponseSchema = z.object({ ok: z.literal(true) });

export const uuidSchema = z.uuid({ message: 'Invalid id' });
export const idParamsSchema = z.object({ id: uuidSchema });

/** A cursor the admin lists cannot read (the customer lists say TRANSACTION_MESSAGES.invalidCursor). */
export const INVALID_PAGE_CURSOR_MESSAGE = 'Invalid page cursor';

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

/**
 * The one query of every paged list: an opaque cursor (the nextCursor of the
 * previous page) and a page size of at most 100. Lists add their filters with
 * .extend().
 */
export const cursorQuerySchema = z.object({
  cursor: z.string().max(200, INVALID_PAGE_CURSOR_MESSAGE).optional(),
  limit: pageSizeSchema(`Page size must be a whole number from 1 to ${LIMITS.pageSizeMax}`, `Page size must be at most ${LIMITS.pageSizeMax}`),
});

/** The one answer of every paged list: the items, newest first, and the cursor of the next page (null on the last). */
export function pageSchema<Item extends z.ZodType>(item: Item) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

export const isoDateTimeSchema = z.string();

/** A decimal string on the wire, e.g. "12.50"; parsed into integers only by src/shared/money.ts. */
export const decimalStringSchema = z.string().regex(/^-?\d+(\.\d+)?$/);
