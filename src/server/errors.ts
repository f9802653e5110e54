import type { ErrorCode } from '#shared/errors';

/**
 * An expected failure the user can act on: it carries the HTTP status, a stable
 * code and the user-facing message. Anything else thrown is a bug and answers 500.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: { fields?: Record<string, string>; remainingAttempts?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  static validation(message: string, fields?: Record<string, string>): AppError {
    return new AppError(400, 'VALIDATION_FAILED', message, fields ? { fields } : {});
  }

  static fieldError(field: string, message: string): AppError {
    return new AppError(400, 'VALIDATION_FAILED', message, { fields: { [field]: message } });
  }

  static notFound(message: string): AppError {
    return new AppError(404, 'NOT_FOUND', message);
  }

  static conflict(message: string, code: ErrorCode = 'CONFLICT'): AppError {
    return new AppError(409, code, message);
  }

  static unauthenticated(message = 'Please log in to continue.'): AppError {
    return new AppError(401, 'UNAUTHENTICATED', message);
  }

  static forbidden(message = 'Access denied'): AppError {
    return new AppError(403, 'FORBIDDEN', message);
  }
}

/**
 * An expected refusal that the client should simply repeat a little later: its
 * answer carries `Retry-After` with this many seconds.
 */
export class RetryLaterError extends AppError {
  constructor(
    statusCode: number,
    code: ErrorCode,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(statusCode, code, message);
  }
}
