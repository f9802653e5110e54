import { lastFourDigits } from '#shared/contracts/bank-accounts';
import {
  PAYOUT_MESSAGES,
  RECONCILIATION_MAX_TRANSACTIONS,
  RETURNED_PROVIDER_PAYOUT_STATES,
  STUCK_PAYOUTS_MAX,
  type PayoutOverview,
  type AdminProviderPayout,
  type ProviderPayout,
  type ProviderPayoutState,
  type ReconciliationResponse,
  type PayoutProviderName,
} from '#shared/contracts/payouts';
import { paymentModeFor } from '#shared/contracts/payout-batches';
import type { AdminWithdrawal } from '#shared/contracts/withdrawals';
import { inrPaiseToWire } from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { decideInTransaction } from '../../platform/decisions/decide.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { house, moveMoney, wallet } from '../../platform/ledger/ledger.ts';
import { adminUserIds, createNotifications } from '../../platform/notifications/service.ts';
import { flagPayeeAfterFailedPayout } from '../bank-accounts/payee-flags.ts';
import { payoutHoldOf } from '../payout-batches/service.ts';
import { payoutStuckForAdmin, withdrawalReversed } from '../notifications/templates.ts';
import { recoverWrittenOffRewards } from '../referrals/service.ts';
import { findWithdrawalForUpdate, heldPayoutDecisions, withdrawalDecisions } from '../withdrawals/service.ts';
import { PayoutProviderError, type PayoutProvider, type ProviderPayoutFacts } from './provider.ts';
import { ourState, reconcileDayByStatus } from './reconciliation-by-status.ts';
import * as payoutRepository from './repository.ts';
import type { ProviderPayoutRow } from './repository.ts';

/** Most provider states kept on one withdrawal's timeline. */
const TIMELINE_MAX_EVENTS = 50;
/** A payout whose UTR another withdrawal already carries waits this long before it is looked at again. */
const UTR_CONFLICT_RETRY_SECONDS = 60 * 60;

/**
 * How far along a state is. A payout only moves forward: an event of a lower or equal rank that arrives late
 * (webhooks come in any order) changes nothing. `processed` can still become `reversed`; the returned states end it.
 */
const STATE_RANK: Record<ProviderPayoutState | 'unsent', number> = {
  unsent: 0,
  pending: 1,
  queued: 1,
  processing: 2,
  processed: 3,
  reversed: 4,
  cancelled: 4,
  rejected: 4,
  failed: 4,
};

export function isReturned(state: ProviderPayoutRow['state']): boolean {
  return (RETURNED_PROVIDER_PAYOUT_STATES as readonly string[]).includes(state);
}

/** The withdrawal's key with the provider: its id, which fits X-Payout-Idempotency (4 to 36 letters, digits and hyphens) and never changes. */
export function idempotencyKeyOf(withdrawalId: string): string {
  return withdrawalId;
}

/** Gives every withdrawal an admin handed to a provider its payout row on that provider (the amount paid is the net of TDS). */
export async function enqueueRoutedWithdrawals(db: Database, limit: number): Promise<number> {
  const routed = await payoutRepository.listRoutedWithoutPayout(db, limit);
  for (const withdrawal of routed) {
    const netInrPaise = withdrawal.amountInrPaise - withdrawal.tdsInrPaise;
    await payoutRepository.insertPayout(db, {
      withdrawalId: withdrawal.id,
      payoutRoute: withdrawal.payoutRoute,
      idempotencyKey: idempotencyKeyOf(withdrawal.id),
      amountInrPaise: netInrPaise,
      mode: paymentModeFor(netInrPaise, withdrawal.upiId),
    });
  }
  return routed.length;
}

export type ApplyOutcome = 'applied' | 'unchanged' | 'unknown_payout';

/**
 * Takes what the provider says of a payout (its answer to a send, a poll, or a webhook) in one transaction: the
 * payout moves forward only, each new state is kept on the timeline, and the withdrawal follows: `processed` with
 * a UTR pays it, a returned state refunds it, a reversal of a paid one returns its USDT.
 */
export async function applyProviderFacts(
  db: Database,
  facts: ProviderPayoutFacts,
  source: 'send' | 'webhook' | 'poll',
  withdrawalId?: string,
): Promise<ApplyOutcome> {
  return db.transaction(async (transaction) => applyProviderFactsIn(transaction, facts, source, withdrawalId));
}

