import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idParamsSchema } from '#shared/contracts/common';
import {
  imagePurposeParamsSchema,
  levelTwoCaseListResponseSchema,
  levelTwoCaseQuerySchema,
  levelTwoCaseSchema,
  levelTwoDecisionResponseSchema,
  rejectLevelTwoRequestSchema,
  requestAgainRequestSchema,
  submitLevelTwoRequestSchema,
  uploadKycImageResponseSchema,
  livenessChallengeResponseSchema,
} from '#shared/contracts/kyc-documents';
import { errorResponseSchema } from '#shared/errors';
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
  requestPanCardRequestSchema,
  requestPanCardResponseSchema,
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
import { requestPanCard } from './pan-card.ts';
import * as levelTwoReview from './documents/review.ts';
import * as levelTwoService from './documents/service.ts';
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
    '/api/kyc/pan/card-image',
    {
      config: { acceptsFileUpload: true },
      schema: {
        tags: ['kyc'],
        summary:
          'A photo of the PAN card (multipart `file`, JPEG, PNG or HEIC up to 10 MB and 24 megapixels) for the admin who verifies a waiting PAN without a provider’s answer: kept as a new JPEG without metadata, encrypted',
        consumes: ['multipart/form-data'],
        response: responses({ 200: kycPanResponseSchema }),
      },
    },
    async (request) => levelTwoService.uploadPanCard(context, request, sessionOf(request), request.ip),
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

  registerLevelTwoRoutes(app, context);
}

/** The customer's level 2 (decisions 050, 052): the live selfie's challenge, the photos and the submission. */
function registerLevelTwoRoutes(app: ApiApp, context: AppContext): void {
  app.post(
    '/api/kyc/level2/liveness-challenge',
    {
      schema: {
        tags: ['kyc'],
        summary:
          'The live selfie’s challenge: steps chosen at random by the server (blink, turn left, turn right) and a token, valid 10 minutes, that the selfie’s liveness report must carry',
        response: responses({ 200: livenessChallengeResponseSchema }),
      },
    },
    async (request) => levelTwoService.startLivenessChallenge(context, sessionOf(request)),
  );

  app.post(
    '/api/kyc/level2/images/:purpose',
    {
      config: { acceptsFileUpload: true },
      schema: {
        tags: ['kyc'],
        summary:
          'One photo for KYC level 2 (multipart `file`, JPEG, PNG or HEIC up to 10 MB and 24 megapixels; a selfie up to 3 `file` frames and `liveness`, the browser check’s report as JSON with each frame’s scores, of which the best frame is kept): kept as a new JPEG without metadata, encrypted',
        consumes: ['multipart/form-data'],
        params: imagePurposeParamsSchema,
        response: responses({ 201: uploadKycImageResponseSchema }),
      },
    },
    async (request, reply) => reply.code(201).send(await levelTwoService.uploadImage(context, request, sessionOf(request), request.params.purpose)),
  );

  app.post(
    '/api/kyc/level2',
    {
      schema: {
        tags: ['kyc'],
        summary:
          'Send KYC level 2 from level 1: the second document (type, number, name, photos), the live selfie and the address; recorded with IP, time, user agent and position',
        body: submitLevelTwoRequestSchema,
        response: responses({ 200: kycPanResponseSchema }),
      },
    },
    async (request) =>
      levelTwoService.submitLevelTwo(context, sessionOf(request), request.body, { ipAddress: request.ip, userAgent: request.headers['user-agent'] }),
  );
}

/** An image's bytes are sent as they are, without serialization. */
const imageResponses = { 200: z.unknown().describe('The image (JPEG)'), '4xx': errorResponseSchema, '5xx': errorResponseSchema };

/** The admins' side: the PAN reviews, a customer's KYC and its controls, and the level 2 cases. */
export function registerKycAdminRoutes(app: ApiApp, context: AppContext): void {
  registerPanAdminRoutes(app, context);
  registerAccountControlRoutes(app, context);
  registerLevelTwoCaseRoutes(app, context);
  registerLevelTwoDecisionRoutes(app, context);
}

