import type { z } from 'zod';
import {
  DEPOSIT_MESSAGES,
  MAX_PENDING_DEPOSITS_PER_USER,
  minimumDepositMessage,
  type AdminDeposit,
  type Deposit,
  type DepositChain,
  type depositRequestSchema,
} from '#shared/contracts/deposits';
import {
  basisPointsOf,
  formatUsdtShort,
  inrPaiseForUsdt,
  inrPaiseToWire,
  ratePaiseToWire,
  usdtMicrosToWire,
} from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { RequestKind } from '../../platform/decisions/decide.ts';
import { depositDecided } from '../notifications/templates.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { findEarlierAnswer, hashRequest, runOnce, type Answer, type IdempotencyScope } from '../../platform/idempotency/service.ts';
import { validatedUsdtMicros } from '../../platform/ledger/amounts.ts';
import { house, wallet, type LedgerMovement } from '../../platform/ledger/ledger.ts';
import { getSettings } from '../settings/service.ts';
import { decodeCursor, toPageBy } from '../../platform/pagination/cursor.ts';
import { enqueueDepositCheck, lockChainTransaction } from '../chain/service.ts';
import * as depositRepository from './repository.ts';
import type { DepositRow, DepositWithUserRow } from './repository.ts';

/** The wallet summary shows what is pending. */

/** Referral rewards in basis points of the deposit: 0.1 % to the referrer, 0.02 % to the referrer's referrer. */
export const REFERRAL_LEVEL_1_BASIS_POINTS = 10n;
export const REFERRAL_LEVEL_2_BASIS_POINTS = 2n;

function toDepositView(row: DepositRow, rateNormalInrPaise: bigint): Deposit {
  return {
    id: row.id,
    network: row.network,
    amount: usdtMicrosToWire(row.amountUsdtMicros),
    transactionHash: row.transactionHash,
    depositAddress: row.depositAddress,
    status: row.status,
    estimatedInr: inrPaiseToWire(inrPaiseForUsdt(row.amountUsdtMicros, rateNormalInrPaise)),
    rateInr: ratePaiseToWire(rateNormalInrPaise),
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    rejectionReason: row.rejectionReason,
    typedAmount: row.typedAmountUsdtMicros === null || row.typedAmountUsdtMicros === row.amountUsdtMicros ? null : usdtMicrosToWire(row.typedAmountUsdtMicros),
    source: row.source as Deposit['source'],
    chain: chainView(row),
  };
}

export function chainView(row: DepositRow): DepositChain {
  return {
    state: row.chainState as DepositChain['state'],
    problem: row.chainProblem as DepositChain['problem'],
    delayed: row.chainDelayed,
    amountUsdt: row.chainAmountUsdtMicros === null ? null : usdtMicrosToWire(row.chainAmountUsdtMicros),
    fromAddress: row.chainFromAddress,
    toAddress: row.chainToAddress,
    confirmations: row.chainConfirmations,
    requiredConfirmations: row.chainRequiredConfirmations,
    blockNumber: row.chainBlockNumber === null ? null : row.chainBlockNumber.toString(),
    logIndex: row.chainLogIndex,
    checkedAt: row.chainCheckedAt?.toISOString() ?? null,
  };
}

function toAdminDepositView(row: DepositWithUserRow, rateNormalInrPaise: bigint): AdminDeposit {
  return Object.assign(toDepositView(row.deposit, rateNormalInrPaise), { user: row.user });
}

export type DepositSubmission = z.output<typeof depositRequestSchema>;

/**
 * Records a customer's deposit as pending. It moves no money: the wallet is
 * credited only when an admin approves it.
 */
