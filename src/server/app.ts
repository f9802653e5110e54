import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { PRODUCT_NAME } from '../shared/limits.ts';
import type { AppContext } from './context.ts';
import { registerFeatureRoutes } from './features/index.ts';
import { resolveSession } from './platform/sessions/service.ts';
import { AppError } from './errors.ts';
import { handleClientError, handleError, handleFrameworkError } from './http/error-handler.ts';
import { assertSameOriginJson } from './http/security.ts';
import { safeTextValidatorCompiler } from './http/validation.ts';
import type { ApiApp } from './http/types.ts';

export interface BuildAppOptions {
  /** Folder of the built web app; when absent, only the API is served. */
  webDirectory?: string | undefined;
  logger?: boolean;
  /** Where the structured log goes (standard output by default); tests read it back. */
  logDestination?: NodeJS.WritableStream;
}

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

export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<ApiApp> {
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
    trustProxy: false,
    bodyLimit: 64 * 1024,
    requestIdHeader: false,
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(safeTextValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix UI and the toast library set inline styles; scripts stay strictly same-origin.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
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
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: 200 * 1024 * 1024, files: 1, fields: 10 } });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${PRODUCT_NAME} API`, version: '1.0.0', description: 'JSON API of the wallet. Amounts are decimal strings.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'session' } } },
    },
    transform: jsonSchemaTransform,
  });
  await registerApiDocs(app, context);

  app.decorateRequest('session', undefined);
  // Decided by the route the request matched, never by the raw URL: '/%61pi/auth/logout' matches '/api/auth/logout'.
  app.addHook('onRequest', async (request) => {
    if (!isApiRoute(request)) return;
    assertSameOriginJson(request, context.config.appOrigin);
    if (request.routeOptions.config.skipsSessionLookup === true) return;
    request.session = await resolveSession(context, request);
  });
  app.addHook('onSend', async (request, reply) => {
    if (isApiRoute(request) || (request.is404 && request.url.startsWith('/api/'))) reply.header('cache-control', 'no-store');
  });

  app.setErrorHandler(handleError);

  registerFeatureRoutes(app, context);

  const webDirectory = options.webDirectory;
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
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET' || !indexFile || !fs.existsSync(indexFile)) {
      return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    }
    // Client-side routes (and the web app's own 404 page) are served by index.html.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  return app;
}
