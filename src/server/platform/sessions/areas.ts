import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { canReadOperatorFigures } from '#shared/access';
import { AppError } from '../../errors.ts';
import type { ApiApp } from '../../http/types.ts';
import type { SessionRecord } from './repository.ts';

/*
 * Authorization in one place. Every route that needs a caller is registered
 * inside one of the areas below: an encapsulated plugin with a single onRequest
 * hook, which runs before the body or query is validated and before an upload
 * is read, so a caller without the right session learns nothing about the
 * input rules and cannot make the server read a large file. Handlers inside
 * an area read the caller with sessionOf(request), which never re-checks.
 */

export const PIN_REQUIRED_MESSAGE = 'Please verify your transaction PIN first.';
export const ADMIN_ONLY_MESSAGE = 'Access denied';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes that need no session and do no session lookup at all (the health check). */
    skipsSessionLookup?: boolean;
  }
}

const guardedSessions = new WeakMap<FastifyRequest, SessionRecord>();

/**
 * The caller of a route inside an area, as its guard admitted it. Reaching this
 * without an area's guard is a bug (a route registered outside its area), not
 * an answer a user can get.
 */
export function sessionOf(request: FastifyRequest): SessionRecord {
  const session = guardedSessions.get(request);
  if (!session) throw new Error(`${request.method} ${request.routeOptions.url ?? request.url} read the session outside an area with a guard`);
  return session;
}

function signedIn(request: FastifyRequest): SessionRecord {
  if (!request.session) throw AppError.unauthenticated();
  return request.session;
}

function requirePinVerified(session: SessionRecord): void {
  if (!session.pinVerified) throw new AppError(403, 'PIN_REQUIRED', PIN_REQUIRED_MESSAGE);
}

type Guard = (request: FastifyRequest) => SessionRecord;

function registerArea(app: ApiApp, guard: Guard, registerRoutes: (area: ApiApp) => void): void {
  void app.register(async (plugin) => {
    const area = plugin.withTypeProvider<ZodTypeProvider>();
    area.addHook('onRequest', async (request) => {
      guardedSessions.set(request, guard(request));
    });
    registerRoutes(area);
  });
}

/** Routes for any signed-in user, PIN verified or not (their profile, the PIN screens). */
export function registerSignedInArea(app: ApiApp, registerRoutes: (area: ApiApp) => void): void {
  registerArea(app, signedIn, registerRoutes);
}

/** Customer money routes: a session whose transaction PIN was verified by the server. */
export function registerCustomerArea(app: ApiApp, registerRoutes: (area: ApiApp) => void): void {
  registerArea(
    app,
    (request) => {
      const session = signedIn(request);
      requirePinVerified(session);
      return session;
    },
    registerRoutes,
  );
}

/**
 * Every /api/admin route: the admin role only. A VIP customer is refused every
 * one of them (their admin pages read the public settings, decision 040).
 * Every admin write (any method but GET) also needs a session whose PIN was verified.
 */
export function registerAdminArea(app: ApiApp, registerRoutes: (area: ApiApp) => void): void {
  registerArea(
    app,
    (request) => {
      const session = signedIn(request);
      if (!canReadOperatorFigures(session.role)) throw AppError.forbidden(ADMIN_ONLY_MESSAGE);
      if (request.method !== 'GET' && request.method !== 'HEAD') requirePinVerified(session);
      return session;
    },
    registerRoutes,
  );
}
