import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { PayoutProviderConfig } from '../../env.ts';
import { createPeriodicWorker } from '../../platform/workers/periodic.ts';
import { PayoutProviderError, providerBackoffSeconds, type PayoutProvider } from './provider.ts';
import { createCashfreeClient } from './cashfree-client.ts';
import { createRazorpayXClient } from './razorpayx-client.ts';
import * as payoutRepository from './repository.ts';
import type { DuePayout } from './repository.ts';
import { alertStuckPayouts, applyProviderFacts, enqueueRoutedWithdrawals, prepareFirstSend, refuseUnsentPayout } from './service.ts';

/** Payouts one process claims per tick; the rest wait for the next tick or another process. */
const PAYOUTS_PER_TICK = 20;
/** Routed withdrawals given their payout row per tick. */
const ENQUEUED_PER_TICK = 100;
/**
 * How long a claimed payout is this process's before another may take it: longer than a request to the provider
 * can take, so two processes do not send at once; if they ever do, the one idempotency key gives one payout.
 */
const LEASE_SECONDS = 120;
/**
 * How long a processed payout is still asked about after it paid its withdrawal (decision 053): a bank returns most
 * payouts it cannot credit within a day, and a reversal whose webhook was lost must not wait for the day's
 * reconciliation. With the provider's backoff that is at most some sixty questions per payout.
 */
export const REVERSAL_WATCH_HOURS = 24;

export function payoutProviderFromConfig(config: PayoutProviderConfig): PayoutProvider {
  return config.provider === 'cashfree' ? createCashfreeClient(config) : createRazorpayXClient(config);
}

export interface PayoutWorker {
  /** Sends what is due and asks about payouts without a final state, once; safe in every process at the same time. */
  tick(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export interface PayoutWorkerOptions {
  db: Database;
  provider: PayoutProvider;
  pollSeconds: number;
  /** A payout not settled this many minutes after it was handed over, or with an error, is told to admins once (decision 049). */
  stuckMinutes: number;
  log: FastifyBaseLogger;
  /** Told after a payout settled a withdrawal, so its customer e-mail goes out at once rather than at the next sweep. */
  notificationEmails?: { poke(): void } | undefined;
}

export function createPayoutWorker(options: PayoutWorkerOptions): PayoutWorker {
  const { db, provider, pollSeconds, stuckMinutes, log } = options;
  async function work(due: DuePayout): Promise<void> {
    const { payout, withdrawal } = due;
    if (payout.providerPayoutId === null) {
      // A freeze or a chain incident since the approval keeps a payout nothing was sent for at home (decision 049).
      const gate = await prepareFirstSend(db, payout.withdrawalId, providerBackoffSeconds(pollSeconds, payout.attempts));
      if (gate !== 'send') return;
    }
    try {
      const facts =
        payout.providerPayoutId === null
          ? await provider.send({
              idempotencyKey: payout.idempotencyKey,
              reference: withdrawal.reference,
              amountInrPaise: payout.amountInrPaise,
              mode: payout.mode,
              payee: { name: withdrawal.accountHolderName, accountNumber: withdrawal.accountNumber, ifsc: withdrawal.ifscCode, upiId: withdrawal.upiId },
              customerReference: withdrawal.userId,
            })
          : await provider.fetch(payout.providerPayoutId);
      const outcome = await applyProviderFacts(db, facts, payout.providerPayoutId === null ? 'send' : 'poll', payout.withdrawalId);
      if (outcome === 'applied') options.notificationEmails?.poke();
      await payoutRepository.reschedule(db, payout.withdrawalId, providerBackoffSeconds(pollSeconds, payout.attempts), null);
    } catch (error) {
      if (!(error instanceof PayoutProviderError)) throw error;
      if (error.kind === 'refused' && payout.providerPayoutId === null) {
        log.warn({ withdrawalId: payout.withdrawalId, error: error.message }, 'The payout provider refused a payout; the withdrawal is refunded');
        await refuseUnsentPayout(db, payout.withdrawalId, error.message);
        options.notificationEmails?.poke();
        return;
      }
      // The outcome is unknown (a timeout, an outage): asked again later, a send with the same idempotency key.
      log.warn({ withdrawalId: payout.withdrawalId, error: error.message }, 'Payout provider error; retried later');
      await payoutRepository.reschedule(db, payout.withdrawalId, providerBackoffSeconds(pollSeconds, payout.attempts), error.message);
    }
  }

  async function tick(): Promise<void> {
    await enqueueRoutedWithdrawals(db, ENQUEUED_PER_TICK);
    if ((await alertStuckPayouts(db, stuckMinutes)) > 0) options.notificationEmails?.poke();
    const due = await payoutRepository.claimDue(db, provider.name, PAYOUTS_PER_TICK, LEASE_SECONDS, REVERSAL_WATCH_HOURS);
    for (const payout of due) {
      try {
        await work(payout);
      } catch (error) {
        // A bug or a database error: logged, and the payout comes back when its lease ends.
        log.error({ err: error, withdrawalId: payout.payout.withdrawalId }, 'Payout job failed');
      }
    }
  }

  return createPeriodicWorker({ intervalSeconds: pollSeconds, log, failureMessage: 'Payout worker tick failed', tick });
}
