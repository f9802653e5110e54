import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ApiApp } from './types.ts';

/**
 * Registers signed webhook routes in a scope of their own whose JSON bodies are kept as raw bytes (at most
 * `maxBytes`), because a provider's signature is over the exact bytes it sent; the other routes still parse JSON.
 */
export function registerRawBodyWebhooks(app: ApiApp, maxBytes: number, routes: (scope: ApiApp) => void): void {
  void app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) => {
      done(null, body);
    });
    routes(scope);
  });
}

/** A webhook request's body as the bytes sent; empty when it had none. */
export function rawBodyOf(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}
