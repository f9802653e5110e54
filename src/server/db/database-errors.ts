/**
 * Tells "the database cannot be reached or is going away" apart from every other
 * failure, so that an outage answers 503 (try again) and never 500 (our bug).
 */

export const DATABASE_UNAVAILABLE_MESSAGE = 'Unable to connect to the database';
/** Seconds a client is asked to wait before trying again during a database outage. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket-level failures of the connection to PostgreSQL (Node's errno codes). */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server that is shutting down, crashed or still starting (class 57P). */
const SERVER_GOING_AWAY_STATES = new Set(['57P01', '57P02', '57P03']);

/**
 * What node-postgres and its pool throw without a code: the pool gave up waiting
 * for a connection, or the connection broke in the middle of a query.
 */
const DRIVER_MESSAGES = [
  /^timeout exceeded when trying to connect$/i,
  /^Connection terminated/i,
  /^Client has encountered a connection error and is not queryable$/i,
  /^Client was closed and is not queryable$/i,
  /^Cannot use a pool after calling end on the pool$/i,
  /^Query read timeout$/i,
  /^The database pool is busy$/i,
];

function isUnavailableItself(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_ERROR_CODES.has(code) || SERVER_GOING_AWAY_STATES.has(code)) return true;
    // A Unix-domain socket whose server is not running: its file is gone (decision 028).
    if (code === 'ENOENT' && (error as { syscall?: unknown }).syscall === 'connect') return true;
    // Class 08: connection exceptions.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * True when the error, or an error it wraps (Drizzle's `cause`, an
 * AggregateError of several addresses), says the database is unreachable.
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (isUnavailableItself(current)) return true;
    pending.push((current as { cause?: unknown }).cause);
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner)) pending.push(...inner);
  }
  return false;
}

/**
 * Whether PostgreSQL refused the write by this constraint or unique index, also when Drizzle wrapped its
 * error (as `cause`): the refusal an expected race ends in, which the caller turns into a 4xx.
 */
export function violatesConstraint(error: unknown, constraint: string): boolean {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if ((current as { constraint?: unknown }).constraint === constraint) return true;
  }
  return false;
}
