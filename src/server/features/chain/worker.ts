import type { FastifyBaseLogger } from 'fastify';
import type { DepositNetwork } from '../../../shared/contracts/deposits.ts';
import type { Database } from '../../db/client.ts';
import type { ChainConfig } from '../../env.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { decideInTransaction } from '../../platform/decisions/decide.ts';
import { depositDecisions } from '../deposits/service.ts';
import { getSettings } from '../settings/service.ts';
import { assessObservation, type ChainFacts } from './assessment.ts';
import { createEthereumClient } from './ethereum-client.ts';
import { ChainProviderError, type ChainClient, type ChainObservation } from './observation.ts';
import * as chainRepository from './repository.ts';
import { createTronClient } from './tron-client.ts';

/** Jobs one process claims per tick; the rest wait for the next tick or another process. */
const JOBS_PER_TICK = 20;
/** How long a claimed job is this process's before another may take it (a crashed process's jobs come back after it). */
const LEASE_SECONDS = 120;
/** Retries after provider errors back off to at most this. */
const MAX_BACKOFF_SECONDS = 15 * 60;
/** A hash the chain does not know is looked for again, ever less often, for this long after it was submitted. */
const NOT_FOUND_GIVE_UP_HOURS = 24;

export function chainClientsFromConfig(config: ChainConfig): ChainClient[] {
  const clients: ChainClient[] = [];
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

/** The wrong network's form of a hash: TRON hashes are bare hex, Ethereum's carry 0x. */
function otherNetworkHash(network: DepositNetwork, hash: string): string {
  return network === 'ERC20' ? hash.slice(2) : `0x${hash}`;
}

function backoffSeconds(pollSeconds: number, failures: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, pollSeconds * 2 ** Math.min(failures, 16));
}