async function lockPayoutOf(transaction: Executor, facts: ProviderPayoutFacts, withdrawalId: string | undefined): Promise<ProviderPayoutRow | undefined> {
  if (withdrawalId !== undefined) return payoutRepository.lockByWithdrawal(transaction, withdrawalId);
  return (
    (await payoutRepository.lockByProviderId(transaction, facts.providerPayoutId)) ??
    (facts.reference === null ? undefined : await payoutRepository.lockByReference(transaction, facts.reference))
  );
}

export async function applyProviderFactsIn(
  transaction: Executor,
  facts: ProviderPayoutFacts,
  source: 'send' | 'webhook' | 'poll',
  withdrawalId?: string,
  provider?: PayoutProviderName,
): Promise<ApplyOutcome> {
  // The payout first, then its withdrawal: the order every path here takes (admin decisions lock only the withdrawal).
  const payoutBefore = await lockPayoutOf(transaction, facts, withdrawalId);
  if (!payoutBefore) return 'unknown_payout';
  // A webhook speaks only for its own provider's payouts (decision 062).
  if (provider !== undefined && payoutBefore.payoutRoute !== provider) return 'unknown_payout';
  // A payout of another withdrawal's reference, or an answer that names another payout: not ours to apply.
  if (payoutBefore.providerPayoutId !== null && payoutBefore.providerPayoutId !== facts.providerPayoutId) return 'unknown_payout';
  const withdrawal = await findWithdrawalForUpdate(transaction, payoutBefore.withdrawalId);
  if (!withdrawal) throw new Error(`provider payout ${payoutBefore.withdrawalId} has no withdrawal`);

  const moves = STATE_RANK[facts.state] > STATE_RANK[payoutBefore.state];
  const utrArrives = facts.state === payoutBefore.state && payoutBefore.utr === null && facts.utr !== null;
  let payout = payoutBefore;
  if (moves || utrArrives || payoutBefore.providerPayoutId === null) {
    payout = await payoutRepository.updatePayoutState(transaction, payoutBefore.withdrawalId, {
      providerPayoutId: facts.providerPayoutId,
      state: moves ? facts.state : payoutBefore.state,
      utr: facts.utr ?? payoutBefore.utr,
      statusReason: moves ? facts.reason : payoutBefore.statusReason,
      statusDescription: moves ? facts.description : payoutBefore.statusDescription,
    });
    if (moves || utrArrives) {
      await payoutRepository.insertEvent(transaction, {
        withdrawalId: payout.withdrawalId,
        state: facts.state,
        utr: facts.utr,
        reason: facts.description ?? facts.reason,
        source,
      });
      await publishEvent(transaction, { type: 'wallet.updated', userId: withdrawal.userId, reason: 'withdrawal.payout' });
    }
  }
  const settled = await settleWithdrawal(transaction, payout, withdrawal);
  return moves || utrArrives || settled ? 'applied' : 'unchanged';
}

type LockedWithdrawal = NonNullable<Awaited<ReturnType<typeof findWithdrawalForUpdate>>>;

/** Makes the withdrawal follow its payout's state; true when it changed. */
async function settleWithdrawal(transaction: Executor, payout: ProviderPayoutRow, withdrawal: LockedWithdrawal): Promise<boolean> {
  const reasonWords = payout.statusDescription ?? payout.statusReason ?? payout.state;
  if (withdrawal.status === 'processing' && payout.state === 'processed' && payout.utr !== null) {
    const holder = await payoutRepository.withdrawalWithUtr(transaction, payout.utr, withdrawal.id);
    if (holder !== undefined) {
      // One UTR pays one withdrawal (decision 038): this one waits for an admin rather than being marked paid.
      await payoutRepository.recordProblem(
        transaction,
        payout.withdrawalId,
        `The provider's UTR ${payout.utr} is already recorded for withdrawal ${holder}.`,
        UTR_CONFLICT_RETRY_SECONDS,
      );
      return false;
    }
    await decideInTransaction(transaction, withdrawalDecisions, {
      id: withdrawal.id,
      outcome: 'approved',
      decider: { kind: 'system' },
      details: { payoutReference: payout.utr },
      from: 'processing',
    });
    await payoutRepository.markSettled(transaction, payout.withdrawalId);
    return true;
  }
  if (withdrawal.status === 'processing' && isReturned(payout.state)) {
    await decideInTransaction(transaction, withdrawalDecisions, {
      id: withdrawal.id,
      outcome: 'rejected',
      decider: { kind: 'system' },
      details: { reason: PAYOUT_MESSAGES.returnedReason(reasonWords).slice(0, 500) },
      from: 'processing',
    });
    // The decision kind flags the payee when the reason is about the account (decision 044).
    await payoutRepository.markSettled(transaction, payout.withdrawalId);
    return true;
  }
  if (withdrawal.status === 'approved' && payout.state === 'reversed' && withdrawal.reversedAt === null) {
    await reversePaidWithdrawal(transaction, withdrawal, reasonWords);
    await payoutRepository.markSettled(transaction, payout.withdrawalId);
    return true;
  }
  return false;
}

