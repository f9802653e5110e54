import {
  REFERRAL_MESSAGES,
  type ReferralEarningsPage,
  type ReferralLevel,
  type ReferralRewardDetail,
  type ReferralSummary,
  type ReferredPeoplePage,
} from '#shared/contracts/referrals';
import { usdtMicrosToWire } from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { decodeCursor, toPage } from '../../platform/pagination/cursor.ts';
import * as referralRepository from './repository.ts';

function asLevel(level: number): ReferralLevel {
  if (level !== 1 && level !== 2) throw new Error(`referral level out of range: ${level}`);
  return level;
}

export async function listReferredPeople(db: Executor, userId: string, query: { cursor?: string | undefined; limit: number }): Promise<ReferredPeoplePage> {
  const rows = await referralRepository.listReferredPeople(db, userId, decodeCursor(query.cursor), query.limit);
  const page = toPage(rows, query.limit);
  return {
    items: page.rows.map((row) => ({ id: row.id, name: row.name, joinedAt: row.joinedAtIso, level: asLevel(row.level) })),
    nextCursor: page.nextCursor,
  };
}

export async function listEarnings(db: Executor, userId: string, query: { cursor?: string | undefined; limit: number }): Promise<ReferralEarningsPage> {
  const rows = await referralRepository.listRewards(db, userId, decodeCursor(query.cursor), query.limit);
  const page = toPage(rows, query.limit);
  return {
    items: page.rows.map((row) => ({ id: row.id, amount: usdtMicrosToWire(row.rewardUsdtMicros), earnedAt: row.earnedAtIso, level: asLevel(row.level) })),
    nextCursor: page.nextCursor,
  };
}

/** Totals and the first page of both lists, read in one snapshot so that they agree. */
export async function getSummary(db: Database, userId: string, limit: number): Promise<ReferralSummary> {
  return db.transaction(
    async (transaction) => {
      const counts = await referralRepository.countReferredPeople(transaction, userId);
      const totalEarningsUsdtMicros = await referralRepository.sumRewards(transaction, userId);
      const referrals = await listReferredPeople(transaction, userId, { limit });
      const earnings = await listEarnings(transaction, userId, { limit });
      return {
        totalReferrals: counts.level1 + counts.level2,
        referralsByLevel: counts,
        totalEarnings: usdtMicrosToWire(totalEarningsUsdtMicros),
        referrals,
        earnings,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** One of my rewards; another customer's reward answers 404 like a missing one. */
export async function getOwnReward(db: Executor, userId: string, rewardId: string): Promise<ReferralRewardDetail> {
  const row = await referralRepository.findOwnedReward(db, userId, rewardId);
  if (!row) throw AppError.notFound(REFERRAL_MESSAGES.rewardNotFound);
  return {
    id: row.id,
    amount: usdtMicrosToWire(row.rewardUsdtMicros),
    earnedAt: row.earnedAtIso,
    level: asLevel(row.level),
    referredName: row.referredName,
    depositId: row.depositId,
    depositAmount: usdtMicrosToWire(row.depositAmountUsdtMicros),
  };
}
