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
import { publishEvent } from '../../platform/events/publish.ts';
import { house, lockedWalletBalance, moveMoney, wallet, type LedgerMovement } from '../../platform/ledger/ledger.ts';
import { createNotifications } from '../../platform/notifications/service.ts';
import { decodeCursor, toPage } from '../../platform/pagination/cursor.ts';
import { referralRewardTakenBack } from '../notifications/templates.ts';
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

/**
 * The referral rewards paid on a deposit whose transfer vanished from the chain are taken back when its incident
 * is settled (decision 049): each reward once (a reversal row per reward), from the referrer's wallet back to the
 * referral rewards account as far as the wallet still holds it, the rest written off as the operator's loss; each
 * referrer is told. Inside the settlement's transaction.
 */
export async function takeBackRewardsOfVanishedDeposit(db: Executor, incident: { id: string; depositId: string }): Promise<void> {
  const rewards = await referralRepository.lockUnreversedRewardsOfDeposit(db, incident.depositId);
  for (const reward of rewards) {
    // Read under the wallet's lock, after lockReferrersBeforeTakingBack: no refund or spend changes it until commit.
    const balance = await lockedWalletBalance(db, reward.referrerUserId, ['referral_rewards']);
    const spendable = balance > 0n ? balance : 0n;
    const takenBackUsdtMicros = spendable < reward.rewardUsdtMicros ? spendable : reward.rewardUsdtMicros;
    if (takenBackUsdtMicros > 0n) {
      await moveMoney(db, [
        {
          from: wallet(reward.referrerUserId),
          to: house('referral_rewards'),
          amountUsdtMicros: takenBackUsdtMicros,
          reason: 'referral_reward_reversal',
          referenceId: reward.id,
        },
      ]);
    }
    await referralRepository.insertReversal(db, {
      rewardId: reward.id,
      incidentId: incident.id,
      takenBackUsdtMicros,
      writtenOffUsdtMicros: reward.rewardUsdtMicros - takenBackUsdtMicros,
    });
    await createNotifications(db, [
      referralRewardTakenBack({ userId: reward.referrerUserId, rewardId: reward.id, rewardUsdtMicros: reward.rewardUsdtMicros, takenBackUsdtMicros }),
    ]);
    await publishEvent(db, { type: 'wallet.updated', userId: reward.referrerUserId, reason: 'deposit.chain' });
  }
}

/**
 * Taken by an incident's settlement before its first ledger movement, in the order every refund takes it (see
 * lockReferrersForWriteOffs): a refund of the referrer's running together waits, or is waited for, so the write-off
 * sees the refunded balance or the refund sees the write-off (decision 045, round 22, c).
 */
export async function lockReferrersBeforeTakingBack(db: Executor, depositId: string): Promise<void> {
  await referralRepository.lockReferrersForWriteOffs(db, await referralRepository.findReferrersOfDeposit(db, depositId));
}

/**
 * For a transaction that refunds several customers: the lock per referrer that every write-off and refund takes first
 * (lockReferrersForWriteOffs), taken for all of them in one order before the transaction touches the ledger.
 */
export async function lockWriteOffsBeforeRefunds(db: Executor, userIds: readonly string[]): Promise<void> {
  await referralRepository.lockReferrersForWriteOffs(db, userIds);
}

/**
 * Money that comes back to a referrer from a transfer they sent before one of their rewards was taken
 * back (a rejected transfer's refund) is money the write-off counted as spent: it was held in
 * `transfers_pending` then, not lost. So the refund first pays the written-off part back to the
 * referral rewards account, oldest reversal first, and each such reversal's written-off amount
 * becomes taken back. The movements run after the refund's own, in the same ledger posting; the
 * referrer is told.
 */
export async function recoverWrittenOffRewards(db: Executor, refund: { userId: string; amountUsdtMicros: bigint; heldAt: Date }): Promise<LedgerMovement[]> {
  // Before the write-offs are read: an incident's settlement for this referrer, running together, commits first or after.
  await referralRepository.lockReferrersForWriteOffs(db, [refund.userId]);
  const reversals = await referralRepository.lockWrittenOffReversalsSince(db, refund.userId, refund.heldAt);
  const movements: LedgerMovement[] = [];
  let left = refund.amountUsdtMicros;
  for (const reversal of reversals) {
    if (left === 0n) break;
    const recovered = reversal.writtenOffUsdtMicros < left ? reversal.writtenOffUsdtMicros : left;
    left -= recovered;
    await referralRepository.moveWrittenOffToTakenBack(db, reversal.rewardId, recovered);
    movements.push({
      from: wallet(refund.userId),
      to: house('referral_rewards'),
      amountUsdtMicros: recovered,
      reason: 'referral_reward_reversal',
      referenceId: reversal.rewardId,
    });
  }
  if (movements.length > 0) {
    await createNotifications(
      db,
      reversals.flatMap((reversal, index) => {
        const movement = movements[index];
        return movement
          ? [
              referralRewardTakenBack({
                userId: refund.userId,
                rewardId: reversal.rewardId,
                rewardUsdtMicros: reversal.rewardUsdtMicros,
                takenBackUsdtMicros: movement.amountUsdtMicros,
              }),
            ]
          : [];
      }),
    );
  }
  return movements;
}