export async function submitDeposit(
  db: Database,
  userId: string,
  input: DepositSubmission,
  idempotencyKey?: string,
): Promise<Answer<{ deposit: Deposit; message: string }>> {
  const amountUsdtMicros = validatedUsdtMicros(input.amount);
  const scope: IdempotencyScope | undefined = idempotencyKey
    ? {
        userId,
        key: idempotencyKey,
        operation: 'deposit.submit',
        requestHash: hashRequest({ network: input.network, amountUsdtMicros: amountUsdtMicros.toString(), transactionHash: input.transactionHash }),
      }
    : undefined;
  const earlier = await findEarlierAnswer<{ deposit: Deposit; message: string }>(db, scope);
  if (earlier) return earlier;

  return runOnce(db, scope, async (transaction) => {
    const settings = await getSettings(transaction);
    if (amountUsdtMicros < settings.minDepositUsdtMicros) {
      throw AppError.fieldError('amount', minimumDepositMessage(formatUsdtShort(settings.minDepositUsdtMicros)));
    }
    const depositAddress = input.network === 'TRC20' ? settings.trc20Address : settings.erc20Address;
    if (depositAddress.trim() === '') throw new AppError(409, 'CONFLICT', DEPOSIT_MESSAGES.networkUnavailable, { fields: { network: DEPOSIT_MESSAGES.networkUnavailable } });
    await depositRepository.lockCustomer(transaction, userId);
    if ((await depositRepository.countPendingForUser(transaction, userId)) >= MAX_PENDING_DEPOSITS_PER_USER) {
      throw AppError.conflict(DEPOSIT_MESSAGES.tooManyPending);
    }
    await lockChainTransaction(transaction, input.network, input.transactionHash);
    const row = await depositRepository.insertUnlessHashKnown(transaction, {
      userId,
      network: input.network,
      amountUsdtMicros,
      typedAmountUsdtMicros: amountUsdtMicros,
      transactionHash: input.transactionHash,
      depositAddress,
    });
    if (!row) throw new AppError(409, 'CONFLICT', DEPOSIT_MESSAGES.duplicateHash, { fields: { transactionHash: DEPOSIT_MESSAGES.duplicateHash } });
    // Checked on chain by the worker of any process that reads this network; with none configured it stays unchecked.
    await enqueueDepositCheck(transaction, row.id, input.network);
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'deposit.submitted' });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
    return { statusCode: 201, body: { deposit: toDepositView(row, settings.rateNormalInrPaise), message: DEPOSIT_MESSAGES.submitted } };
  });
}

/** The customer's own deposit; another customer's is not found. */
export async function getOwnDeposit(db: Database, userId: string, depositId: string): Promise<Deposit> {
  const row = await depositRepository.findOwned(db, userId, depositId);
  if (!row) throw AppError.notFound(DEPOSIT_MESSAGES.notFound);
  const settings = await getSettings(db);
  return toDepositView(row, settings.rateNormalInrPaise);
}

type DepositDecisionDetails = { reason?: string | undefined };

/**
 * Deposits as a request kind of the decision flow. Approving credits the
 * wallet from deposits received and pays the referral rewards from the rewards
 * account; rejecting moves nothing, since no money had moved.
 */