/**
 * A payout the bank returned after it was processed: the withdrawal stays paid in its history, marked reversed,
 * its USDT goes from withdrawals paid back to the wallet, the customer is told, and the payee account is flagged
 * when the bank's reason is about the account (decision 044).
 */
async function reversePaidWithdrawal(transaction: Executor, withdrawal: LockedWithdrawal, reasonWords: string): Promise<void> {
  const reversed = await payoutRepository.markReversed(transaction, withdrawal.id);
  if (!reversed) return;
  const reason = PAYOUT_MESSAGES.reversedReason(reasonWords).slice(0, 500);
  // Paid out, the money was not in the wallet either: what comes back first repays a reward's write-off (decision 045).
  const recovered = await recoverWrittenOffRewards(transaction, {
    userId: reversed.userId,
    amountUsdtMicros: reversed.amountUsdtMicros,
    heldAt: reversed.createdAt,
  });
  await moveMoney(transaction, [
    {
      from: house('withdrawals_paid'),
      to: wallet(reversed.userId),
      amountUsdtMicros: reversed.amountUsdtMicros,
      reason: 'withdrawal_reversal',
      referenceId: reversed.id,
    },
    ...recovered,
  ]);
  await recordAudit(transaction, {
    actorUserId: null,
    action: 'withdrawal.reverse',
    targetType: 'withdrawal',
    targetId: reversed.id,
    targetUserId: reversed.userId,
    before: { status: 'approved', payoutReference: reversed.payoutReference },
    after: { status: 'approved', reversed: true, refundedUsdtMicros: reversed.amountUsdtMicros, reason },
  });
  await flagPayeeAfterFailedPayout(transaction, reversed, reasonWords);
  await createNotifications(transaction, [
    withdrawalReversed({
      id: reversed.id,
      userId: reversed.userId,
      amountUsdtMicros: reversed.amountUsdtMicros,
      netInrPaise: reversed.amountInrPaise - reversed.tdsInrPaise,
      bankName: reversed.bankName,
      accountNumberLast4: lastFourDigits(reversed.accountNumber),
      reason,
      reference: reversed.reference,
    }),
  ]);
  await publishEvent(transaction, { type: 'wallet.updated', userId: reversed.userId, reason: 'withdrawal.reversed' });
  await publishEvent(transaction, { type: 'admin.queue.updated' });
}

/**
 * Right before a payout's first request to the provider, under the payout's and then the withdrawal's lock (the
 * order every path here takes): a customer frozen (decision 047) or held by an open chain incident (decisions 036,
 * 045) since the approval keeps a payout nothing was sent for unsent, in processing, with the reason for admins
 * (`last_error`), asked again after `retrySeconds` (decision 049). Otherwise `sent_at` is stamped and committed
 * before the request leaves: a payout that may be at the provider is never held, only sent again under its key.
 */
export async function prepareFirstSend(db: Database, withdrawalId: string, retrySeconds: number): Promise<'send' | 'held' | 'skip'> {
  return db.transaction(async (transaction) => {
    const payout = await payoutRepository.lockByWithdrawal(transaction, withdrawalId);
    if (!payout || payout.settledAt !== null || payout.providerPayoutId !== null) return 'skip';
    if (payout.sentAt !== null) return 'send';
    const withdrawal = await findWithdrawalForUpdate(transaction, withdrawalId);
    if (withdrawal?.status !== 'processing') return 'skip';
    const hold = await payoutHoldOf(transaction, withdrawalId);
    const reason = hold === 'frozen' ? PAYOUT_MESSAGES.heldFrozen : hold === 'incident' ? PAYOUT_MESSAGES.heldByIncident : null;
    if (reason !== null) {
      await payoutRepository.recordProblem(transaction, withdrawalId, reason, retrySeconds);
      if (payout.lastError !== reason) await publishEvent(transaction, { type: 'admin.queue.updated' });
      return 'held';
    }
    // A hold that ended clears its reason with the stamp: the payout leaves now.
    if (isHoldReason(payout.lastError)) await payoutRepository.clearProblem(transaction, withdrawalId);
    await payoutRepository.markFirstSendStarted(transaction, withdrawalId);
    return 'send';
  });
}

