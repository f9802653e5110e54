import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { PRODUCT_NAME } from '#shared/limits';
import type { AppContext } from './context.ts';
import { registerFeatureRoutes } from './features/index.ts';
import { AppMetrics, registerMetrics } from './platform/metrics/metrics.ts';
import { resolveSession, usesSecureCookies } from './platform/sessions/service.ts';
import { AppError, RetryLaterError } from './errors.ts';
import { handleClientError, handleError, handleFrameworkError } from './http/error-handler.ts';
import { registerInFlightLimit } from './http/in-flight-limit.ts';
import { newRequestId } from './http/request-ids.ts';
import { buildRouteShells, preferredEncoding, wantsPrerenderedPage, type RouteShells } from './http/route-shells.ts';
import { ServerLifecycle, SHUTDOWN_RETRY_AFTER_SECONDS, SHUTTING_DOWN_MESSAGE } from './http/lifecycle.ts';
import { assertSameOriginJson, sameOrigins } from './http/security.ts';
import { computeSecurityHeaders } from './http/security-headers.ts';
import { checkedResponseSerializerCompiler } from './http/response-serializer.ts';
import { safeTextValidatorCompiler } from './http/validation.ts';
import type { ApiApp } from './http/types.ts';

export interface BuildAppOptions {
  /** Folder of the built web app; when absent, only the API is served. */
  webDirectory?: string | undefined;
  logger?: boolean;
  /** Where the structured log goes (standard output by default); tests read it back. */
  logDestination?: NodeJS.WritableStream;
  /** Shared with the code that shuts the server down; /api/ready reads it. */
  lifecycle?: ServerLifecycle;
  /** The process's metrics; built here when not given. */
  metrics?: AppMetrics;
  /** Slow-client limits; tests shorten them. */
  timeouts?: Partial<ServerTimeouts>;
}

export interface ServerTimeouts {
  /** The whole request, headers and body, must arrive within this time (a 200 MB upload over a slow line included). */
  requestMilliseconds: number;
  /** A connection on which nothing moves for this long is closed (event streams send a heartbeat every 15 s). */
  idleConnectionMilliseconds: number;
}

const DEFAULT_TIMEOUTS: ServerTimeouts = { requestMilliseconds: 300_000, idleConnectionMilliseconds: 60_000 };

/** The built web app: beside the built server in a build folder, or in dist/ when running from source. */
export function defaultWebDirectory(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return import.meta.url.endsWith('.js') ? path.resolve(here, '../web') : path.resolve(here, '../../dist/web');
}

/** Whether the matched route is one of the JSON API's (the API documentation pages are not). */
function isApiRoute(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  return route !== undefined && route.startsWith('/api/') && !route.startsWith('/api/docs');
}

/**
 * Logs a URL's path and the names of its query parameters only: values can be
 * secrets (the reset tokens of /reset-password and /reset-pin) or personal data
 * (an admin's search for a customer's name or e-mail).
 */
