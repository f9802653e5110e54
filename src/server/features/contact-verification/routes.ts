import {
  changeEmailRequestSchema,
  contactMessageResponseSchema,
  contactStatusResponseSchema,
  verifyEmailRequestSchema,
  verifyEmailResponseSchema,
  verifyPhoneRequestSchema,
} from '#shared/contracts/contact-verification';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as contactVerification from './service.ts';

/** The page of the e-mailed link calls this; the link's token is all it needs (public). */
export function registerEmailLinkRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/contact-verification/email/verify',
    {
      schema: {
        tags: ['account'],
        summary: 'Open an e-mail verification or change link (24 hours, single use)',
        body: verifyEmailRequestSchema,
        response: responses({ 200: verifyEmailResponseSchema }),
      },
    },
    async (request) => contactVerification.verifyEmailLink(context, request, request.body.token),
  );
}

/** The contact checks of the signed-in user: a new account verifies before its PIN matters. */
export function registerContactVerificationRoutes(app: ApiApp, context: AppContext): void {
  app.get(
    '/api/contact-verification',
    { schema: { tags: ['account'], summary: 'Whether your e-mail and mobile number are verified', response: responses({ 200: contactStatusResponseSchema }) } },
    async (request) => contactVerification.contactStatus(context, sessionOf(request).userId),
  );

  app.post(
    '/api/contact-verification/email/resend',
    {
      schema: {
        tags: ['account'],
        summary: 'E-mail a new verification link (5 a day, one a minute)',
        response: responses({ 200: contactMessageResponseSchema }),
      },
    },
    async (request) => ({ message: await contactVerification.resendEmailLink(context, sessionOf(request).userId) }),
  );

  app.post(
    '/api/contact-verification/phone/send-code',
    {
      schema: {
        tags: ['account'],
        summary: 'Text a 6-digit code to your mobile number (10 minutes; 5 a day per account and per number, one a minute)',
        response: responses({ 200: contactMessageResponseSchema }),
      },
    },
    async (request) => ({ message: await contactVerification.sendPhoneCode(context, request, sessionOf(request).userId, request.log) }),
  );

  app.post(
    '/api/contact-verification/phone/verify',
    {
      schema: {
        tags: ['account'],
        summary: 'Enter the code texted to your mobile number (5 attempts)',
        body: verifyPhoneRequestSchema,
        response: responses({ 200: contactMessageResponseSchema }),
      },
    },
    async (request) => ({ message: await contactVerification.verifyPhoneCode(context, request, sessionOf(request).userId, request.body.code) }),
  );
}

/** Changing the e-mail needs the password and a PIN-verified session, as changing the password does. */
export function registerEmailChangeRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/contact-verification/email/change',
    {
      schema: {
        tags: ['account'],
        summary: 'Change your e-mail: the current password, then the link sent to the new address (the old one is told)',
        body: changeEmailRequestSchema,
        response: responses({ 200: contactMessageResponseSchema }),
      },
    },
    async (request) => ({ message: await contactVerification.requestEmailChange(context, request, sessionOf(request).userId, request.body) }),
  );
}