/**
 * An admin's reject of a payout held by a freeze or an open chain incident before its first send (decision 053), in
 * one transaction under the payout's and then the withdrawal's lock, the order prepareFirstSend takes: a payout whose
 * first request was started (`sent_at`) may be at the provider and is refused, so a reject and a send never both
 * happen. The withdrawal is rejected from processing (its USDT back to the wallet) and the payout settled, unsent.
 */
export async function rejectHeldPayout(
  db: Database,
  actor: { userId: string; ipAddress?: string | undefined },
  withdrawalId: string,
  reason: string,
): Promise<{ withdrawal: AdminWithdrawal; message: string }> {
  return db.transaction(async (transaction) => {
    const payout = await payoutRepository.lockByWithdrawal(transaction, withdrawalId);
    if (!payout) throw AppError.notFound(PAYOUT_MESSAGES.notFound);
    if (payout.sentAt !== null || payout.providerPayoutId !== null) throw AppError.conflict(PAYOUT_MESSAGES.rejectAfterSend, 'DECIDED_ELSEWHERE');
    const withdrawal = await findWithdrawalForUpdate(transaction, withdrawalId);
    // Settled, or decided by another path: the decision flow's conditional update gives its usual 409.
    if (payout.settledAt === null && withdrawal?.status === 'processing' && (await payoutHoldOf(transaction, withdrawalId)) === null) {
      throw AppError.conflict(PAYOUT_MESSAGES.rejectNotHeld, 'DECIDED_ELSEWHERE');
    }
    const answer = await decideInTransaction(transaction, heldPayoutDecisions, {
      id: withdrawalId,
      outcome: 'rejected',
      decider: { kind: 'admin', userId: actor.userId, ipAddress: actor.ipAddress },
      details: { reason },
      from: 'processing',
    });
    await payoutRepository.markSettled(transaction, withdrawalId);
    return answer;
  });
}

/**
 * The provider would not make the payout (it refused the request as it is): nothing was sent, so the withdrawal
 * is refunded with the provider's words, as a failed payout is.
 */
export async function refuseUnsentPayout(db: Database, withdrawalId: string, description: string): Promise<void> {
  await db.transaction(async (transaction) => {
    const payout = await payoutRepository.lockByWithdrawal(transaction, withdrawalId);
    if (!payout || payout.state !== 'unsent') return;
    const withdrawal = await findWithdrawalForUpdate(transaction, withdrawalId);
    if (!withdrawal) return;
    const failed = await payoutRepository.updatePayoutState(transaction, withdrawalId, {
      providerPayoutId: null,
      state: 'failed',
      utr: null,
      statusReason: 'refused',
      statusDescription: description,
    });
    await payoutRepository.insertEvent(transaction, { withdrawalId, state: 'failed', utr: null, reason: description, source: 'send' });
    await settleWithdrawal(transaction, failed, withdrawal);
  });
}

/** Whether a provider is configured, and its stuck payouts (decision 049). */
export async function payoutOverview(db: Database, config: { provider: PayoutProviderName; stuckMinutes: number } | undefined): Promise<PayoutOverview> {
  if (config === undefined) return { provider: null, stuckAfterMinutes: null, stuck: [] };
  const stuck = await payoutRepository.listStuck(db, config.stuckMinutes, STUCK_PAYOUTS_MAX);
  return {
    provider: config.provider,
    stuckAfterMinutes: config.stuckMinutes,
    stuck: stuck.map(({ payout, reference }) => ({
      withdrawalId: payout.withdrawalId,
      reference,
      state: payout.state,
      amountInr: inrPaiseToWire(payout.amountInrPaise),
      attempts: payout.attempts,
      lastError: payout.lastError,
      since: payout.createdAt.toISOString(),
    })),
  };
}