/** PANs waiting for a review, verify or reject one, and PANs that several accounts tried. */
function registerPanAdminRoutes(app: ApiApp, context: AppContext): void {
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
        body === undefined
          ? undefined
          : {
              registeredName: body.registeredName,
              aadhaarLinked: body.aadhaarLinked === undefined ? undefined : body.aadhaarLinked ? ('yes' as const) : ('no' as const),
            },
      ),
    },
    reject: { summary: 'Reject a waiting PAN (the id is the customer’s) with a reason the customer sees', body: rejectPanRequestSchema.optional() },
  });

  app.post(
    '/api/admin/kyc/pan-reviews/:id/request-card',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'Ask for a photo of a waiting PAN’s card (again), with a reason the customer sees; approving waits for the photo',
        params: idParamsSchema,
        body: requestPanCardRequestSchema,
        response: responses({ 200: requestPanCardResponseSchema }),
      },
    },
    async (request) => requestPanCard(db, actorOf(request), request.params.id, request.body.reason),
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

/** A customer's KYC for the user page, the freeze and the risk category (decision 047). */
function registerAccountControlRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

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

/** The desk's level 2 cases (decision 050): the queue, a case and its images (PIN verified, each view audited). */
function registerLevelTwoCaseRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/admin/kyc/level2-reviews',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'KYC level 2 cases waiting for a review, oldest first, with the name rule’s verdict on the document’s name',
        querystring: levelTwoCaseQuerySchema,
        response: responses({ 200: levelTwoCaseListResponseSchema }),
      },
    },
    async (request) => levelTwoReview.listLevelTwoCases(db, request.query),
  );

  app.get(
    '/api/admin/kyc/level2-reviews/:id',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary:
          'A KYC level 2 case: the document, the address, the images’ ids, the liveness report, the PAN’s result, both name verdicts and the sign-up and submission trails',
        params: idParamsSchema,
        response: responses({ 200: levelTwoCaseSchema }),
      },
    },
    async (request) => levelTwoReview.getLevelTwoCase(db, request.params.id),
  );

  app.get(
    '/api/admin/kyc/images/:id',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'A KYC image (document side, selfie or PAN card), decrypted, for an admin whose PIN is verified; every view is audited',
        params: idParamsSchema,
        response: imageResponses,
      },
    },
    async (request, reply) => {
      const bytes = await levelTwoReview.viewImage(context, sessionOf(request), request.params.id, request.ip);
      return reply.header('content-type', 'image/jpeg').header('cache-control', 'no-store').header('content-disposition', 'inline').send(bytes);
    },
  );
}

/** The desk's decisions on a level 2 case: approve (two-person while two admins exist), reject, or ask for one item again. */
function registerLevelTwoDecisionRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.post(
    '/api/admin/kyc/level2-reviews/:id/approve',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'Approve KYC level 2: at once with a single admin, else 202 and a change a second admin confirms',
        params: idParamsSchema,
        response: responses({ 200: levelTwoDecisionResponseSchema, 202: levelTwoDecisionResponseSchema }),
      },
    },
    async (request, reply) => {
      const answer = await levelTwoReview.approveLevelTwo(db, actorOf(request), request.params.id);
      reply.code(answer.statusCode);
      return answer.body;
    },
  );

  app.post(
    '/api/admin/kyc/level2-reviews/:id/reject',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'Reject KYC level 2 with a reason the customer sees',
        params: idParamsSchema,
        body: rejectLevelTwoRequestSchema,
        response: responses({ 200: levelTwoDecisionResponseSchema }),
      },
    },
    async (request) => (await levelTwoReview.rejectLevelTwo(db, actorOf(request), request.params.id, request.body.reason)).body,
  );

  app.post(
    '/api/admin/kyc/level2-reviews/:id/request-again',
    {
      schema: {
        tags: ['admin', 'kyc'],
        summary: 'Ask the customer to send one item again (a document side, the selfie or the address), with a reason they see',
        params: idParamsSchema,
        body: requestAgainRequestSchema,
        response: responses({ 200: levelTwoDecisionResponseSchema }),
      },
    },
    async (request) => (await levelTwoReview.requestAgain(db, actorOf(request), request.params.id, request.body.item, request.body.reason)).body,
  );
}

function actorOf(request: FastifyRequest): { userId: string; ipAddress: string } {
  return { userId: sessionOf(request).userId, ipAddress: request.ip };
}
