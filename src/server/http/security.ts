import { hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

export const SESSION_COOKIE = 'session';
export const SECURE_SESSION_COOKIE = '__Host-session';
/** Marks a browser that signed in to an account before (decision 026). */
export const DEVICE_COOKIE = 'device';
export const SECURE_DEVICE_COOKIE = '__Host-device';
/** A browser stays known to an account this long after its last sign-in to it. */
export const KNOWN_DEVICE_LIFETIME_DAYS = 180;

/** A new random 256-bit token; only its SHA-256 is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): Buffer {
  // The one-shot hash: it costs 1.1 µs here against createHash's 1.8, on every request with a cookie.
  return hash('sha256', token, 'buffer');
}

/** Whether a value could be a token of newToken's: anything else sent as one is ignored. */
export function looksLikeToken(value: string | undefined): value is string {
  return value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The origins whose requests count as the app's own: APP_ORIGIN, and when it is
 * a loopback address (development, the default) its other spellings on the same
 * scheme and port, since only this machine can serve a page from them, so that
 * http://127.0.0.1:3000 signs in as http://localhost:3000 does.
 */
export function sameOrigins(appOrigin: string): ReadonlySet<string> {
  const url = new URL(appOrigin);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) return new Set([appOrigin]);
  const port = url.port ? `:${url.port}` : '';
  return new Set([appOrigin, ...LOOPBACK_HOSTS.map((host) => `${url.protocol}//${host}${port}`)]);
}

/**
 * Cross-site request forgery guard: a state-changing request must come from our
 * own origin, and carry JSON unless the route accepts file uploads or CSV.
 */
export function assertSameOriginJson(request: FastifyRequest, appOrigins: ReadonlySet<string>): void {
  if (SAFE_METHODS.has(request.method) || request.routeOptions.config?.signedWebhook === true) return;
  const origin = request.headers.origin;
  if (origin === undefined || !appOrigins.has(origin)) {
    throw new AppError(403, 'ORIGIN_REFUSED', 'This request did not come from the app and was refused.');
  }
  const contentType = request.headers['content-type'];
  if (contentType === undefined) return;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  const allowsUpload = request.routeOptions.config?.acceptsFileUpload === true;
  if (mediaType === 'application/json') return;
  if (allowsUpload && mediaType === 'multipart/form-data') return;
  if (request.routeOptions.config?.acceptsCsv === true && mediaType === 'text/csv') return;
  throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Requests must be sent as JSON.');
}

function setTokenCookie(reply: FastifyReply, name: string, token: string, secure: boolean, maxAgeSeconds: number): void {
  reply.setCookie(name, token, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: maxAgeSeconds });
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean, maxAgeSeconds: number): void {
  setTokenCookie(reply, secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, token, secure, maxAgeSeconds);
}

export function setDeviceCookie(reply: FastifyReply, token: string, secure: boolean): void {
  setTokenCookie(reply, secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE, token, secure, KNOWN_DEVICE_LIFETIME_DAYS * 24 * 60 * 60);
}

export function readDeviceCookie(request: FastifyRequest, secure: boolean): string | undefined {
  return request.cookies[secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE];
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

export function readSessionCookie(request: FastifyRequest, secure: boolean): string | undefined {
  return request.cookies[secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    acceptsFileUpload?: boolean;
    /** The route takes a `text/csv` body besides JSON (a bank's results file); its parser is registered next to it. */
    acceptsCsv?: boolean;
    /**
     * A provider's webhook (decision 043): it comes from the provider's servers, not the app, so it has no Origin and
     * no session; its signature over the raw body, checked by the route, is its proof.
     */
    signedWebhook?: boolean;
  }
}
