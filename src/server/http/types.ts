import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { errorResponseSchema } from '#shared/errors';

/** The Fastify instance with zod schemas for input and output. */
export type ApiApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/** Adds the shared error body to a route's documented answers. */
export function responses<T extends Record<number, z.ZodType>>(success: T) {
  return { ...success, '4xx': errorResponseSchema, '5xx': errorResponseSchema };
}
