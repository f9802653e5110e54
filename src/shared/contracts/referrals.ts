import { z } from 'zod';
import { cursorQuerySchema, decimalStringSchema, isoDateTimeSchema, uuidSchema } from './common.ts';

export const REFERRAL_MESSAGES = {
  loadFailed: 'Failed to load referral data',
  linkCopied: 'Link Copied',
  empty: 'No referrals yet. Share your referral link to start earning.',
  noEarnings: 'No earnings yet.',
  rewardNotFound: 'Referral bonus not found',
} as const;

export const referralLevelSchema = z.union([z.literal(1), z.literal(2)]);
export type ReferralLevel = z.infer<typeof referralLevelSchema>;

export const referralPageQuerySchema = cursorQuerySchema;
export type ReferralPageQuery = z.input<typeof referralPageQuerySchema>;

/** Someone who signed up with my code (level 1) or with the code of someone I referred (level 2). */
export const referredPersonSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  joinedAt: isoDateTimeSchema,
  level: referralLevelSchema,
});
export type ReferredPerson = z.infer<typeof referredPersonSchema>;

/** One reward paid to me for a deposit of someone I referred; `amount` is USDT. */
export const referralEarningSchema = z.object({
  id: uuidSchema,
  amount: decimalStringSchema,
  earnedAt: isoDateTimeSchema,
  level: referralLevelSchema,
});
export type ReferralEarning = z.infer<typeof referralEarningSchema>;

export const referredPeoplePageSchema = z.object({ items: z.array(referredPersonSchema), nextCursor: z.string().nullable() });
export type ReferredPeoplePage = z.infer<typeof referredPeoplePageSchema>;
export const referralEarningsPageSchema = z.object({ items: z.array(referralEarningSchema), nextCursor: z.string().nullable() });
export type ReferralEarningsPage = z.infer<typeof referralEarningsPageSchema>;

/**
 * GET /api/referrals: totals over everything, plus the first page of each list
 * (newest first). Later pages come from /api/referrals/people and /api/referrals/earnings.
 */
export const referralSummarySchema = z.object({
  totalReferrals: z.number().int(),
  referralsByLevel: z.object({ level1: z.number().int(), level2: z.number().int() }),
  /** Sum of every reward paid to me, in USDT. */
  totalEarnings: decimalStringSchema,
  referrals: referredPeoplePageSchema,
  earnings: referralEarningsPageSchema,
});
export type ReferralSummary = z.infer<typeof referralSummarySchema>;

/**
 * GET /api/referrals/earnings/:id: one reward paid to me, with the name of who
 * made the deposit (as the referrals list shows it) and the deposit's amount.
 */
export const referralRewardDetailSchema = referralEarningSchema.extend({
  referredName: z.string(),
  depositAmount: decimalStringSchema,
  depositId: uuidSchema,
});
export type ReferralRewardDetail = z.infer<typeof referralRewardDetailSchema>;
export const referralRewardDetailResponseSchema = z.object({ reward: referralRewardDetailSchema });
