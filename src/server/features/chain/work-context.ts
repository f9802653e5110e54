import type { FastifyBaseLogger } from 'fastify';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Database } from '../../db/client.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import type { ChainClient } from './observation.ts';

/** Retries after provider errors back off to at most this. */
const MAX_BACKOFF_SECONDS = 15 * 60;

/** What every part of the chain worker works with. */
export interface ChainWorkContext {
  db: Database;
  log: FastifyBaseLogger;
  pollSeconds: number;
  clientOf: ReadonlyMap<DepositNetwork, ChainClient>;
  /** Told after an automatic credit committed, so its customer e-mail goes out at once rather than at the next sweep. */
  notificationEmails?: { poke(): void } | undefined;
}

export function backoffSeconds(pollSeconds: number, failures: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, pollSeconds * 2 ** Math.min(failures, 16));
}

/** Tells the customer's open app and the admin queue that a deposit changed. */
export async function publishDepositChange(
  db: Parameters<typeof publishEvent>[0],
  userId: string,
  reason: 'deposit.chain' | 'deposit.detected',
): Promise<void> {
  await publishEvent(db, { type: 'wallet.updated', userId, reason });
  await publishEvent(db, { type: 'admin.queue.updated' });
}
