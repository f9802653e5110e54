import { idParamsSchema } from '#shared/contracts/common';
import {
  referralRewardDetailResponseSchema,
  referralEarningsPageSchema,
  referralPageQuerySchema,
  referralSummarySchema,
  referredPeoplePageSchema,
} from '#shared/contracts/referrals';
import type { AppContext } from '../../context.ts';
import { responses, type ApiApp } from '../../http/types.ts';
import { sessionOf } from '../../platform/sessions/areas.ts';
import * as referralService from './service.ts';

export function registerReferralRoutes(app: ApiApp, context: AppContext): void {
  const { db } = context.database;

  app.get(
    '/api/referrals',
    {
      schema: {
        tags: ['referrals'],
        summary: 'Referral totals and the first page of referred people (levels 1 and 2) and of earnings, newest first',
        querystring: referralPageQuerySchema.pick({ limit: true }),
        response: responses({ 200: referralSummarySchema }),
      },
    },
    async (request) => referralService.getSummary(db, sessionOf(request).userId, request.query.limit),
  );

  app.get(
    '/api/referrals/people',
    {
      schema: {
        tags: ['referrals'],
        summary: 'People who joined with my code (level 1) or with the code of someone I referred (level 2), newest first',
        querystring: referralPageQuerySchema,
        response: responses({ 200: referredPeoplePageSchema }),
      },
    },
    async (request) => referralService.listReferredPeople(db, sessionOf(request).userId, request.query),
  );

  app.get(
    '/api/referrals/earnings',
    {
      schema: {
        tags: ['referrals'],
        summary: 'Referral rewards paid to me, newest first',
        querystring: referralPageQuerySchema,
        response: responses({ 200: referralEarningsPageSchema }),
      },
    },
    async (request) => referralService.listEarnings(db, sessionOf(request).userId, request.query),
  );

  app.get(
    '/api/referrals/earnings/:id',
    {
      schema: {
        tags: ['referrals'],
        summary: 'One referral reward paid to me, with the deposit that earned it',
        params: idParamsSchema,
        response: responses({ 200: referralRewardDetailResponseSchema }),
      },
    },
    async (request) => ({ reward: await referralService.getOwnReward(db, sessionOf(request).userId, request.params.id) }),
  );
}
