import type { z } from 'zod';
import type { ErrorResponse } from '#shared/errors';

/**
 * The API's last answer (its HTTP status, 0 when none came; null before any), when the last successful one came, and
 * who is told of each answer. The connection status store (connection-status.ts) reads these and sets the listener, rather
 * than api.ts importing it: the store loads after the first render, outside the landing page's first JavaScript.
 */
export const apiAnswers: { httpStatus: number | null; successAt: number | null; listener?: () => void } = { httpStatus: null, successAt: null };

function reportApiAnswer(httpStatus: number): void {
  apiAnswers.httpStatus = httpStatus;
  if (httpStatus > 0 && httpStatus < 400) apiAnswers.successAt = Date.now();
  apiAnswers.listener?.();
}

/** An answer of the API that is not a success, with the server's user-facing message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly remainingAttempts?: number,
    /** The server's request id on 5xx answers, for the customer to quote to support. */
    readonly reference?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** True when the server or the network could not be reached at all. */
  get isConnectionProblem(): boolean {
    return this.status === 0 || this.status === 502 || this.status === 503 || this.status === 504;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * A response schema, or a function that imports it. Code on the first visit's
 * path (the landing page, the session check) passes an import, so zod is not
 * part of the JavaScript the landing page needs before it can render.
 */
export type ResponseSchemaSource<T extends z.ZodType> = T | (() => Promise<T>);

/** Reads `{ error: { code, message, fields?, remainingAttempts? } }` without zod (see ResponseSchemaSource). */
function errorBodyOf(payload: unknown): ErrorResponse['error'] | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const error: unknown = (payload as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, fields, remainingAttempts, reference } = error as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') return undefined;
  const validFields =
    typeof fields === 'object' && fields !== null && Object.values(fields).every((value) => typeof value === 'string')
      ? (fields as Record<string, string>)
      : undefined;
  return {
    code,
    message,
    fields: validFields,
    remainingAttempts: Number.isInteger(remainingAttempts) ? (remainingAttempts as number) : undefined,
    reference: typeof reference === 'string' ? reference : undefined,
  };
}

/**
 * Calls the JSON API and parses the answer with the operation's response
 * schema from src/shared/contracts, so the web app never trusts an unchecked shape.
 */
export async function apiRequest<T extends z.ZodType>(
  path: string,
  responseSchema: ResponseSchemaSource<T>,
  options: RequestOptions = {},
): Promise<z.output<T>> {
  const { method = 'GET', body, headers = {}, signal } = options;
  // An imported schema loads while the request is under way.
  const schema = typeof responseSchema === 'function' ? responseSchema() : Promise.resolve(responseSchema);
  schema.catch(() => undefined);
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    reportApiAnswer(0);
    throw new ApiError(0, 'NETWORK', 'Unable to connect to the server. Check your connection and try again.');
  }
  reportApiAnswer(response.status);
  const text = await response.text();
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : undefined;
  } catch {
    // A non-JSON body (a proxy's error page) is handled below like any unexpected answer.
  }
  if (!response.ok) {
    const error = errorBodyOf(payload);
    const reference = error?.reference ?? response.headers.get('x-request-id') ?? undefined;
    if (error)
      throw new ApiError(response.status, error.code, error.message, error.fields, error.remainingAttempts, response.status >= 500 ? reference : undefined);
    throw new ApiError(
      response.status,
      'HTTP',
      response.status >= 500 ? 'Something went wrong on our side. Please try again.' : 'The request failed.',
      {},
      undefined,
      response.status >= 500 ? reference : undefined,
    );
  }
  let loadedSchema: T;
  try {
    loadedSchema = await schema;
  } catch {
    // The schema's chunk could not be fetched (offline, or a new version was deployed meanwhile).
    throw new ApiError(0, 'NETWORK', 'Unable to connect to the server. Check your connection and try again.');
  }
  return loadedSchema.parse(payload);
}

/** The message to show for a failed call; a server-side failure also names its reference for support. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.reference ? `${error.message} Reference: ${error.reference}` : error.message;
  return fallback;
}

/** The reference of a failed call, when the server gave one. */
export function errorReference(error: unknown): string | undefined {
  return error instanceof ApiError ? error.reference : undefined;
}
