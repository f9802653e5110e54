import type { z } from 'zod';
import {
  DEPOSIT_MESSAGES,
  MAX_PENDING_DEPOSITS_PER_USER,
  chainRefutationOf,
  minimumDepositMessage,
  singleAdminRefutedMessage,
  UNCLAIMED_MESSAGES,
  UNCLAIMED_TRANSFERS_LIST_LIMIT,
  type AdminDeposit,
  type assignUnclaimedTransferRequestSchema,
  type UnclaimedTransfer,
  type Deposit,
  type DepositChain,
  type depositRequestSchema,
} from '#shared/contracts/deposits';
import { basisPointsOf, formatUsdtShort, inrPaiseForUsdt, inrPaiseToWire, ratePaiseToWire, usdtMicrosToWire } from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { decideInTransaction, type ApprovalGate, type RequestKind, type Settlement } from '../../platform/decisions/decide.ts';
import type { AppEvent } from '../../platform/events/publish.ts';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { FirstApprovalResponse } from '#shared/contracts/pending-changes';
import type { ChainObservation, TransferLog } from '../chain/observation.ts';
import { recordAudit, recordAudits } from '../../platform/audit/record.ts';
import {
  confirmOpenChange,
  discardOpenChange,
  findOpenChange,
  needsSecondAdmin,
  requestChange,
  type Actor,
  type ChangeHandler,
} from '../pending-changes/service.ts';
import type { DepositOverridePayload } from '../pending-changes/kinds.ts';
import { depositDecided } from '../notifications/templates.ts';
import { publishEvent, publishEvents } from '../../platform/events/publish.ts';
import { findEarlierAnswer, hashRequest, runOnce, type Answer, type IdempotencyScope } from '../../platform/idempotency/service.ts';
import { validatedUsdtMicros } from '../../platform/ledger/amounts.ts';
import { house, moveMoney, wallet, type LedgerMovement } from '../../platform/ledger/ledger.ts';
import { createNotifications } from '../../platform/notifications/service.ts';
import { getSettings } from '../settings/service.ts';
import { decodeCursor, toPageBy } from '../../platform/pagination/cursor.ts';
import { enqueueDepositCheck, insertDetectedDeposit, lockChainTransaction } from '../chain/service.ts';
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
    source: row.source,
    chain: chainView(row),
  };
}