function urlForLog(url: string): string {
  return url.replace(/([?&][^=&#]*=)[^&#]*/g, '$1[redacted]');
}

/**
 * The API documentation at /api/docs: off unless API_DOCS says `public` or
 * `admin` (signed-in admins only), and then with no request to a third party
 * (Swagger's online validator is switched off and left out of the policy).
 */
async function registerApiDocs(app: ApiApp, context: AppContext): Promise<void> {
  if (context.config.apiDocs === 'off') return;
  const adminOnly = context.config.apiDocs === 'admin';
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { validatorUrl: null },
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace(/ validator\.swagger\.io/g, '')
        .replace(/ https:/g, '')
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
    uiHooks: {
      onRequest: async (request) => {
        if (!adminOnly) return;
        request.session = await resolveSession(context, request);
        if (!request.session) throw AppError.unauthenticated();
        if (request.session.role !== 'admin') throw AppError.forbidden();
      },
    },
  });
}

/** The OpenAPI description of every route, from its zod schemas; its pages only where the configuration shows them. */
async function registerOpenApi(app: ApiApp, context: AppContext): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${PRODUCT_NAME} API`, version: '1.0.0', description: 'JSON API of the wallet. Amounts are decimal strings.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'session' } } },
    },
    transform: jsonSchemaTransform,
  });
  await registerApiDocs(app, context);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Absent on a bare Fastify instance that only registers routes (a test's route listing). */
    metrics?: AppMetrics;
  }
}

export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<ApiApp> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: context.config.logLevel,
            ...(options.logDestination ? { stream: options.logDestination } : {}),
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
            serializers: {
              req: (request) => ({ method: request.method, url: urlForLog(request.url), remoteAddress: request.ip }),
            },
          },
    // Unset TRUST_PROXY trusts nobody: X-Forwarded-For is ignored and the peer address is the client's.
    trustProxy: context.config.trustProxy ?? false,
    bodyLimit: 64 * 1024,
    requestIdHeader: false,
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
    genReqId: newRequestId,
    requestTimeout: timeouts.requestMilliseconds,
    http: {
      headersTimeout: Math.min(60_000, timeouts.requestMilliseconds),
      // Node checks the request timeout on this interval; a shorter timeout needs a shorter interval to mean anything.
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(timeouts.requestMilliseconds / 4))),
    },
    connectionTimeout: timeouts.idleConnectionMilliseconds,
    // Fastify's own answer while closing has neither the app's error shape nor Retry-After; the hook below gives both.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
  const lifecycle = options.lifecycle ?? new ServerLifecycle();
  const metrics = options.metrics ?? new AppMetrics(context);
  app.decorate('metrics', metrics);
  registerMetrics(app, metrics, context.config);

  app.setValidatorCompiler(safeTextValidatorCompiler);
  app.setSerializerCompiler(checkedResponseSerializerCompiler);

  const securityHeaders = appSecurityHeaders(context);
  // Set on the raw response, as helmet does, so a route may still replace one (the API docs set their own policy).
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    done();
  });
  // After the drain (src/server/http/lifecycle.ts) a request can still arrive on a connection that was busy; it is refused, not started.
  app.addHook('onRequest', async () => {
    if (lifecycle.closing) throw new RetryLaterError(503, 'SERVICE_UNAVAILABLE', SHUTTING_DOWN_MESSAGE, SHUTDOWN_RETRY_AFTER_SECONDS);
  });
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: 200 * 1024 * 1024, files: 1, fields: 10 } });

  await registerOpenApi(app, context);

  registerInFlightLimit(app, { secureCookie: usesSecureCookies(context), maxPerSession: context.rateLimits.writesInFlightPerSession });
  app.decorateRequest('session', undefined);
  const appOrigins = sameOrigins(context.config.appOrigin);
  // Decided by the route the request matched, never by the raw URL: '/%61pi/auth/logout' matches '/api/auth/logout'.
  app.addHook('onRequest', async (request) => {
    if (!isApiRoute(request)) return;
    assertSameOriginJson(request, appOrigins);
    if (request.routeOptions.config.skipsSessionLookup === true || request.routeOptions.config.signedWebhook === true) return;
    request.session = await resolveSession(context, request);
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // While draining, every answer ends its keep-alive connection so that clients reconnect to another server.
    if (lifecycle.draining) reply.header('connection', 'close');
    if (isApiRoute(request) || (request.is404 && request.url.startsWith('/api/'))) reply.header('cache-control', 'no-store');
  });

  app.setErrorHandler(handleError);

  registerFeatureRoutes(app, context, lifecycle);

  await registerWebApp(app, options.webDirectory);

  return app;
}

/** The security headers of every answer: a strict same-origin content security policy, computed once. */
function appSecurityHeaders(context: AppContext) {
  return computeSecurityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the live selfie's face check compile its same-origin WebAssembly (decision 052); JavaScript eval stays refused.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        // Radix UI and the toast library set inline styles; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        // The installable app: its service worker (public/sw.js) and web app manifest, both same-origin.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // frame-ancestors 'none' in the policy says it; X-Frame-Options: SAMEORIGIN would contradict it.
    xFrameOptions: false,
    hsts: context.config.appOrigin.startsWith('https://'),
  });
}

/**
 * The built web app: its files (pre-compressed, hashed assets cached for good), the first-visit pages'
 * shells, and index.html for every other page; an unknown /api/ path is a 404 in the app's error shape.
 */
async function registerWebApp(app: ApiApp, webDirectory: string | undefined): Promise<void> {
  const indexFile = webDirectory ? path.join(webDirectory, 'index.html') : undefined;
  if (webDirectory && indexFile && fs.existsSync(indexFile)) {
    await app.register(fastifyStatic, {
      root: webDirectory,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of every text asset; they are sent to browsers that accept them.
      preCompressed: true,
      setHeaders: (response, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) response.header('cache-control', 'public, max-age=31536000, immutable');
        // Unhashed names: a browser must ask again each time, or a new service worker or manifest would never reach it.
        const fileName = path.basename(filePath).replace(/\.(br|gz)$/, '');
        if (fileName === 'sw.js' || fileName === 'manifest.webmanifest') response.header('cache-control', 'no-cache');
        if (fileName === 'manifest.webmanifest') response.header('content-type', 'application/manifest+json; charset=utf-8');
      },
    });
  }

  // The first-visit pages' index.html with their route's chunks preloaded, built once here (src/server/http/route-shells.ts).
  const routeShells = webDirectory ? buildRouteShells(webDirectory) : new Map<string, RouteShells>();
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET' || !indexFile || !fs.existsSync(indexFile)) {
      return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    }
    const queryStart = request.url.indexOf('?');
    const shells = routeShells.get(queryStart < 0 ? request.url : request.url.slice(0, queryStart));
    if (shells) {
      const shell = shells.prerendered && wantsPrerenderedPage(request) ? shells.prerendered : shells.plain;
      reply
        .header('cache-control', 'no-cache')
        .header('content-type', 'text/html; charset=utf-8')
        .header('vary', 'accept-encoding, cookie')
        .header('etag', shell.etag);
      if (request.headers['if-none-match'] === shell.etag) return reply.code(304).send();
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      if (encoding) reply.header('content-encoding', encoding);
      return reply.send(encoding === 'br' ? shell.brotli : encoding === 'gzip' ? shell.gzip : shell.identity);
    }
    // Client-side routes (and the web app's own 404 page) are served by index.html.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
