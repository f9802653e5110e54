import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorCode, ErrorResponse } from '#shared/errors';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailableError } from '../db/database-errors.ts';
import { AppError, RetryLaterError } from '../errors.ts';
import { RATE_LIMITED_MESSAGE } from '../platform/rate-limit/service.ts';

/*
 * Every error answer, the framework's own included, is `{"error":{"code","message"}}`
 * with a message of ours: never the framework's text, which echoes the URL or input.
 */

const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';
const NOT_ALLOWED_CHARACTERS_MESSAGE = 'The request contains characters that are not allowed.';

/** PostgreSQL refuses these characters (NUL in text, or ones the encoding cannot hold): the input is at fault. */
const CHARACTER_SQLSTATES = new Set(['22021', '22P05']);

function errorBody(code: ErrorCode, message: string, reference?: string): ErrorResponse {
  return { error: { code, message, ...(reference === undefined ? {} : { reference }) } };
}

/** The SQLSTATE of a PostgreSQL error, also when a driver or Drizzle wrapped it (as `cause`). */
export function sqlState(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * What a log may say about an error: its kind, code and message, but not the
 * query parameters Drizzle appends to its messages nor PostgreSQL's `detail`,
 * which carry e-mails, names and phones.
 */
export function errorForLog(error: unknown): { type: string; code?: string | undefined; message: string; stack?: string | undefined } {
  if (!(error instanceof Error)) return { type: typeof error, message: 'a non-Error value was thrown' };
  const message = error.message.split(/\nparams:/)[0]?.slice(0, 1_000) ?? '';
  const stack = error.stack?.split('\n').slice(1, 8).join('\n');
  return { type: error.name, code: sqlState(error) ?? (error as { code?: string }).code, message, stack };
}

const CLIENT_ERRORS: Record<number, { code: ErrorCode; message: string }> = {
  413: { code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large.' },
  414: { code: 'VALIDATION_FAILED', message: 'The address of this request is too long.' },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Requests must be sent as JSON.' },
  429: { code: 'RATE_LIMITED', message: RATE_LIMITED_MESSAGE },
};

export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    const body: ErrorResponse = {
      error: { code: error.code, message: error.message, ...error.details, ...(error.statusCode >= 500 ? { reference: request.id } : {}) },
    };
    if (error instanceof RetryLaterError) reply.header('retry-after', String(error.retryAfterSeconds));
    else if (error.statusCode === 503) reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    return reply.code(error.statusCode).send(body);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'body';
      fields[field] ??= issue.message ?? 'The value is not valid.';
    }
    const first = Object.values(fields)[0] ?? 'The request is not valid.';
    return reply.code(400).send({ error: { code: 'VALIDATION_FAILED', message: first, fields } });
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ error: errorForLog(error) }, 'A response did not match its schema');
    return reply.code(500).send(errorBody('INTERNAL', INTERNAL_MESSAGE, request.id));
  }
  const state = sqlState(error);
  if (state !== undefined && CHARACTER_SQLSTATES.has(state)) {
    request.log.warn({ error: errorForLog(error) }, 'The database refused characters of a request');
    return reply.code(400).send(errorBody('VALIDATION_FAILED', NOT_ALLOWED_CHARACTERS_MESSAGE));
  }
  const statusCode = error.statusCode ?? 500;
  if (statusCode >= 400 && statusCode < 500) {
    const known = CLIENT_ERRORS[statusCode] ?? { code: 'VALIDATION_FAILED' as const, message: 'The request is not valid.' };
    return reply.code(statusCode).send(errorBody(known.code, known.message));
  }
  if (isDatabaseUnavailableError(error)) {
    request.log.warn({ error: errorForLog(error) }, 'The database is unavailable');
    return reply
      .code(503)
      .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
      .send(errorBody('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, request.id));
  }
  request.log.error({ error: errorForLog(error) }, 'Unexpected error');
  return reply.code(500).send(errorBody('INTERNAL', INTERNAL_MESSAGE, request.id));
}

/** Errors Fastify meets before a route runs: a URL that cannot be decoded (400), or a path parameter too long (414). */
export function handleFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.code(414).send(errorBody('VALIDATION_FAILED', 'The address of this request is too long.'));
  if (error.code === 'FST_ERR_BAD_URL') return reply.code(400).send(errorBody('VALIDATION_FAILED', 'The address of this request is not valid.'));
  return reply.code(400).send(errorBody('VALIDATION_FAILED', 'The request is not valid.'));
}

/** A request so malformed that HTTP parsing failed: answered on the socket, in the same shape. */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  // The request did not arrive within the server's request timeout (a slow or stalled client).
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = tooLarge ? '431 Request Header Fields Too Large' : timedOut ? '408 Request Timeout' : '400 Bad Request';
  const message = tooLarge ? 'The request headers are too large.' : timedOut ? 'The request took too long to arrive.' : 'The request is not valid.';
  const body = JSON.stringify(errorBody(timedOut ? 'REQUEST_TIMEOUT' : 'VALIDATION_FAILED', message));
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
