import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { responses, type ApiApp } from '../../http/types.ts';

export function registerHealthRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/health',
    { config: { skipsSessionLookup: true }, schema: { tags: ['health'], summary: 'Answers once the database answers', response: responses({ 200: z.object({ status: z.literal('ok') }) }) } },
    async () => {
      try {
        await context.database.db.execute(sql`select 1`);
      } catch {
        throw new AppError(503, 'SERVICE_UNAVAILABLE', 'Unable to connect to the database');
      }
      return { status: 'ok' as const };
    },
  );
}
