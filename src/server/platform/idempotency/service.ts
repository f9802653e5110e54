import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeySchema } from '#shared/contracts/money-common';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import * as idempotencyRepository from './repository.ts';

/**
 * Money-moving POSTs accept an Idempotency-Key header: a retry with the same
 * key and the same request gets the first answer back and moves no money
 * again. Only successful answers are kept; a failed request moved nothing, so
 * its retry simply runs again.
 */

export const IDEMPOTENCY_MISMATCH_MESSAGE = 'This Idempotency-Key was already used for a different request. Use a new key for a new request.';

export interface IdempotencyScope {
  userId: string;
  key: string;
  operation: string;
  /** SHA-256 of the request's meaningful fields; never of secrets such as the PIN. */
  requestHash: string;
}

export interface Answer<T> {
  statusCode: number;
  body: T;
  replayed: boolean;
}

export function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (header === undefined) return undefined;
  const parsed = idempotencyKeySchema.safeParse(Array.isArray(header) ? header.join(',') : header);
  if (!parsed.success) throw AppError.validation(parsed.error.issues[0]?.message ?? 'The Idempotency-Key header is not valid.');
  return parsed.data;
}

/** A stable hash of the fields that define the request, in a fixed key order. */
export function hashRequest(fields: Record<string, string>): string {
  const canonical = JSON.stringify(
    Object.keys(fields)
      .sort()
      .map((name) => [name, fields[name]]),
  );
  return createHash('sha256').update(canonical).digest('hex');
}

function replay<T>(scope: IdempotencyScope, stored: idempotencyRepository.StoredAnswer): Answer<T> {
  if (stored.operation !== scope.operation || stored.requestHash !== scope.requestHash) {
    throw new AppError(422, 'IDEMPOTENCY_MISMATCH', IDEMPOTENCY_MISMATCH_MESSAGE);
  }
  return { statusCode: stored.responseStatus, body: stored.responseBody as T, replayed: true };
}

/** The stored answer for this key, if the request was already done; called before any check with side effects (the PIN). */
export async function findEarlierAnswer<T>(db: Executor, scope: IdempotencyScope | undefined): Promise<Answer<T> | undefined> {
  if (!scope) return undefined;
  const stored = await idempotencyRepository.find(db, scope.userId, scope.key);
  return stored ? replay<T>(scope, stored) : undefined;
}

class AlreadyAnswered extends Error {}

/**
 * Runs `work` in one transaction that also claims the key and stores the
 * answer, so the money moved and the stored answer commit together. A
 * concurrent request with the same key waits on the claim and then replays.
 */
export async function runOnce<T>(
  db: Database,
  scope: IdempotencyScope | undefined,
  work: (transaction: Executor) => Promise<{ statusCode: number; body: T }>,
): Promise<Answer<T>> {
  try {
    return await db.transaction(async (transaction) => {
      if (scope && !(await idempotencyRepository.claim(transaction, scope))) throw new AlreadyAnswered();
      const answer = await work(transaction);
      if (scope) await idempotencyRepository.saveAnswer(transaction, scope.userId, scope.key, answer.statusCode, answer.body);
      return { ...answer, replayed: false };
    });
  } catch (error) {
    if (!(error instanceof AlreadyAnswered) || !scope) throw error;
    const stored = await idempotencyRepository.find(db, scope.userId, scope.key);
    if (!stored) throw new Error('an idempotency key was claimed by a committed transaction but is missing', { cause: error });
    return replay<T>(scope, stored);
  }
}
