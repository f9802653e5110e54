import type { z } from 'zod';
import { errorResponseSchema } from '../../shared/errors.ts';

/** An answer of the API that is not a success, with the server's user-facing message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly remainingAttempts?: number,
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
 * Calls the JSON API and parses the answer with the operation's response
 * schema from src/shared/contracts, so the web app never trusts an unchecked shape.
 */
export async function apiRequest<T extends z.ZodType>(path: string, responseSchema: T, options: RequestOptions = {}): Promise<z.output<T>> {
  const { method = 'GET', body, headers = {}, signal } = options;
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
    throw new ApiError(0, 'NETWORK', 'Unable to connect to the server. Check your connection and try again.');
  }
  const text = await response.text();
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : undefined;
  } catch {
    // A non-JSON body (a proxy's error page) is handled below like any unexpected answer.
  }
  if (!response.ok) {
    const parsed = errorResponseSchema.safeParse(payload);
    if (parsed.success) {
      const { code, message, fields, remainingAttempts } = parsed.data.error;
      throw new ApiError(response.status, code, message, fields, remainingAttempts);
    }
    throw new ApiError(response.status, 'HTTP', response.status >= 500 ? 'Something went wrong on our side. Please try again.' : 'The request failed.');
  }
  return responseSchema.parse(payload);
}

export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}