/** Most stuck payouts told to admins per tick; the rest are told at the next. */
const STUCK_ALERTS_PER_TICK = 20;

/** Tells every admin, once per payout, of payouts that became stuck (decision 049); safe in every process at once. */
export async function alertStuckPayouts(db: Database, stuckMinutes: number): Promise<number> {
  return db.transaction(async (transaction) => {
    const stuck = await payoutRepository.claimStuckNotAlerted(transaction, stuckMinutes, STUCK_ALERTS_PER_TICK);
    if (stuck.length === 0) return 0;
    const admins = await adminUserIds(transaction);
    await createNotifications(
      transaction,
      stuck.flatMap((payout) =>
        admins.map((userId) => payoutStuckForAdmin({ userId, reference: payout.reference, lastError: payout.lastError, stuckMinutes })),
      ),
    );
    await publishEvent(transaction, { type: 'admin.queue.updated' });
    return stuck.length;
  });
}

function toPayoutView(payout: ProviderPayoutRow, events: payoutRepository.ProviderPayoutEventRow[]): ProviderPayout {
  return {
    provider: payout.payoutRoute,
    state: payout.state,
    mode: payout.mode,
    amountInr: inrPaiseToWire(payout.amountInrPaise),
    utr: payout.utr,
    reason: payout.statusDescription ?? payout.statusReason,
    events: events.map((event) => ({ state: event.state, utr: event.utr, reason: event.reason, source: event.source, at: event.createdAt.toISOString() })),
  };
}

/** A withdrawal's payout through the provider, for its customer only. */
export async function getProviderPayout(db: Database, withdrawalId: string, userId: string): Promise<ProviderPayout> {
  if (!(await payoutRepository.isOwnWithdrawal(db, userId, withdrawalId))) throw AppError.notFound(PAYOUT_MESSAGES.notFound);
  const payout = await payoutRepository.findPayout(db, withdrawalId);
  if (!payout) throw AppError.notFound(PAYOUT_MESSAGES.notFound);
  return toPayoutView(payout, await payoutRepository.listEvents(db, withdrawalId, TIMELINE_MAX_EVENTS));
}

/** Whether a payout's last error is the reason prepareFirstSend recorded for a freeze or a chain incident (decision 049). */
function isHoldReason(lastError: string | null): boolean {
  return lastError === PAYOUT_MESSAGES.heldFrozen || lastError === PAYOUT_MESSAGES.heldByIncident;
}

/** Whether the worker keeps a payout back before its first send because of a freeze or a chain incident (decision 049). */
function isHeldBeforeSend(payout: ProviderPayoutRow): boolean {
  return payout.settledAt === null && payout.sentAt === null && payout.providerPayoutId === null && isHoldReason(payout.lastError);
}

/** A withdrawal's payout for admins: the customer's view with the attempts, the last error and when, and whether it is held. */
export async function getAdminProviderPayout(db: Database, withdrawalId: string): Promise<AdminProviderPayout> {
  const payout = await payoutRepository.findPayout(db, withdrawalId);
  if (!payout) throw AppError.notFound(PAYOUT_MESSAGES.notFound);
  return {
    ...toPayoutView(payout, await payoutRepository.listEvents(db, withdrawalId, TIMELINE_MAX_EVENTS)),
    attempts: payout.attempts,
    lastError: payout.lastError,
    lastErrorAt: payout.lastErrorAt?.toISOString() ?? null,
    heldBeforeSend: isHeldBeforeSend(payout),
  };
}

/**
 * A webhook from the provider: refused (400, nothing changes) unless its signature over the raw body is ours; a
 * redelivery of an event id already applied changes nothing; otherwise its payout's state is applied like a poll's.
 */
export async function receiveWebhook(
  db: Database,
  provider: PayoutProvider,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ outcome: ApplyOutcome | 'duplicate' | 'ignored' }> {
  if (!provider.verifyWebhook(rawBody, headers)) throw new AppError(400, 'VALIDATION_FAILED', PAYOUT_MESSAGES.badSignature);
  let event;
  try {
    event = provider.readWebhook(rawBody, headers);
  } catch (error) {
    if (error instanceof PayoutProviderError) throw new AppError(400, 'VALIDATION_FAILED', PAYOUT_MESSAGES.badEvent);
    throw error;
  }
  const facts = event.payout;
  return db.transaction(async (transaction) => {
    if (!(await payoutRepository.recordWebhookEvent(transaction, { provider: provider.name, eventId: event.eventId, event: event.event })))
      return { outcome: 'duplicate' as const };
    if (facts === undefined) return { outcome: 'ignored' as const };
    return { outcome: await applyProviderFactsIn(transaction, facts, 'webhook', undefined, provider.name) };
  });
}