export function chainView(row: DepositRow): DepositChain {
  return {
    state: row.chainState,
    problem: row.chainProblem,
    delayed: row.chainDelayed,
    amountUsdt: row.chainAmountUsdtMicros === null ? null : usdtMicrosToWire(row.chainAmountUsdtMicros),
    fromAddress: row.chainFromAddress,
    toAddress: row.chainToAddress,
    confirmations: row.chainConfirmations,
    requiredConfirmations: row.chainRequiredConfirmations,
    blockNumber: row.chainBlockNumber === null ? null : row.chainBlockNumber.toString(),
    logIndex: row.chainLogIndex,
    checkedAt: row.chainCheckedAt?.toISOString() ?? null,
    senderProven: row.chainSenderProven,
    transfersToAddress: row.chainTransfersToAddress,
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
    if (depositAddress.trim() === '')
      throw new AppError(409, 'CONFLICT', DEPOSIT_MESSAGES.networkUnavailable, { fields: { network: DEPOSIT_MESSAGES.networkUnavailable } });
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
 * What a claim's choice among a transaction's transfers depends on besides the chain
 * (decision 037): whose claim it is, what was typed, and which customers proved the senders.
 * The chain worker asks for it while it holds the transaction's lock.
 */
export async function claimContext(
  db: Executor,
  deposit: Pick<DepositRow, 'userId' | 'network' | 'typedAmountUsdtMicros' | 'source'>,
  observation: ChainObservation,
): Promise<{ claimantUserId: string; typedAmountUsdtMicros: bigint | null; senderOwners: ReadonlyMap<string, string> }> {
  const senders = observation.kind === 'included' ? [...new Set(observation.transfers.map((transfer) => transfer.from))] : [];
  return {
    claimantUserId: deposit.userId,
    typedAmountUsdtMicros: deposit.source === 'customer' ? deposit.typedAmountUsdtMicros : null,
    senderOwners: await depositRepository.walletOwners(db, deposit.network, senders.slice(0, MAX_SENDERS_LOOKED_UP)),
  };
}

/** A transaction's senders looked up at once; a transaction with more distinct senders than this is left to an admin. */
const MAX_SENDERS_LOOKED_UP = 1000;

function creditedAmountOf(row: DepositRow): bigint {
  return row.chainAmountUsdtMicros ?? row.amountUsdtMicros;
}

/**
 * Two-person control of a deposit the chain refutes (decision 037): with one admin, refused; with two,
 * the first approval (with a written reason) waits as a pending change, and a different admin's
 * approve or confirm credits it. Any other deposit is approved at once, as before.
 */
async function gateRefutedApproval(
  db: Executor,
  row: DepositRow,
  actor: Actor,
  details: DepositDecisionDetails,
): Promise<ApprovalGate<DepositDecisionDetails, FirstApprovalResponse>> {
  // Locked, so that the chain's verification and a second admin's approval wait for this one.
  const locked = await depositRepository.findByIdForUpdate(db, row.id);
  if (!locked || locked.status !== 'pending') return { kind: 'proceed' };
  const open = await findOpenChange(db, 'deposit_override', row.id);
  if (open?.requestedByUserId === actor.userId) throw AppError.conflict(DEPOSIT_MESSAGES.ownOverrideAgain, 'CHANGE_ALREADY_WAITING');
  const refutation = chainRefutationOf({ state: locked.chainState, problem: locked.chainProblem });
  if (refutation === null) return { kind: 'proceed' };
  if (!(await needsSecondAdmin(db))) throw AppError.conflict(singleAdminRefutedMessage(refutation), 'CHAIN_REFUTES');
  if (open) {
    await confirmOpenChange(db, depositOverrideHandler, open, actor);
    return { kind: 'proceed' };
  }
  if (details.reason === undefined) throw AppError.fieldError('reason', DEPOSIT_MESSAGES.overrideReasonRequired);
  const payload: DepositOverridePayload = {
    depositId: locked.id,
    customerUserId: locked.userId,
    network: locked.network,
    refutation,
    amountUsdtMicros: creditedAmountOf(locked).toString(),
    reason: details.reason,
  };
  const pendingChange = await requestChange(db, 'deposit_override', payload, actor);
  return { kind: 'defer', statusCode: 202, body: { message: DEPOSIT_MESSAGES.overrideRequested, pendingChange } };
}

/** A second admin's confirm (POST /api/admin/pending-changes/:id/confirm) of a refuted deposit's first approval. */
export const depositOverrideHandler: ChangeHandler<'deposit_override'> = {
  kind: 'deposit_override',
  lockSubject: async (transaction, depositId) => {
    await depositRepository.findByIdForUpdate(transaction, depositId);
  },
  apply: async (transaction, change, decider) => {
    const { payload } = change;
    const deposit = await depositRepository.findByIdForUpdate(transaction, payload.depositId);
    if (!deposit || deposit.status !== 'pending') throw AppError.conflict(DEPOSIT_MESSAGES.staleOverride, 'STALE_CHANGE');
    await decideInTransaction(transaction, depositDecisions, {
      id: deposit.id,
      outcome: 'approved',
      decider: { kind: 'admin', userId: decider.userId, ipAddress: decider.ipAddress },
      details: {},
    });
  },
};

/**
 * A rejected claim releases its transfer (decision 037): the unique keys skip rejected rows, and a
 * transfer it was bound to whose sender a customer proved becomes that customer's detected deposit,
 * verified on chain like any other before it is credited.
 */
async function releaseTransfer(db: Executor, deposit: DepositRow): Promise<AppEvent[]> {
  if (deposit.chainLogIndex === null || deposit.chainFromAddress === null) return [];
  const owner = (await depositRepository.walletOwners(db, deposit.network, [deposit.chainFromAddress])).get(deposit.chainFromAddress);
  if (owner === undefined || owner === deposit.userId || deposit.chainAmountUsdtMicros === null) return [];
  // Without the transaction's lock, which the worker takes before this row's: the unique key on logs keeps a log to one deposit.
  const detectedId = await insertDetectedDeposit(db, {
    userId: owner,
    network: deposit.network,
    amountUsdtMicros: deposit.chainAmountUsdtMicros,
    transactionHash: deposit.transactionHash,
    depositAddress: deposit.depositAddress,
    logIndex: deposit.chainLogIndex,
  });
  if (detectedId === undefined) return [];
  await enqueueDepositCheck(db, detectedId, deposit.network);
  return [{ type: 'wallet.updated', userId: owner, reason: 'deposit.detected' }];
}

/**
 * Deposits as a request kind of the decision flow. Approving credits the
 * wallet from deposits received and pays the referral rewards from the rewards
 * account; rejecting moves nothing, since no money had moved.
 */
export const depositDecisions: RequestKind<DepositRow, DepositDecisionDetails, { deposit: AdminDeposit; message: string }, FirstApprovalResponse> = {
  noun: 'deposit',
  messages: { notFound: DEPOSIT_MESSAGES.notFound, ownRequest: DEPOSIT_MESSAGES.ownRequest },
  findById: depositRepository.findById,
  partiesOf: (deposit) => [deposit.userId],
  gateApproval: (db, row, request) =>
    request.decider.kind === 'admin'
      ? gateRefutedApproval(db, row, { userId: request.decider.userId, ipAddress: request.decider.ipAddress }, request.details)
      : Promise.resolve({ kind: 'proceed' }),
  markDecided: (db, id, decision) =>
    depositRepository.decidePending(db, id, {
      status: decision.outcome,
      decidedByUserId: decision.decidedByUserId,
      rejectionReason: decision.outcome === 'rejected' ? decision.details.reason : undefined,
    }),
  async settle(db, deposit, outcome) {
    // Decided by any path (a reject, a second approval, the chain): no first approval stays open.
    await discardOpenChange(db, depositOverrideHandler, deposit.id, deposit.decidedByUserId ? { userId: deposit.decidedByUserId } : null);
    if (outcome === 'rejected') {
      const released = await releaseTransfer(db, deposit);
      return {
        movements: [],
        targetUserId: deposit.userId,
        auditAfter: { status: 'rejected', reason: deposit.rejectionReason },
        events: [{ type: 'wallet.updated', userId: deposit.userId, reason: 'deposit.rejected' }, ...released],
        notifications: [depositDecided({ ...deposit, outcome })],
      };
    }
    const referrers = (await depositRepository.findReferrersOf(db, [deposit.userId])).get(deposit.userId);
    const { rewards, ...settlement } = approvalSettlement(deposit, referrers);
    await depositRepository.insertReferralRewards(db, rewards);
    return settlement;
  },
  answer: async (db, deposit, outcome) => ({
    deposit: await adminView(db, deposit.id),
    message: outcome === 'approved' ? DEPOSIT_MESSAGES.approved : DEPOSIT_MESSAGES.rejected,
  }),
};

/** What a deposit's settlement reads of it. */
type SettledDeposit = Pick<DepositRow, 'id' | 'userId' | 'amountUsdtMicros' | 'network' | 'transactionHash' | 'rejectionReason'>;

/** What approving a deposit does: the credit, the referral rewards (rows and movements), the audit's after, the events and the customer's notice. */
function approvalSettlement(
  deposit: SettledDeposit,
  referrers: { level1: string | undefined; level2: string | undefined } | undefined,
): Settlement & { rewards: { referrerUserId: string; referredUserId: string; depositId: string; level: 1 | 2; rewardUsdtMicros: bigint }[] } {
  const movements: LedgerMovement[] = [
    {
      from: house('deposits_received'),
      to: wallet(deposit.userId),
      amountUsdtMicros: deposit.amountUsdtMicros,
      reason: 'deposit_credit',
      referenceId: deposit.id,
    },
  ];
  const paidRewards = referralRewardsOf(deposit, referrers ?? { level1: undefined, level2: undefined });
  for (const reward of paidRewards) {
    movements.push({
      from: house('referral_rewards'),
      to: wallet(reward.referrerUserId),
      amountUsdtMicros: reward.rewardUsdtMicros,
      reason: 'referral_reward',
      referenceId: deposit.id,
    });
  }
  return {
    movements,
    rewards: paidRewards.map((reward) => ({ ...reward, referredUserId: deposit.userId, depositId: deposit.id })),
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
    notifications: [depositDecided({ ...deposit, outcome: 'approved' })],
  };
}

/** A followed transfer a new deposit now stands for: credited (approved) or below the minimum (pending, for an admin). */
export interface RecordedFollowedDeposit {
  id: string;
  userId: string;
  status: 'approved' | 'pending';
  transactionHash: string;
  logIndex: number;
}

/**
 * The system's approval of a group of final transfers to customers' own addresses (a group of ranges
 * the chain follower read), inside the caller's transaction, which holds the transactions' locks:
 * each becomes a deposit once per credit key, approved at once when it reaches the minimum and
 * pending as below the minimum otherwise, and the approved ones are settled as the decision flow
 * settles an approval (approvalSettlement: the credit, the referral rewards, the audit row
 * `deposit.approve` with no actor, the events and the customer's notice). Nothing else decides these
 * deposits, so none has an open first approval to discard. Each step is one set-based statement of
 * the module that owns its tables, the ledger's included (decision 045, round 22): five for a group
 * without referrers, however many transfers it holds.
 */
export async function creditFollowedTransfers(
  db: Executor,
  network: DepositNetwork,
  transfers: readonly depositRepository.FollowedDepositValues[],
  minimumUsdtMicros: bigint,
): Promise<RecordedFollowedDeposit[]> {
  const inserted = await depositRepository.insertFollowedDeposits(db, network, transfers, minimumUsdtMicros);
  if (inserted.length === 0) return [];
  const approved = inserted.filter((deposit) => deposit.status === 'approved');
  const belowMinimum = inserted.filter((deposit) => deposit.status !== 'approved');
  const settlements = approved.map((deposit) => approvalSettlement(deposit, { level1: deposit.level1 ?? undefined, level2: deposit.level2 ?? undefined }));
  await depositRepository.insertReferralRewards(
    db,
    settlements.flatMap((settlement) => settlement.rewards),
  );
  await moveMoney(
    db,
    settlements.flatMap((settlement) => settlement.movements),
  );
  await recordAudits(
    db,
    approved.map((deposit, index) => ({
      actorUserId: null,
      action: 'deposit.approve' as const,
      targetType: 'deposit',
      targetId: deposit.id,
      targetUserId: deposit.userId,
      before: { status: 'pending' },
      after: settlements[index]?.auditAfter,
    })),
  );
  await createNotifications(
    db,
    settlements.flatMap((settlement) => settlement.notifications ?? []),
  );
  // What the follower published for a deposit below the minimum, then what decideInTransaction publishes for an approval.
  await publishEvents(db, [
    ...belowMinimum.map((deposit) => ({ type: 'wallet.updated' as const, userId: deposit.userId, reason: 'deposit.detected' })),
    ...(belowMinimum.length > 0 ? [{ type: 'admin.queue.updated' as const }] : []),
    ...settlements.flatMap((settlement) => settlement.events),
    ...(approved.length > 0 ? [{ type: 'admin.queue.updated' as const }] : []),
  ]);
  return inserted.map(({ id, userId, status, transactionHash, logIndex }) => ({ id, userId, status, transactionHash, logIndex }));
}

/** The rewards a deposit pays: to the depositor's referrer and that referrer's referrer, never to the depositor, and none of zero. */
function referralRewardsOf(
  deposit: SettledDeposit,
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

function toUnclaimedView(row: depositRepository.UnclaimedTransferRow): UnclaimedTransfer {
  return {
    id: row.id,
    network: row.network,
    transactionHash: row.transactionHash,
    logIndex: row.logIndex,
    fromAddress: row.fromAddress,
    toAddress: row.toAddress,
    amount: usdtMicrosToWire(row.amountUsdtMicros),
    blockNumber: row.blockNumber.toString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Records, in the chain worker's transaction (which holds the chain transaction's lock), the final
 * transfers to the shared deposit address that no customer can be credited for automatically: a
 * sender nobody proved and no claim of the transaction (decision 037). Admins see them listed, so
 * support can match one to a customer's message. Called by the scan for what it did not record as
 * detected deposits.
 */
export async function recordUnclaimedTransfers(
  db: Executor,
  network: DepositNetwork,
  transactionHash: string,
  blockNumber: bigint,
  transfers: TransferLog[],
): Promise<void> {
  if (transfers.length === 0 || (await depositRepository.transactionClaimed(db, network, transactionHash))) return;
  const owners = await depositRepository.walletOwners(db, network, [...new Set(transfers.map((transfer) => transfer.from))]);
  let recorded = false;
  for (const transfer of transfers) {
    if (owners.has(transfer.from)) continue;
    const inserted = await depositRepository.insertUnclaimedTransfer(db, {
      network,
      transactionHash,
      logIndex: transfer.logIndex,
      fromAddress: transfer.from,
      toAddress: transfer.to,
      amountUsdtMicros: transfer.amountUsdtMicros,
      blockNumber,
    });
    recorded ||= inserted;
  }
  if (recorded) await publishEvent(db, { type: 'admin.queue.updated' });
}

export async function listUnclaimedTransfers(db: Database): Promise<UnclaimedTransfer[]> {
  return (await depositRepository.listOpenUnclaimed(db, UNCLAIMED_TRANSFERS_LIST_LIMIT)).map(toUnclaimedView);
}

/**
 * An admin gives an unclaimed transfer to the customer it belongs to: it becomes that customer's
 * deposit, bound to the transfer's log and checked on chain again, and waits in the deposit queue.
 * Approving it follows the rules of every approval (never the admin's own; a refuted one needs two admins).
 */
export async function assignUnclaimedTransfer(
  db: Database,
  actor: Actor,
  id: string,
  input: z.output<typeof assignUnclaimedTransferRequestSchema>,
): Promise<{ deposit: AdminDeposit; message: string }> {
  return db.transaction(async (transaction) => {
    const unclaimed = await depositRepository.findUnclaimedForUpdate(transaction, id);
    if (!unclaimed) throw AppError.notFound(UNCLAIMED_MESSAGES.notFound);
    await lockChainTransaction(transaction, unclaimed.network, unclaimed.transactionHash);
    if (unclaimed.status !== 'open' || (await depositRepository.transactionClaimed(transaction, unclaimed.network, unclaimed.transactionHash))) {
      throw AppError.conflict(UNCLAIMED_MESSAGES.alreadyResolved);
    }
    const userId = await depositRepository.findUserIdByEmail(transaction, input.email);
    if (userId === undefined) throw AppError.fieldError('email', UNCLAIMED_MESSAGES.customerNotFound);
    const settings = await getSettings(transaction);
    const depositId = await insertDetectedDeposit(transaction, {
      userId,
      network: unclaimed.network,
      amountUsdtMicros: unclaimed.amountUsdtMicros,
      transactionHash: unclaimed.transactionHash,
      depositAddress: unclaimed.network === 'TRC20' ? settings.trc20Address : settings.erc20Address,
      logIndex: unclaimed.logIndex,
    });
    if (depositId === undefined) throw AppError.conflict(UNCLAIMED_MESSAGES.alreadyResolved);
    await depositRepository.markUnclaimedAssigned(transaction, unclaimed.id, depositId);
    await enqueueDepositCheck(transaction, depositId, unclaimed.network);
    await recordAudit(transaction, {
      actorUserId: actor.userId,
      action: 'deposit.assign',
      targetType: 'deposit',
      targetId: depositId,
      targetUserId: userId,
      before: { unclaimedTransferId: unclaimed.id, status: 'open' },
      after: {
        status: 'assigned',
        reason: input.reason,
        amountUsdtMicros: unclaimed.amountUsdtMicros,
        transactionHash: unclaimed.transactionHash,
        logIndex: unclaimed.logIndex,
      },
      ipAddress: actor.ipAddress,
    });
    await publishEvent(transaction, { type: 'wallet.updated', userId, reason: 'deposit.detected' });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
    return { deposit: await adminView(transaction, depositId), message: UNCLAIMED_MESSAGES.assigned };
  });
}
