import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../db/database-errors.ts';
import { AppError } from '../../errors.ts';
import type { ServerLifecycle } from '../../http/lifecycle.ts';
import { responses, type ApiApp } from '../../http/types.ts';

export function registerHealthRoutes(app: ApiApp, context: AppContext, lifecycle: ServerLifecycle): void {
  app.get(
    '/api/health',
    {
      config: { skipsSessionLookup: true },
      schema: {
        tags: ['health'],
        summary: 'Answers 200 while the database answers, 503 while it cannot be reached',
        response: responses({ 200: z.object({ status: z.literal('ok') }) }),
      },
    },
    async () => {
      try {
        await context.database.db.execute(sql`select 1`);
      } catch {
        throw new AppError(503, 'SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE);
      }
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'For load balancers: 200 while this process takes new requests, 503 from the moment it starts shutting down',
        response: responses({ 200: z.object({ status: z.literal('ready') }) }),
      },
    },
    async () => {
      if (lifecycle.draining) throw new AppError(503, 'SERVICE_UNAVAILABLE', 'This server is shutting down.');
      return { status: 'ready' as const };
    },
  );
}