/** The India day `YYYY-MM-DD` as the instants it starts and ends at (India is UTC+05:30 all year). */
function indiaDay(day: string): { from: Date; to: Date } {
  const from = new Date(`${day}T00:00:00+05:30`);
  if (Number.isNaN(from.getTime()) || from.toISOString().slice(0, 10) > day)
    throw AppError.validation(PAYOUT_MESSAGES.reconciliationDay, { day: PAYOUT_MESSAGES.reconciliationDay });
  return { from, to: new Date(from.getTime() + 24 * 60 * 60 * 1000) };
}

/**
 * The day's reconciliation (India time): every payout debit on the provider's transaction list against our
 * record of it, and every payout we sent that day against the list. A difference of amount, state or UTR, a
 * payout we do not know, and one of ours the provider does not list are each reported; nothing changes.
 */
export async function reconcileDay(
  db: Database,
  provider: PayoutProvider,
  day: string,
  options: { budgetMilliseconds?: number } = {},
): Promise<ReconciliationResponse> {
  const range = indiaDay(day);
  if (provider.listTransactions === undefined) return reconcileDayByStatus(db, provider, { day, range, budgetMilliseconds: options.budgetMilliseconds });
  const { transactions, truncated } = await provider.listTransactions(range, RECONCILIATION_MAX_TRANSACTIONS);
  const ours = new Map(
    (await payoutRepository.findByProviderIds(db, [...new Set(transactions.map((item) => item.providerPayoutId))])).map((row) => [
      row.payout.providerPayoutId,
      row,
    ]),
  );
  const differences: ReconciliationResponse['differences'] = [];
  const seen = new Set<string>();
  for (const transaction of transactions) {
    if (seen.has(transaction.providerPayoutId)) continue;
    seen.add(transaction.providerPayoutId);
    const row = ours.get(transaction.providerPayoutId);
    const provided = { amountInr: inrPaiseToWire(transaction.amountInrPaise), state: transaction.state, utr: transaction.utr };
    if (!row) {
      differences.push({
        providerPayoutId: transaction.providerPayoutId,
        withdrawalId: null,
        reference: null,
        problems: ['No withdrawal of ours has this payout.'],
        provider: provided,
        ours: null,
      });
      continue;
    }
    const state = ourState(row);
    const problems: string[] = [];
    if (row.payout.amountInrPaise !== transaction.amountInrPaise) problems.push('The amount differs.');
    if (state !== transaction.state) problems.push('The state differs.');
    if ((row.payout.utr ?? null) !== transaction.utr) problems.push('The UTR differs.');
    if (problems.length > 0) {
      differences.push({
        providerPayoutId: transaction.providerPayoutId,
        withdrawalId: row.payout.withdrawalId,
        reference: row.reference,
        problems,
        provider: provided,
        ours: { amountInr: inrPaiseToWire(row.payout.amountInrPaise), state, utr: row.payout.utr },
      });
    }
  }
  const sent = truncated ? [] : await payoutRepository.listSentBetween(db, range, RECONCILIATION_MAX_TRANSACTIONS);
  for (const row of sent) {
    const providerPayoutId = row.payout.providerPayoutId;
    if (providerPayoutId === null || seen.has(providerPayoutId) || isReturned(row.payout.state)) continue;
    differences.push({
      providerPayoutId,
      withdrawalId: row.payout.withdrawalId,
      reference: row.reference,
      problems: ['The provider does not list this payout for the day.'],
      provider: null,
      ours: { amountInr: inrPaiseToWire(row.payout.amountInrPaise), state: row.payout.state, utr: row.payout.utr },
    });
  }
  return {
    day,
    transactionsRead: transactions.length,
    payoutsCompared: seen.size,
    truncated,
    truncatedReason: truncated ? `The provider lists more than ${RECONCILIATION_MAX_TRANSACTIONS} transactions for the day; only the first were read.` : null,
    differences: differences.slice(0, RECONCILIATION_MAX_TRANSACTIONS),
  };
}
