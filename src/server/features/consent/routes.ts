import { acceptConsentRequestSchema, consentStatusResponseSchema } from '#shared/contracts/operator-identity';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as consentService from './service.ts';

/** The consent and privacy notice a customer accepts before KYC starts (issue 32, decision 051). */
export function registerConsentRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/kyc/consent',
    {
      schema: {
        tags: ['kyc'],
        summary: 'The consent and privacy notice’s current version and when the customer accepted it (null: not yet)',
        response: responses({ 200: consentStatusResponseSchema }),
      },
    },
    async (request) => consentService.getConsentStatus(db, sessionOf(request).userId),
  );

  app.post(
    '/api/kyc/consent',
    {
      schema: {
        tags: ['kyc'],
        summary:
          'Accept the consent and privacy notice before KYC; recorded with the time, the IP address and the notice’s version (409 when the version is not the current one)',
        body: acceptConsentRequestSchema,
        response: responses({ 200: consentStatusResponseSchema }),
      },
    },
    async (request) => consentService.acceptNotice(db, sessionOf(request).userId, request.body.noticeVersion, request.ip),
  );
}
