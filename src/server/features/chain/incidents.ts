import { CHAIN_INCIDENT_LIST_LIMIT, CHAIN_INCIDENT_MESSAGES, type ChainIncidentListResponse } from '#shared/contracts/chain-incidents';
import { usdtMicrosToWire } from '#shared/money';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { walletBalance } from '../../platform/ledger/ledger.ts';
import * as followerRepository from './follower-repository.ts';

/** Incidents for admins, open ones first. */
export async function listChainIncidents(db: Executor): Promise<ChainIncidentListResponse> {
  const rows = await followerRepository.listIncidents(db, CHAIN_INCIDENT_LIST_LIMIT);
  return {
    items: rows.map((row) => ({
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
    })),
  };
}

/**
 * Refuses a withdrawal that would spend money held by an open incident: the
 * balance stays, but what remains after the withdrawal must cover the held
 * amount. Called after the withdrawal's debit, which locked the wallet.
 */
export async function assertHeldAmountUntouched(db: Executor, userId: string): Promise<void> {
  const held = await followerRepository.heldUsdtMicros(db, userId);
  if (held === 0n) return;
  if ((await walletBalance(db, userId)) >= held) return;
  const message = CHAIN_INCIDENT_MESSAGES.withdrawalHeld(usdtMicrosToWire(held));
  throw new AppError(400, 'DEPOSIT_ON_HOLD', message, { fields: { amount: message } });
}
