import {
  CHAIN_INCIDENT_LIST_LIMIT,
  CHAIN_INCIDENT_MESSAGES,
  type ChainIncident,
  type ChainIncidentListResponse,
  type ChainIncidentSettleRequest,
  type ChainIncidentSettleResponse,
} from '#shared/contracts/chain-incidents';
import type { DepositNetwork } from '#shared/contracts/enums';
import { formatUsdtExact, usdtMicrosToWire } from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { house, moveMoney, wallet, walletBalance } from '../../platform/ledger/ledger.ts';
import { adminUserIds, createNotifications } from '../../platform/notifications/service.ts';
import { depositIncidentForCustomer } from '../notifications/templates.ts';
import { lockReferrersBeforeTakingBack, takeBackRewardsOfVanishedDeposit } from '../referrals/service.ts';
import type { ChainIncidentSettlementPayload } from '../pending-changes/kinds.ts';
import { discardOpenChange, findOpenChange, needsSecondAdmin, requestChange, type Actor, type ChangeHandler } from '../pending-changes/service.ts';
import * as followerRepository from './follower-repository.ts';

function toIncidentView(row: followerRepository.IncidentRow): ChainIncident {
  return {
    id: row.id,
    depositId: row.depositId,
    userId: row.userId,
    network: row.network,
    transactionHash: row.transactionHash,
    amount: usdtMicrosToWire(row.amountUsdtMicros),
    kind: row.kind,
    openedAt: row.openedAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolution: row.resolution,
    resolutionReason: row.resolutionReason,
    resolvedByUserId: row.resolvedByUserId,
  };
}

/** Incidents for admins, open ones first. */
export async function listChainIncidents(db: Executor): Promise<ChainIncidentListResponse> {
  const rows = await followerRepository.listIncidents(db, CHAIN_INCIDENT_LIST_LIMIT);
  return { items: rows.map(toIncidentView) };
}

/** What the customer's open incidents hold (0 when none is open). */
export async function heldByOpenIncidents(db: Executor, userId: string): Promise<bigint> {
  return followerRepository.heldUsdtMicros(db, userId);
}

/**
 * Refuses a withdrawal or a transfer that would spend money held by an open
 * incident: the balance stays, but what remains after the debit must cover the
 * held amount. Called after the debit, which locked the wallet, so a concurrent
 * debit of the same customer sees this one's result.
 */
export async function assertHeldAmountUntouched(db: Executor, userId: string, purpose: 'withdrawal' | 'transfer' = 'withdrawal'): Promise<void> {
  const held = await heldByOpenIncidents(db, userId);
  if (held === 0n) return;
  if ((await walletBalance(db, userId)) >= held) return;
  const words = purpose === 'withdrawal' ? CHAIN_INCIDENT_MESSAGES.withdrawalHeld : CHAIN_INCIDENT_MESSAGES.transferHeld;
  const message = words(usdtMicrosToWire(held));
  throw new AppError(400, 'DEPOSIT_ON_HOLD', message, { fields: { amount: message } });
}

/**
 * Tells every admin and the customer of a new incident, in the app and by e-mail, inside the
 * follower's transaction (decision 045): a rolled-back rewind tells no one.
 */
export async function notifyOfIncident(
  db: Executor,
  incident: { depositId: string; userId: string; network: DepositNetwork; transactionHash: string; amountUsdtMicros: bigint },
): Promise<void> {
  const amount = `${formatUsdtExact(incident.amountUsdtMicros)} USDT`;
  const admins = await adminUserIds(db);
  await createNotifications(db, [
    depositIncidentForCustomer(incident, 'held'),
    ...admins.map((userId) => ({
      userId,
      kind: 'deposit_incident' as const,
      title: 'A credited deposit is no longer on the blockchain',
      body: `A credited ${incident.network} deposit of ${amount} vanished in a reorganisation. The customer's withdrawals and transfers are held to that amount until an admin settles it.`,
      link: '/admin/reconciliation',
      emailSubject: `Chain incident: ${amount} deposit no longer on the blockchain`,
      emailText: [
        `A credited ${incident.network} deposit of ${amount} is no longer on the blockchain after a reorganisation.`,
        `The customer's withdrawals and transfers are held to that amount until an admin settles the incident (take it back, or write it off), or the transfer is final on the chain again.`,
        '',
        `Transaction hash: ${incident.transactionHash}`,
        `Deposit: ${incident.depositId}`,
        `Customer: ${incident.userId}`,
      ].join('\n'),
    })),
  ]);
}

/**
 * Closes the deposit's open incident because its transfer is final on the chain
 * again; a settlement still waiting for a second admin is discarded with it.
 * The user whose hold ended, if any.
 */
export async function closeReincludedIncident(db: Executor, depositId: string): Promise<string | undefined> {
  const closed = await followerRepository.resolveIncidentReincluded(db, depositId);
  if (!closed) return undefined;
  await discardOpenChange(db, chainIncidentSettlementHandler, closed.id, null);
  return closed.userId;
}

