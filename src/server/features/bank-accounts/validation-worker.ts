import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { PayeeCheckConfig } from '../../env.ts';
import { createPeriodicWorker } from '../../platform/workers/periodic.ts';
import * as validationRepository from './validation-repository.ts';
import { stepValidation, validationProviderFrom } from './validations.ts';

/** Validations one process claims per tick. */
const VALIDATIONS_PER_TICK = 20;
/** Longer than a request to the provider can take, so two processes do not ask at once. */
const LEASE_SECONDS = 120;

export interface PayeeValidationWorker {
  /** Sends the validations no request sent and asks about those without a final answer, once; safe in every process at once. */
  tick(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/** The payee validations' background work (decision 054), as the payout worker does it for payouts: claimed in PostgreSQL. */
export function createPayeeValidationWorker(options: { db: Database; config: PayeeCheckConfig; log: FastifyBaseLogger }): PayeeValidationWorker {
  const { db, config, log } = options;
  const provider = validationProviderFrom(config);

  async function tick(): Promise<void> {
    if (!provider) return;
    const due = await validationRepository.claim(db, { limit: VALIDATIONS_PER_TICK, leaseSeconds: LEASE_SECONDS });
    for (const validation of due) {
      try {
        await stepValidation(db, provider, validation, config.pollSeconds, log);
      } catch (error) {
        // A bug or a database error: logged, and the validation comes back when its lease ends.
        log.error({ err: error, validationId: validation.id }, 'Payee validation job failed');
      }
    }
  }

  return createPeriodicWorker({ intervalSeconds: config.pollSeconds, log, failureMessage: 'Payee validation tick failed', tick });
}
