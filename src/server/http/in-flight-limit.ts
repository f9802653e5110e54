import type { FastifyInstance } from 'fastify';
import { RetryLaterError } from '../errors.ts';
import { readSessionCookie } from './security.ts';

export const TOO_MANY_AT_ONCE_MESSAGE = 'Too many requests at once. Please wait for the previous ones to finish.';

/** The session's earlier requests usually finish within a second. */
export const TOO_MANY_AT_ONCE_RETRY_AFTER_SECONDS = 1;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Caps the money requests, PIN checks and other writes one session has in
 * flight on this server. Each one may wait for a row lock and run argon2, so a
 * burst from one customer would otherwise take every pooled connection and
 * make everyone else wait. The session cookie is the key, so a refused request
 * costs no database work at all.
 */
export function registerInFlightLimit(app: FastifyInstance, options: { secureCookie: boolean; maxPerSession: number }): void {
  const { maxPerSession } = options;
  const inFlight = new Map<string, number>();
  app.addHook('onRequest', async (request, reply) => {
    // The matched route decides, never the raw URL ('/%61pi/...' matches '/api/...').
    if (SAFE_METHODS.has(request.method) || !request.routeOptions.url?.startsWith('/api/')) return;
    const token = readSessionCookie(request, options.secureCookie);
    if (!token) return;
    const current = inFlight.get(token) ?? 0;
    if (current >= maxPerSession) throw new RetryLaterError(429, 'RATE_LIMITED', TOO_MANY_AT_ONCE_MESSAGE, TOO_MANY_AT_ONCE_RETRY_AFTER_SECONDS);
    inFlight.set(token, current + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const remaining = (inFlight.get(token) ?? 1) - 1;
      if (remaining <= 0) inFlight.delete(token);
      else inFlight.set(token, remaining);
    };
    // A response ends in 'finish' when sent in full, or in 'close' when the client went away first.
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
  });
}
