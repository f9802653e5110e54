import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { clearSessionCookie, hashToken, newToken, readSessionCookie, setSessionCookie } from '../../http/security.ts';
import * as sessionRepository from './repository.ts';
import type { SessionJoinedRead, SessionRecord } from './repository.ts';

/** Updating last_seen_at on every request would write on every read; once a minute is enough for a 30-minute idle timeout. */
const TOUCH_INTERVAL_MILLISECONDS = 60_000;

export function usesSecureCookies(context: AppContext): boolean {
  return context.config.appOrigin.startsWith('https://');
}

/** Starts a new session (a new token at every login) and sets its cookie. */
export async function startSession(db: Executor, context: AppContext, request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  const token = newToken();
  await sessionRepository.insertSession(db, {
    tokenHash: hashToken(token),
    userId,
    ipAddress: request.ip,
    userAgent: request.headers['user-agent'],
  });
  setSessionCookie(reply, token, usesSecureCookies(context), context.sessionSettings.absoluteTimeoutSeconds);
}

export async function resolveSession(context: AppContext, request: FastifyRequest): Promise<SessionRecord | undefined> {
  const token = readSessionCookie(request, usesSecureCookies(context));
  if (!token || token.length > 100) return undefined;
  const { db } = context.database;
  const session = await sessionRepository.findLiveSession(db, hashToken(token), context.sessionSettings, request.routeOptions.config.sessionJoinedRead);
  if (session && Date.now() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MILLISECONDS) {
    await sessionRepository.touchSession(db, session.sessionId);
  }
  return session;
}

export async function endSession(context: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.session) await sessionRepository.deleteSession(context.database.db, request.session.sessionId);
  clearSessionCookie(reply, usesSecureCookies(context));
}

declare module 'fastify' {
  interface FastifyRequest {
    session: SessionRecord | undefined;
  }
  interface FastifyContextConfig {
    /** What the route reads in the same statement as the session lookup (its handler calls `joinedReadOf`). */
    sessionJoinedRead?: SessionJoinedRead<unknown>;
  }
}
