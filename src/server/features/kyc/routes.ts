import type { FastifyRequest } from 'fastify';
import { idParamsSchema } from '#shared/contracts/common';
import {
  adminKycRecordSchema,
  freezeRequestSchema,
  freezeResponseSchema,
  riskCategoryRequestSchema,
  riskCategoryResponseSchema,
  unfreezeResponseSchema,
  kycPanResponseSchema,
  kycStatusResponseSchema,
  kycTaxResidenceResponseSchema,
  panConflictListResponseSchema,
  panReviewDecisionResponseSchema,
  panReviewListResponseSchema,
  panReviewQuerySchema,
  rejectPanRequestSchema,
  submitPanRequestSchema,
  taxResidenceRequestSchema,
  verifyPanRequestSchema,
} from '#shared/contracts/kyc';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { registerDecisionRoutes } from '../../platform/decisions/routes.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import { panReviewDecisions } from './pan-review-kind.ts';
import * as accountControls from './account-controls.ts';
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
        summary: 'PANs waiting for an admin, oldest first, with the registered name, both name scores and other accounts with the same PAN',
        querystring: panReviewQuerySchema,
        response: responses({ 200: panReviewListResponseSchema }),
      },
    },
    async (request) => kycService.listPanReviews(db, request.query),
  );

  registerDecisionRoutes(app, db, panReviewDecisions, {
    basePath: '/api/admin/kyc/pan-reviews',
    response: panReviewDecisionResponseSchema,
    approve: {
      summary: 'Verify a waiting PAN (the id is the customer’s) with the name printed on the card, optionally marking it inoperative (not linked to Aadhaar)',
      // Optional here so that a request without a body gets the name's field message from the kind, as a blank name does.
      body: verifyPanRequestSchema.optional().transform((body) =>
        body === undefined ? undefined : { registeredName: body.registeredName, aadhaarLinked: body.aadhaarLinked === undefined ? undefined : body.aadhaarLinked ? ('yes' as const) : ('no' as const) },
      ),
    },
    reject: { summary: 'Reject a waiting PAN (the id is the customer’s) with a reason the customer sees', body: rejectPanRequestSchema.optional() },
  });

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

  app.get(
    '/api/admin/kyc/customers/:id',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'A customer’s KYC for the user page: the level, each check and when, the PAN’s check, the freeze, the risk category and the KYC refresh date',
        params: idParamsSchema,
        response: responses({ 200: adminKycRecordSchema }),
      },
    },
    async (request) => accountControls.getAdminKycRecord(db, request.params.id),
  );

  app.post(
    '/api/admin/kyc/customers/:id/freeze',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'Freeze a customer’s account with a reason (suspicious activity): no withdrawals, transfers or bank account changes; deposits still credit',
        params: idParamsSchema,
        body: freezeRequestSchema,
        response: responses({ 200: freezeResponseSchema }),
      },
    },
    async (request) => accountControls.freezeAccount(db, actorOf(request), request.params.id, request.body.reason),
  );

  app.post(
    '/api/admin/kyc/customers/:id/unfreeze',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'Lift a freeze with a reason: at once with a single admin, else 202 and a change a second admin confirms',
        params: idParamsSchema,
        body: freezeRequestSchema,
        response: responses({ 200: unfreezeResponseSchema, 202: unfreezeResponseSchema }),
      },
    },
    async (request, reply) => {
      const answer = await accountControls.unfreezeAccount(db, actorOf(request), request.params.id, request.body.reason);
      reply.code(answer.statusCode);
      return answer.body;
    },
  );

  app.put(
    '/api/admin/kyc/customers/:id/risk',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'Set a customer’s risk category (low, medium, high), which dates their next KYC refresh',
        params: idParamsSchema,
        body: riskCategoryRequestSchema,
        response: responses({ 200: riskCategoryResponseSchema }),
      },
    },
    async (request) => accountControls.setRiskCategory(db, actorOf(request), request.params.id, request.body.riskCategory),
  );
}

function actorOf(request: FastifyRequest): { userId: string; ipAddress: string } {
  return { userId: sessionOf(request).userId, ipAddress: request.ip };
}