/**
 * An admin settles an open incident (decision 045): `debited` takes the vanished
 * amount back from the customer's balance through the ledger, `written_off`
 * leaves the balance and records the operator's loss; either way the hold
 * lifts. While two admins exist the settlement waits for a second admin's
 * confirm (202); with one admin it applies at once.
 */
export async function settleIncident(
  db: Database,
  actor: Actor,
  incidentId: string,
  input: ChainIncidentSettleRequest,
): Promise<{ statusCode: 200 | 202; body: ChainIncidentSettleResponse }> {
  return db.transaction(async (transaction) => {
    const incident = await followerRepository.findIncidentForUpdate(transaction, incidentId);
    if (!incident) throw AppError.notFound(CHAIN_INCIDENT_MESSAGES.notFound);
    if (incident.resolvedAt !== null) throw AppError.conflict(CHAIN_INCIDENT_MESSAGES.alreadySettled, 'ALREADY_DECIDED');
    if (await findOpenChange(transaction, 'chain_incident_settlement', incident.id)) {
      throw AppError.conflict(CHAIN_INCIDENT_MESSAGES.settlementWaiting, 'CHANGE_ALREADY_WAITING');
    }
    const payload: ChainIncidentSettlementPayload = {
      incidentId: incident.id,
      depositId: incident.depositId,
      customerUserId: incident.userId,
      network: incident.network,
      amountUsdtMicros: incident.amountUsdtMicros.toString(),
      resolution: input.resolution,
      reason: input.reason,
    };
    if (await needsSecondAdmin(transaction)) {
      const pendingChange = await requestChange(transaction, 'chain_incident_settlement', payload, actor);
      return { statusCode: 202, body: { message: CHAIN_INCIDENT_MESSAGES.settlementRequested, pendingChange } };
    }
    const settled = await applySettlement(transaction, incident, payload, actor);
    return { statusCode: 200, body: { message: CHAIN_INCIDENT_MESSAGES.settled, incident: toIncidentView(settled) } };
  });
}

async function applySettlement(
  transaction: Executor,
  incident: followerRepository.IncidentRow,
  payload: ChainIncidentSettlementPayload,
  actor: Actor,
): Promise<followerRepository.IncidentRow> {
  // The referrers first, before any ledger account: refunds take this lock before theirs (decision 045, round 22, c).
  await lockReferrersBeforeTakingBack(transaction, incident.depositId);
  if (payload.resolution === 'debited') {
    const balance = await walletBalance(transaction, incident.userId);
    if (balance < incident.amountUsdtMicros) {
      throw new AppError(
        409,
        'INSUFFICIENT_BALANCE',
        CHAIN_INCIDENT_MESSAGES.balanceTooLow(usdtMicrosToWire(balance), usdtMicrosToWire(incident.amountUsdtMicros)),
      );
    }
    // The conditional debit of moveMoney still refuses if a concurrent spend got there first.
    await moveMoney(transaction, [
      {
        from: wallet(incident.userId),
        to: house('deposits_received'),
        amountUsdtMicros: incident.amountUsdtMicros,
        reason: 'deposit_reversal',
        referenceId: incident.depositId,
      },
    ]);
  }
  const settled = await followerRepository.resolveIncident(transaction, incident.id, {
    resolution: payload.resolution,
    reason: payload.reason,
    resolvedByUserId: actor.userId,
  });
  if (!settled) throw AppError.conflict(CHAIN_INCIDENT_MESSAGES.alreadySettled, 'ALREADY_DECIDED');
  // The deposit did not happen, however the customer's side is settled: its referral rewards are taken back (decision 049).
  await takeBackRewardsOfVanishedDeposit(transaction, { id: incident.id, depositId: incident.depositId });
  await recordAudit(transaction, {
    actorUserId: actor.userId,
    action: 'chain_incident.settle',
    targetType: 'chain_incident',
    targetId: incident.id,
    targetUserId: incident.userId,
    before: { status: 'open', amountUsdtMicros: incident.amountUsdtMicros },
    after: { resolution: payload.resolution, reason: payload.reason, depositId: incident.depositId, amountUsdtMicros: incident.amountUsdtMicros },
    ipAddress: actor.ipAddress,
  });
  await createNotifications(transaction, [depositIncidentForCustomer(incident, payload.resolution, payload.reason)]);
  await publishEvent(transaction, { type: 'wallet.updated', userId: incident.userId, reason: 'deposit.chain' });
  await publishEvent(transaction, { type: 'admin.queue.updated' });
  return settled;
}

/** A second admin's confirm (POST /api/admin/pending-changes/:id/confirm) of an incident's settlement. */
export const chainIncidentSettlementHandler: ChangeHandler<'chain_incident_settlement'> = {
  kind: 'chain_incident_settlement',
  lockSubject: async (transaction, incidentId) => {
    await followerRepository.findIncidentForUpdate(transaction, incidentId);
  },
  apply: async (transaction, change, decider) => {
    const incident = await followerRepository.findIncidentForUpdate(transaction, change.payload.incidentId);
    if (!incident || incident.resolvedAt !== null) throw AppError.conflict(CHAIN_INCIDENT_MESSAGES.alreadySettled, 'STALE_CHANGE');
    await applySettlement(transaction, incident, change.payload, decider);
  },
};
