import {
  meResponseSchema,
  PROFILE_UPDATED_MESSAGE,
  setLanguageRequestSchema,
  setLanguageResponseSchema,
  updateProfileRequestSchema,
  updateProfileResponseSchema,
} from '#shared/contracts/auth';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { notifySecurityChange } from '../security/notifications.ts';
import { loadMe, ME_PROFILE_READ, meOfSession } from './me.ts';
import { setPanRequestSchema, setPanResponseSchema } from '#shared/contracts/withdrawal-rules';
import type { AppContext } from '../../context.ts';
import { maskPan } from '#shared/contracts/kyc';
import { submitPan } from '../kyc/service.ts';
import { setLanguage, updateProfile } from './service.ts';

export function registerUserRoutes(app: ApiApp): void {
  app.get(
    '/api/me',
    {
      config: { sessionJoinedRead: ME_PROFILE_READ },
      schema: { tags: ['account'], summary: 'The signed-in user', response: responses({ 200: meResponseSchema }) },
    },
    async (request) => meOfSession(sessionOf(request)),
  );
}

/** The customer's PAN for TDS; registered inside the customer area. */
export function registerUserCustomerRoutes(app: ApiApp, context: AppContext): void {
  app.put(
    '/api/me/pan',
    {
      schema: {
        tags: ['account'],
        summary: 'Save the PAN (a person’s: AAAPA9999A, ASCII only) for KYC and TDS, as POST /api/kyc/pan does; answers it masked',
        body: setPanRequestSchema,
        response: responses({ 200: setPanResponseSchema }),
      },
    },
    async (request) => {
      const answer = await submitPan(context, sessionOf(request), request.body.pan, request.ip);
      return { message: answer.message, pan: maskPan(request.body.pan) };
    },
  );

  app.put(
    '/api/me/language',
    {
      schema: {
        tags: ['account'],
        summary: "Set the language of your screens and e-mails: 'en' (English) or 'hi' (Hindi)",
        body: setLanguageRequestSchema,
        response: responses({ 200: setLanguageResponseSchema }),
      },
    },
    async (request) => setLanguage(context.database.db, sessionOf(request), request.body.language),
  );

  app.patch(
    '/api/me',
    {
      schema: {
        tags: ['account'],
        summary: 'Change your own name and phone (audited; a phone change is e-mailed to the owner)',
        body: updateProfileRequestSchema,
        response: responses({ 200: updateProfileResponseSchema }),
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const { db } = context.database;
      const { phoneChanged } = await updateProfile(db, session, request.body, request.ip);
      if (phoneChanged) await notifySecurityChange(context, session.userId, 'phone-changed', request.log);
      return { message: PROFILE_UPDATED_MESSAGE, user: await loadMe(db, session) };
    },
  );
}
