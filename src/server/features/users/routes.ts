import { meResponseSchema } from '../../../shared/contracts/auth.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { meOfSession } from './me.ts';

export function registerUserRoutes(app: ApiApp): void {
  app.get(
    '/api/me',
    {
      config: { sessionWithProfile: true },
      schema: { tags: ['account'], summary: 'The signed-in user', response: responses({ 200: meResponseSchema }) },
    },
    async (request) => meOfSession(sessionOf(request)),
  );
}