export const depositDecisions: RequestKind<DepositRow, DepositDecisionDetails, { deposit: AdminDeposit; message: string }> = {
  noun: 'deposit',
  messages: { notFound: DEPOSIT_MESSAGES.notFound, ownRequest: DEPOSIT_MESSAGES.ownRequest },
  findById: depositRepository.findById,
  partiesOf: (deposit) => [deposit.userId],
  markDecided: (db, id, decision) =>
    depositRepository.decidePending(db, id, {
      status: decision.outcome,
      decidedByUserId: decision.decidedByUserId,
      rejectionReason: decision.outcome === 'rejected' ? decision.details.reason : undefined,
    }),
  async settle(db, deposit, outcome) {
    if (outcome === 'rejected') {
      return {
        movements: [],
        targetUserId: deposit.userId,
        auditAfter: { status: 'rejected', reason: deposit.rejectionReason },
        events: [{ type: 'wallet.updated', userId: deposit.userId, reason: 'deposit.rejected' }],
        notifications: [depositDecided({ ...deposit, outcome })],
      };
    }
    const movements: LedgerMovement[] = [
      { from: house('deposits_received'), to: wallet(deposit.userId), amountUsdtMicros: deposit.amountUsdtMicros, reason: 'deposit_credit', referenceId: deposit.id },
    ];
    const paidRewards = referralRewardsOf(deposit, await depositRepository.findReferrers(db, deposit.userId));
    for (const reward of paidRewards) {
      movements.push({ from: house('referral_rewards'), to: wallet(reward.referrerUserId), amountUsdtMicros: reward.rewardUsdtMicros, reason: 'referral_reward', referenceId: deposit.id });
      await depositRepository.insertReferralReward(db, { ...reward, referredUserId: deposit.userId, depositId: deposit.id });
    }
    return {
      movements,
      targetUserId: deposit.userId,
      auditAfter: {
        status: 'approved',
        amountUsdtMicros: deposit.amountUsdtMicros,
        referralRewards: paidRewards.map((reward) => ({ userId: reward.referrerUserId, level: reward.level, rewardUsdtMicros: reward.rewardUsdtMicros })),
      },
      events: [
        { type: 'wallet.updated', userId: deposit.userId, reason: 'deposit.approved' },
        ...paidRewards.map((reward) => ({ type: 'wallet.updated' as const, userId: reward.referrerUserId, reason: 'referral.reward' })),
      ],
      notifications: [depositDecided({ ...deposit, outcome })],
    };
  },
  answer: async (db, deposit, outcome) => ({
    deposit: await adminView(db, deposit.id),
    message: outcome === 'approved' ? DEPOSIT_MESSAGES.approved : DEPOSIT_MESSAGES.rejected,
  }),
};

/** The rewards a deposit pays: to the depositor's referrer and that referrer's referrer, never to the depositor, and none of zero. */
function referralRewardsOf(
  deposit: DepositRow,
  referrers: { level1: string | undefined; level2: string | undefined },
): { referrerUserId: string; level: 1 | 2; rewardUsdtMicros: bigint }[] {
  const rewards: { referrerUserId: string; level: 1 | 2; rewardUsdtMicros: bigint }[] = [];
  if (referrers.level1 && referrers.level1 !== deposit.userId) {
    rewards.push({ referrerUserId: referrers.level1, level: 1, rewardUsdtMicros: basisPointsOf(deposit.amountUsdtMicros, REFERRAL_LEVEL_1_BASIS_POINTS) });
    if (referrers.level2 && referrers.level2 !== deposit.userId && referrers.level2 !== referrers.level1) {
      rewards.push({ referrerUserId: referrers.level2, level: 2, rewardUsdtMicros: basisPointsOf(deposit.amountUsdtMicros, REFERRAL_LEVEL_2_BASIS_POINTS) });
    }
  }
  return rewards.filter((reward) => reward.rewardUsdtMicros > 0n);
}

async function adminView(db: Executor, depositId: string): Promise<AdminDeposit> {
  const row = await depositRepository.findWithUser(db, depositId);
  if (!row) throw new Error(`deposit ${depositId} vanished inside its own transaction`);
  const settings = await getSettings(db);
  return toAdminDepositView(row, settings.rateNormalInrPaise);
}

export async function listDepositsForAdmin(
  db: Database,
  options: { status?: 'pending' | 'approved' | 'rejected' | undefined; cursor?: string | undefined; limit: number },
): Promise<{ items: AdminDeposit[]; nextCursor: string | null }> {
  const rows = await depositRepository.listWithUsers(db, { status: options.status, cursor: decodeCursor(options.cursor), limit: options.limit });
  const page = toPageBy(rows, options.limit, (row) => ({ createdAt: row.cursorCreatedAt, id: row.deposit.id }));
  return { items: page.rows.map((row) => toAdminDepositView(row, row.rateNormalInrPaise)), nextCursor: page.nextCursor };
}