export function createChainWorker(options: { db: Database; clients: ChainClient[]; pollSeconds: number; log: FastifyBaseLogger }): ChainWorker {
  const { db, clients, pollSeconds, log } = options;
  const clientOf = new Map(clients.map((client) => [client.network, client]));
  const networks = clients.map((client) => client.network);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function verifyDeposit(job: chainRepository.ChainJobRow, client: ChainClient): Promise<void> {
    const depositId = job.depositId;
    if (depositId === null) throw new Error(`verify job ${job.id} has no deposit`);
    const deposit = await chainRepository.findDeposit(db, depositId);
    if (!deposit || deposit.status !== 'pending') return chainRepository.finishJob(db, job.id);

    let observation: ChainObservation;
    try {
      observation = await client.observe(deposit.transactionHash);
    } catch (error) {
      if (!(error instanceof ChainProviderError)) throw error;
      log.warn({ network: client.network, depositId, error: error.message }, 'Chain provider error; the check is retried later');
      await chainRepository.rescheduleJob(db, job.id, backoffSeconds(pollSeconds, job.failures + 1), { failed: true, error: error.message });
      if (await chainRepository.markDelayed(db, depositId)) await publishChange(deposit.userId);
      return;
    }
    const settings = await getSettings(db);
    let facts = assessObservation(observation, {
      usdtContractKey: client.usdtContractKey,
      depositAddressKey: client.addressKey(deposit.depositAddress),
      minimumUsdtMicros: settings.minDepositUsdtMicros,
    });
    if (facts.state === 'not_found') facts = await recogniseOtherNetwork(deposit.network as DepositNetwork, deposit.transactionHash, facts);

    const changed = await db.transaction(async (transaction) => {
      const current = await chainRepository.lockDeposit(transaction, depositId);
      if (!current || current.status !== 'pending') {
        await chainRepository.finishJob(transaction, job.id);
        return false;
      }
      const owner = facts.transfer ? await chainRepository.walletOwner(transaction, client.network, facts.transfer.from) : undefined;
      if (facts.state === 'confirmed' && owner !== undefined && owner !== current.userId) facts = { ...facts, problem: 'sender_of_another_customer' };
      await chainRepository.recordChainFacts(transaction, depositId, { ...facts, from: facts.transfer?.from ?? null, to: facts.transfer?.to ?? null });
      const before = [current.chainState, current.chainConfirmations, current.chainDelayed, current.chainProblem].join('|');
      const after = [facts.state, facts.confirmations, false, facts.problem].join('|');

      if (facts.state === 'confirmed' && owner === current.userId) {
        // Only a final transfer from a wallet this same customer proved is credited without an admin.
        // The same decision code as an admin's approval (ledger, referral rewards, audit row, events), with the system as decider.
        await decideInTransaction(transaction, depositDecisions, { id: depositId, outcome: 'approved', decider: { kind: 'system' }, details: {} });
        await chainRepository.finishJob(transaction, job.id);
        return true;
      }
      if (facts.state === 'confirming') {
        await chainRepository.rescheduleJob(transaction, job.id, pollSeconds, { failed: false });
      } else if (facts.state === 'not_found' && Date.now() - current.createdAt.getTime() < NOT_FOUND_GIVE_UP_HOURS * 3_600_000) {
        await chainRepository.rescheduleJob(transaction, job.id, backoffSeconds(pollSeconds, Math.floor((Date.now() - current.createdAt.getTime()) / 60_000 / 5)), { failed: false });
      } else {
        // Confirmed for an admin to decide, failed, mismatched, or not found for a day: nothing more to learn.
        await chainRepository.finishJob(transaction, job.id);
      }
      if (before !== after) {
        await publishEvent(transaction, { type: 'wallet.updated', userId: current.userId, reason: 'deposit.chain' });
        await publishEvent(transaction, { type: 'admin.queue.updated' });
      }
      return false;
    });
    if (changed) log.info({ network: client.network, depositId }, 'Deposit verified on chain and credited automatically');
  }

  /** A hash unknown here may be a transaction of the other network, submitted under the wrong one. */
  async function recogniseOtherNetwork(network: DepositNetwork, hash: string, facts: ChainFacts): Promise<ChainFacts> {
    const other = clientOf.get(network === 'ERC20' ? 'TRC20' : 'ERC20');
    if (!other) return facts;
    try {
      const observation = await other.observe(otherNetworkHash(network, hash));
      return observation.kind === 'unknown' ? facts : { ...facts, state: 'mismatch', problem: 'other_network' };
    } catch (error) {
      if (error instanceof ChainProviderError) return facts;
      throw error;
    }
  }

  async function publishChange(userId: string): Promise<void> {
    await publishEvent(db, { type: 'wallet.updated', userId, reason: 'deposit.chain' });
    await publishEvent(db, { type: 'admin.queue.updated' });
  }

  /** Reads final USDT transfers to the operator's address and records those from verified wallets as deposits. */
  async function scanNetwork(job: chainRepository.ChainJobRow, client: ChainClient): Promise<void> {
    const settings = await getSettings(db);
    const depositAddress = client.network === 'ERC20' ? settings.erc20Address : settings.trc20Address;
    try {
      if (depositAddress.trim() !== '') await scanAddress(client, depositAddress, settings.minDepositUsdtMicros);
      await chainRepository.rescheduleJob(db, job.id, pollSeconds, { failed: false });
    } catch (error) {
      if (!(error instanceof ChainProviderError)) throw error;
      log.warn({ network: client.network, error: error.message }, 'Chain provider error while scanning; retried later');
      await chainRepository.rescheduleJob(db, job.id, backoffSeconds(pollSeconds, job.failures + 1), { failed: true, error: error.message });
    }
  }

  async function scanAddress(client: ChainClient, depositAddress: string, minimumUsdtMicros: bigint): Promise<void> {
    const cursor = await chainRepository.findScanCursor(db, client.network, depositAddress);
    if (cursor === undefined) {
      await chainRepository.saveScanCursor(db, client.network, depositAddress, await client.scanStart());
      return;
    }
    const result = await client.scanTransfersTo(depositAddress, cursor);
    await db.transaction(async (transaction) => {
      for (const transfer of result.transfers) {
        if (transfer.amountUsdtMicros < minimumUsdtMicros) continue;
        const owner = await chainRepository.walletOwner(transaction, client.network, client.addressKey(transfer.from));
        if (owner === undefined) continue;
        const depositId = await chainRepository.insertDetectedDeposit(transaction, {
          userId: owner,
          network: client.network,
          amountUsdtMicros: transfer.amountUsdtMicros,
          transactionHash: transfer.transactionHash,
          depositAddress,
        });
        if (depositId === undefined) continue;
        // Detected is not credited: the new deposit is verified like any other, on its own transaction receipt.
        await chainRepository.enqueueDepositCheck(transaction, depositId, client.network);
        await publishEvent(transaction, { type: 'wallet.updated', userId: owner, reason: 'deposit.detected' });
        await publishEvent(transaction, { type: 'admin.queue.updated' });
      }
      await chainRepository.saveScanCursor(transaction, client.network, depositAddress, result.scannedThrough);
    });
  }

  async function tick(): Promise<void> {
    for (const network of networks) await chainRepository.ensureScanJob(db, network);
    const jobs = await chainRepository.claimDueJobs(db, networks, JOBS_PER_TICK, LEASE_SECONDS);
    for (const job of jobs) {
      const client = clientOf.get(job.network as DepositNetwork);
      if (!client) continue;
      try {
        if (job.kind === 'scan_network') await scanNetwork(job, client);
        else await verifyDeposit(job, client);
      } catch (error) {
        // A bug or a database error: logged, and the job comes back when its lease ends.
        log.error({ err: error, jobId: job.id.toString() }, 'Chain job failed');
      }
    }
  }

  /** One tick at a time per process: a slow provider must not pile up overlapping ticks. */
  function tickOnce(): Promise<void> {
    running ??= tick().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    tick: tickOnce,
    start() {
      if (timer || networks.length === 0) return;
      const run = () => {
        void tickOnce().catch((error: unknown) => log.error({ err: error }, 'Chain worker tick failed'));
      };
      run();
      timer = setInterval(run, pollSeconds * 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
