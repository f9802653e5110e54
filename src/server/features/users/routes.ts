import { meResponseSchema } from '../../../shared/contracts/auth.ts';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { loadMe } from './me.ts';

export function registerUserRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/me',
    { schema: { tags: ['account'], summary: 'The signed-in user', response: responses({ 200: meResponseSchema }) } },
    async (request) => loadMe(context.database.db, sessionOf(request)),
  );
}
