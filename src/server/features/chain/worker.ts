import type { FastifyBaseLogger } from 'fastify';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Database } from '../../db/client.ts';
import type { ChainConfig } from '../../env.ts';
import { createPeriodicWorker } from '../../platform/workers/periodic.ts';
import { createChainFollower, type ChainFollower } from './follower.ts';
import { createEthereumClient } from './ethereum-client.ts';
import { ChainProviderError, type ChainClient } from './observation.ts';
import * as chainRepository from './repository.ts';
import { createTronClient } from './tron-client.ts';
import { verifyDeposit } from './verification.ts';
import { backoffSeconds, type ChainWorkContext } from './work-context.ts';

/** Jobs one process claims per tick; the rest wait for the next tick or another process. */
const JOBS_PER_TICK = 20;
/** How long a claimed job is this process's before another may take it (a crashed process's jobs come back after it). */
const LEASE_SECONDS = 120;

export function chainClientsFromConfig(config: ChainConfig, log: FastifyBaseLogger): ChainClient[] {
  const clients: ChainClient[] = [];
  if (config.ethereum?.devConfirmations) {
    log.warn(
      { confirmations: config.ethereum.confirmations },
      'CHAIN_DEV_CONFIRMATIONS is set: ERC20 transfers count as final after this few confirmations. Only for a local test chain; never with real money.',
    );
  }
  if (config.ethereum) clients.push(createEthereumClient(config.ethereum));
  if (config.tron) clients.push(createTronClient(config.tron));
  return clients;
}

export interface ChainWorker {
  /** Claims due jobs and works them once; safe to run in every process at the same time. */
  tick(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export interface ChainWorkerOptions {
  db: Database;
  clients: ChainClient[];
  pollSeconds: number;
  log: FastifyBaseLogger;
  /** Told after an automatic credit committed, so its customer e-mail goes out at once rather than at the next sweep. */
  notificationEmails?: { poke(): void };
}

export function createChainWorker(options: ChainWorkerOptions): ChainWorker {
  const { db, clients, pollSeconds, log } = options;
  const context: ChainWorkContext = {
    db,
    log,
    pollSeconds,
    clientOf: new Map(clients.map((client) => [client.network, client])),
    notificationEmails: options.notificationEmails,
  };
  const networks = clients.map((client) => client.network);
  const followers = new Map<DepositNetwork, ChainFollower>();
  for (const client of clients) followers.set(client.network, createChainFollower(context, client, client.follower));

  /** Detection without a hash: the network's follower reads final blocks. */
  async function scanNetwork(job: chainRepository.ChainJobRow, client: ChainClient): Promise<void> {
    try {
      const caughtUp = await followers.get(client.network)?.follow();
      // Far behind (after downtime), the follower goes on at the next tick rather than a poll later.
      await chainRepository.rescheduleJob(db, job.id, caughtUp === false ? 0 : pollSeconds, { failed: false });
    } catch (error) {
      if (!(error instanceof ChainProviderError)) throw error;
      log.warn({ network: client.network, error: error.message }, 'Chain provider error while scanning; retried later');
      await chainRepository.rescheduleJob(db, job.id, backoffSeconds(pollSeconds, job.failures + 1), { failed: true, error: error.message });
    }
  }

  async function tick(): Promise<void> {
    for (const network of networks) await chainRepository.ensureScanJob(db, network);
    const jobs = await chainRepository.claimDueJobs(db, networks, JOBS_PER_TICK, LEASE_SECONDS);
    for (const job of jobs) {
      const client = context.clientOf.get(job.network);
      if (!client) continue;
      try {
        if (job.kind === 'scan_network') await scanNetwork(job, client);
        else await verifyDeposit(context, job, client);
      } catch (error) {
        // A bug or a database error: logged, and the job comes back when its lease ends.
        log.error({ err: error, jobId: job.id.toString() }, 'Chain job failed');
      }
    }
  }

  const periodic = createPeriodicWorker({ intervalSeconds: pollSeconds, log, failureMessage: 'Chain worker tick failed', tick });
  return {
    ...periodic,
    start() {
      if (networks.length > 0) periodic.start();
    },
  };
}
