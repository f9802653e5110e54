import { z } from 'zod';

/**
 * The customer's statement (issue 33): every movement of their wallet between two India dates, with the
 * opening and closing balance, as PDF or CSV (docs/decisions/048).
 */
export const STATEMENT_LIMITS = {
  /** The longest period one statement covers, in days (both ends included). */
  maxDays: 366,
  /** The most movements one statement lists; a longer history is asked for in shorter periods. */
  maxRows: 5000,
  /** Statements one customer may download per window: each reads the whole period and renders a file. */
  perAccountPerWindow: 30,
  windowSeconds: 15 * 60,
} as const;

export const STATEMENT_FORMATS = ['pdf', 'csv'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

export const STATEMENT_MESSAGES = {
  invalidDate: 'Enter dates as YYYY-MM-DD',
  format: 'Choose PDF or CSV',
  order: 'The start date must not be after the end date',
  future: 'The end date cannot be in the future',
  tooLong: `A statement covers at most ${STATEMENT_LIMITS.maxDays} days. Please choose a shorter period.`,
  tooManyRows: `This period has more than ${STATEMENT_LIMITS.maxRows.toLocaleString('en-IN')} movements. Please choose a shorter period.`,
} as const;

const MILLISECONDS_PER_DAY = 86_400_000;
/** India Standard Time is UTC+05:30 all year (no daylight saving). */
const INDIA_OFFSET_MILLISECONDS = 330 * 60_000;

/** Today's date in India (YYYY-MM-DD), `offsetDays` away. */
export function indiaDateToday(offsetDays = 0, now: number = Date.now()): string {
  return new Date(now + INDIA_OFFSET_MILLISECONDS + offsetDays * MILLISECONDS_PER_DAY).toISOString().slice(0, 10);
}

/** Days from one India date to another, both ends counted (the same day is 1). */
export function daysCovered(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / MILLISECONDS_PER_DAY) + 1;
}

const statementDateSchema = z
  .string({ error: STATEMENT_MESSAGES.invalidDate })
  .regex(/^\d{4}-\d{2}-\d{2}$/, STATEMENT_MESSAGES.invalidDate)
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
  }, STATEMENT_MESSAGES.invalidDate);

/** GET /api/statement: from and to are India dates, both included. */
export const statementQuerySchema = z
  .object({
    from: statementDateSchema,
    to: statementDateSchema,
    format: z.enum(STATEMENT_FORMATS, { error: STATEMENT_MESSAGES.format }),
  })
  .superRefine((query, context) => {
    if (query.from > query.to) context.addIssue({ code: 'custom', message: STATEMENT_MESSAGES.order, path: ['from'] });
    else if (daysCovered(query.from, query.to) > STATEMENT_LIMITS.maxDays)
      context.addIssue({ code: 'custom', message: STATEMENT_MESSAGES.tooLong, path: ['from'] });
    if (query.to > indiaDateToday()) context.addIssue({ code: 'custom', message: STATEMENT_MESSAGES.future, path: ['to'] });
  });
export type StatementQuery = z.infer<typeof statementQuerySchema>;

/** The URL the web app downloads a statement from (the session cookie goes along; a GET changes nothing). */
export function statementUrl(query: StatementQuery): string {
  return `/api/statement?from=${encodeURIComponent(query.from)}&to=${encodeURIComponent(query.to)}&format=${encodeURIComponent(query.format)}`;
}
