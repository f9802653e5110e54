import type { FastifyBaseLogger } from 'fastify';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Database, Executor } from '../../db/client.ts';
import type { ChainConfig } from '../../env.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { decideInTransaction } from '../../platform/decisions/decide.ts';
import { claimContext, depositDecisions, recordUnclaimedTransfers } from '../deposits/service.ts';
import { getSettings } from '../settings/service.ts';
import { MAX_USDT_MICROS } from '#shared/money';
import { assessObservation, depositableTransfers } from './assessment.ts';
import { createEthereumClient } from './ethereum-client.ts';
import { ChainProviderError, type ChainClient, type ChainObservation, type TransferLog } from './observation.ts';
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
    const network = deposit.network as DepositNetwork;
    // Asked before the database transaction, which must not wait on a provider.
    const onOtherNetwork = observation.kind === 'unknown' && (await seenOnOtherNetwork(network, deposit.transactionHash));

    const credited = await db.transaction(async (transaction) => {
      // Before the row lock, as submissions and detection of this transaction take it (see lockChainTransaction).
      await chainRepository.lockChainTransaction(transaction, network, deposit.transactionHash);
      const current = await chainRepository.lockDeposit(transaction, depositId);
      if (!current || current.status !== 'pending') {
        await chainRepository.finishJob(transaction, job.id);
        return false;
      }
      const takenLogIndexes = await chainRepository.boundLogIndexes(transaction, network, current.transactionHash, current.id);
      const expectation = {
        usdtContractKey: client.usdtContractKey,
        depositAddressKey: client.addressKey(current.depositAddress),
        minimumUsdtMicros: settings.minDepositUsdtMicros,
        takenLogIndexes,
      };
      // Whose claim it is, what was typed and who proved the senders decide which transfer a claim takes (decision 037).
      const claim = await claimContext(transaction, current, observation);
      let facts = assessObservation(observation, { ...expectation, ...claim, boundLogIndex: current.chainLogIndex });
      if (facts.state === 'not_found' && onOtherNetwork) facts = { ...facts, state: 'mismatch', problem: 'other_network' };
      const owner = facts.transfer ? await chainRepository.walletOwner(transaction, client.network, facts.transfer.from) : undefined;
      if (facts.state === 'confirmed' && owner !== undefined && owner !== current.userId) facts = { ...facts, problem: 'sender_of_another_customer' };
      // A submitted deposit takes its log once the transfer is final; a detected one was bound to its log from the start.
      const logIndex = current.chainLogIndex ?? (facts.state === 'confirmed' && facts.transfer ? facts.transfer.logIndex : null);
      await chainRepository.recordChainFacts(transaction, depositId, { ...facts, from: facts.transfer?.from ?? null, to: facts.transfer?.to ?? null, logIndex });
      if (observation.kind === 'included' && observation.final && facts.state !== 'confirming') {
        // The transaction's other transfers to the operator, which detection left to this deposit while it was unbound;
        // also when the claim took none (another customer's transfer, an ambiguous choice): their owners get them.
        const others = depositableTransfers(observation, { ...expectation, takenLogIndexes: logIndex === null ? takenLogIndexes : new Set([...takenLogIndexes, logIndex]) });
        await recordDetectedTransfers(transaction, client, current.transactionHash, current.depositAddress, others);
      }
      const before = [current.chainState, current.chainConfirmations, current.chainDelayed, current.chainProblem].join('|');
      const after = [facts.state, facts.confirmations, false, facts.problem].join('|');

      if (facts.state === 'confirmed' && owner === current.userId) {
        // Only a final transfer from a wallet this same customer proved is credited without an admin.
        // The same decision code as an admin's approval (ledger, referral rewards, audit row, notification and e-mail, events), with the system as decider.
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
    if (credited) {
      log.info({ network: client.network, depositId }, 'Deposit verified on chain and credited automatically');
      options.notificationEmails?.poke();
    }
  }

  /**
   * Records a detected deposit for each given Transfer log whose sender is a
   * wallet some customer proved, bound to that log and verified like any other
   * before it is credited. Inside the caller's transaction, which holds the
   * transaction's lock.
   */
  async function recordDetectedTransfers(transaction: Executor, client: ChainClient, transactionHash: string, depositAddress: string, transfers: TransferLog[]): Promise<void> {
    for (const transfer of transfers) {
      const owner = await chainRepository.walletOwner(transaction, client.network, transfer.from);
      if (owner === undefined) continue;
      const depositId = await chainRepository.insertDetectedDeposit(transaction, {
        userId: owner,
        network: client.network,
        amountUsdtMicros: transfer.amountUsdtMicros,
        transactionHash,
        depositAddress,
        logIndex: transfer.logIndex,
      });
      if (depositId === undefined) continue;
      await chainRepository.enqueueDepositCheck(transaction, depositId, client.network);
      await publishEvent(transaction, { type: 'wallet.updated', userId: owner, reason: 'deposit.detected' });
      await publishEvent(transaction, { type: 'admin.queue.updated' });
    }
  }

  /** A hash unknown here may be a transaction of the other network, submitted under the wrong one. */
  async function seenOnOtherNetwork(network: DepositNetwork, hash: string): Promise<boolean> {
    const other = clientOf.get(network === 'ERC20' ? 'TRC20' : 'ERC20');
    if (!other) return false;
    try {
      return (await other.observe(otherNetworkHash(network, hash))).kind !== 'unknown';
    } catch (error) {
      if (error instanceof ChainProviderError) return false;
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

  /**
   * Reads the transfers to the operator after the cursor; each transaction with
   * one from a proved wallet is read in full (its receipt), and every USDT log in
   * it to the operator from a proved wallet becomes a detected deposit of its own.
   */
  async function scanAddress(client: ChainClient, depositAddress: string, minimumUsdtMicros: bigint): Promise<void> {
    const cursor = await chainRepository.findScanCursor(db, client.network, depositAddress);
    if (cursor === undefined) {
      await chainRepository.saveScanCursor(db, client.network, depositAddress, await client.scanStart());
      return;
    }
    const result = await client.scanTransfersTo(depositAddress, cursor);
    const hashes = new Set<string>();
    // Every transaction with a transfer of an acceptable amount is read: those from proved wallets become detected
    // deposits, the others unclaimed transfers for admins (decision 037).
    for (const transfer of result.transfers) {
      if (transfer.amountUsdtMicros < minimumUsdtMicros || transfer.amountUsdtMicros > MAX_USDT_MICROS) continue;
      hashes.add(transfer.transactionHash);
    }
    // Read before the database transaction, which must not wait on the provider; a provider error leaves the cursor where it was.
    const observations = new Map<string, ChainObservation>();
    for (const hash of hashes) {
      const observation = await client.observe(hash);
      if (observation.kind !== 'included') throw new ChainProviderError(`the provider listed transaction ${hash} but does not return it`);
      observations.set(hash, observation);
    }
    await db.transaction(async (transaction) => {
      for (const [hash, observation] of observations) {
        await chainRepository.lockChainTransaction(transaction, client.network, hash);
        // A deposit that has yet to choose its log takes its pick first and then records the others (verifyDeposit).
        if (await chainRepository.transactionHasUnboundDeposit(transaction, client.network, hash)) continue;
        const takenLogIndexes = await chainRepository.boundLogIndexes(transaction, client.network, hash);
        const transfers = depositableTransfers(observation, {
          usdtContractKey: client.usdtContractKey,
          depositAddressKey: client.addressKey(depositAddress),
          minimumUsdtMicros,
          takenLogIndexes,
        });
        // Detected is not credited: each new deposit is verified like any other, on its own transaction receipt.
        await recordDetectedTransfers(transaction, client, hash, depositAddress, transfers);
        if (observation.kind === 'included') await recordUnclaimedTransfers(transaction, client.network, hash, observation.blockNumber, transfers);
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
