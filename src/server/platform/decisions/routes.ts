import { z } from 'zod';
import { idParamsSchema } from '#shared/contracts/common';
import type { Database } from '../../db/client.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { readIdempotencyKey } from '../idempotency/service.ts';
import { sessionOf } from '../sessions/areas.ts';
import { decide, type DecidableRow, type DecisionOutcome, type RequestKind } from './decide.ts';

interface DecisionRouteOptions<Details> {
  summary: string;
  /** The optional JSON body (a rejection reason, a payout reference); none when the decision takes no details. */
  body?: z.ZodType<Details | undefined>;
}

/**
 * Registers `POST {basePath}/:id/approve` and `POST {basePath}/:id/reject` for
 * one request kind. Both accept an Idempotency-Key header and answer with the
 * kind's decision answer.
 */
export function registerDecisionRoutes<Row extends DecidableRow, Details extends Record<string, string | undefined>, Body, Deferred = never>(
  app: ApiApp,
  db: Database,
  kind: RequestKind<Row, Details, Body, Deferred>,
  options: {
    basePath: string;
    response: z.ZodType<Body>;
    /** The 202 answer of an approval that waits for a second admin (kinds with gateApproval). */
    deferredResponse?: z.ZodType<Deferred>;
    approve: DecisionRouteOptions<Details>;
    reject: DecisionRouteOptions<Details>;
  },
): void {
  const routes: [DecisionOutcome, 'approve' | 'reject', DecisionRouteOptions<Details>][] = [
    ['approved', 'approve', options.approve],
    ['rejected', 'reject', options.reject],
  ];
  // Widened to the plain schema type: Fastify cannot resolve a reply type from a generic schema, and the kind's answer already has type Body.
  const responseSchema: z.ZodType = options.response;
  // A decision's details are optional: a POST without a body (which reaches validation as null) means none.
  // Not a union with null: a union's refusal loses the field messages of the body's own schema.
  const optionalBody = (body: z.ZodType<Details | undefined>) => z.preprocess((value) => (value === null ? undefined : value), body);
  for (const [outcome, verb, route] of routes) {
    app.post(
      `${options.basePath}/:id/${verb}`,
      {
        schema: {
          tags: ['admin'],
          summary: `${route.summary}; accepts an Idempotency-Key header`,
          params: idParamsSchema,
          ...(route.body ? { body: optionalBody(route.body) } : {}),
          response: responses(
            outcome === 'approved' && options.deferredResponse ? { 200: responseSchema, 202: options.deferredResponse } : { 200: responseSchema },
          ),
        },
      },
      async (request, reply) => {
        const session = sessionOf(request);
        const details = (request.body ?? {}) as Details;
        const answer = await decide(
          db,
          kind,
          { id: request.params.id, outcome, decider: { kind: 'admin', userId: session.userId, ipAddress: request.ip }, details },
          readIdempotencyKey(request),
        );
        if (answer.replayed) reply.header('idempotent-replayed', 'true');
        reply.code(answer.statusCode);
        return answer.body;
      },
    );
  }
}
