import {
  kycPanResponseSchema,
  kycStatusResponseSchema,
  kycTaxResidenceResponseSchema,
  panConflictListResponseSchema,
  panReviewDecisionResponseSchema,
  panReviewListResponseSchema,
  panReviewParamsSchema,
  panReviewQuerySchema,
  rejectPanRequestSchema,
  submitPanRequestSchema,
  taxResidenceRequestSchema,
  verifyPanRequestSchema,
} from '#shared/contracts/kyc';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as kycService from './service.ts';

/** The customer's own KYC: the level, each check, what is missing; the PAN and the tax residence. */
export function registerKycRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/kyc',
    {
      schema: {
        tags: ['kyc'],
        summary: 'The customer’s KYC level (0, 1 or 2), the state of each check and exactly what the next level still needs',
        response: responses({ 200: kycStatusResponseSchema }),
      },
    },
    async (request) => kycService.getKycStatus(db, sessionOf(request).userId),
  );

  app.post(
    '/api/kyc/pan',
    {
      schema: {
        tags: ['kyc'],
        summary: 'Submit the PAN (a person’s, ASCII only, one per account); checked by the KYC provider, or by an admin when none is configured',
        body: submitPanRequestSchema,
        response: responses({ 200: kycPanResponseSchema }),
      },
    },
    async (request) => kycService.submitPan(context, sessionOf(request), request.body.pan, request.ip),
  );

  app.post(
    '/api/kyc/tax-residence',
    {
      schema: {
        tags: ['kyc'],
        summary: 'The customer’s self-declaration of tax residence, recorded with its time and IP address',
        body: taxResidenceRequestSchema,
        response: responses({ 200: kycTaxResidenceResponseSchema }),
      },
    },
    async (request) => kycService.declareTaxResidence(db, sessionOf(request), request.body, request.ip),
  );
}

/** The admins' side: PANs waiting for a review, verify or reject one, and PANs that several accounts tried. */
export function registerKycAdminRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/admin/kyc/pan-reviews',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'PANs waiting for an admin, newest first, with the registered name, both name scores and other accounts with the same PAN',
        querystring: panReviewQuerySchema,
        response: responses({ 200: panReviewListResponseSchema }),
      },
    },
    async (request) => kycService.listPanReviews(db, request.query),
  );

  app.post(
    '/api/admin/kyc/pan-reviews/:userId/verify',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'Verify a waiting PAN with the name printed on the card (optionally marking it inoperative: not linked to Aadhaar)',
        params: panReviewParamsSchema,
        body: verifyPanRequestSchema,
        response: responses({ 200: panReviewDecisionResponseSchema }),
      },
    },
    async (request) =>
      kycService.reviewPan(db, { userId: sessionOf(request).userId, ipAddress: request.ip }, request.params.userId, {
        outcome: 'verified',
        registeredName: request.body.registeredName,
        aadhaarLinked: request.body.aadhaarLinked,
      }),
  );

  app.post(
    '/api/admin/kyc/pan-reviews/:userId/reject',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'Reject a waiting PAN with a reason the customer sees',
        params: panReviewParamsSchema,
        body: rejectPanRequestSchema,
        response: responses({ 200: panReviewDecisionResponseSchema }),
      },
    },
    async (request) =>
      kycService.reviewPan(db, { userId: sessionOf(request).userId, ipAddress: request.ip }, request.params.userId, { outcome: 'rejected', reason: request.body.reason }),
  );

  app.get(
    '/api/admin/kyc/pan-conflicts',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'A PAN that a second account tried to register (refused), and PANs several accounts held before one PAN per account began; newest first',
        querystring: panReviewQuerySchema,
        response: responses({ 200: panConflictListResponseSchema }),
      },
    },
    async (request) => kycService.listPanConflicts(db, request.query),
  );
}
