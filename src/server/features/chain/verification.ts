import type { DepositNetwork } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { decideInTransaction } from '../../platform/decisions/decide.ts';
import { claimContext, depositDecisions } from '../deposits/service.ts';
import { getSettings } from '../settings/service.ts';
import { assessObservation, depositableTransfers, type ChainFacts, type Expectation } from './assessment.ts';
import { recordDetectedTransfers } from './detection.ts';
import { ChainProviderError, type ChainClient, type ChainObservation } from './observation.ts';
import * as followerRepository from './follower-repository.ts';
import * as chainRepository from './repository.ts';
import { backoffSeconds, publishDepositChange, type ChainWorkContext } from './work-context.ts';

/** A hash the chain does not know is looked for again, ever less often, for this long after it was submitted. */
const NOT_FOUND_GIVE_UP_HOURS = 24;

type DepositRow = NonNullable<Awaited<ReturnType<typeof chainRepository.findDeposit>>>;

/** The wrong network's form of a hash: TRON hashes are bare hex, Ethereum's carry 0x. */
function otherNetworkHash(network: DepositNetwork, hash: string): string {
  return network === 'ERC20' ? hash.slice(2) : `0x${hash}`;
}

/**
 * Checks one deposit's transaction on its chain (decision 013): stores what the
 * chain says, credits a final transfer from a wallet the same customer proved,
 * and reschedules the check while there is more to learn.
 */
export async function verifyDeposit(context: ChainWorkContext, job: chainRepository.ChainJobRow, client: ChainClient): Promise<void> {
  const { db, log, pollSeconds } = context;
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
    if (await chainRepository.markDelayed(db, depositId)) await publishDepositChange(db, deposit.userId, 'deposit.chain');
    return;
  }
  const settings = await getSettings(db);
  // Asked before the database transaction, which must not wait on a provider.
  const onOtherNetwork = observation.kind === 'unknown' && (await seenOnOtherNetwork(context, deposit.network, deposit.transactionHash));

  const credited = await db.transaction(async (transaction) => {
    // Before the row lock, as submissions and detection of this transaction take it (see lockChainTransaction).
    await chainRepository.lockChainTransaction(transaction, deposit.network, deposit.transactionHash);
    const current = await chainRepository.lockDeposit(transaction, depositId);
    if (!current || current.status !== 'pending') {
      await chainRepository.finishJob(transaction, job.id);
      return false;
    }
    const takenLogIndexes = await chainRepository.boundLogIndexes(transaction, current.network, current.transactionHash, current.id);
    const expectation = {
      usdtContractKey: client.usdtContractKey,
      depositAddressKey: client.addressKey(current.depositAddress),
      minimumUsdtMicros: settings.minDepositUsdtMicros,
      takenLogIndexes,
    };
    // Whose claim it is, what was typed and who proved the senders decide which transfer a claim takes (decision 037).
    const claim = await claimContext(transaction, current, observation);
    const judged = await judge(transaction, client, current, observation, { ...expectation, ...claim, boundLogIndex: current.chainLogIndex }, onOtherNetwork);
    const { owner } = judged;
    let { facts } = judged;
    // Credited only in blocks the follower has read, whose hashes it keeps: a reorganisation that removes them is seen (decision 036).
    if (facts.state === 'confirmed' && !(await followerRepository.hasRead(transaction, current.network, facts.blockNumber)))
      facts = { ...facts, state: 'confirming' };
    // A submitted deposit takes its log once the transfer is final; a detected one was bound to its log from the start.
    const logIndex = current.chainLogIndex ?? (facts.state === 'confirmed' && facts.transfer ? facts.transfer.logIndex : null);
    await chainRepository.recordChainFacts(transaction, depositId, { ...facts, from: facts.transfer?.from ?? null, to: facts.transfer?.to ?? null, logIndex });
    if (observation.kind === 'included' && observation.final && facts.state !== 'confirming') {
      // The transaction's other transfers to the operator, which detection left to this deposit while it was unbound;
      // also when the claim took none (another customer's transfer, an ambiguous choice): their owners get them.
      const others = depositableTransfers(observation, {
        ...expectation,
        takenLogIndexes: logIndex === null ? takenLogIndexes : new Set([...takenLogIndexes, logIndex]),
      });
      await recordDetectedTransfers(transaction, client, current.transactionHash, current.depositAddress, others);
    }
    if (facts.state === 'confirmed' && owner === current.userId) {
      // Only a final transfer from a wallet this same customer proved is credited without an admin.
      // The same decision code as an admin's approval (ledger, referral rewards, audit row, notification and e-mail, events), with the system as decider.
      await decideInTransaction(transaction, depositDecisions, { id: depositId, outcome: 'approved', decider: { kind: 'system' }, details: {} });
      await chainRepository.finishJob(transaction, job.id);
      return true;
    }
    await scheduleNextCheck(transaction, context, job, current, facts);
    const before = [current.chainState, current.chainConfirmations, current.chainDelayed, current.chainProblem].join('|');
    const after = [facts.state, facts.confirmations, false, facts.problem].join('|');
    if (before !== after) await publishDepositChange(transaction, current.userId, 'deposit.chain');
    return false;
  });
  if (credited) {
    log.info({ network: client.network, depositId }, 'Deposit verified on chain and credited automatically');
    context.notificationEmails?.poke();
  }
}

/** The chain's facts about the deposit, and the customer who proved the sending wallet, if any. */
async function judge(
  transaction: Executor,
  client: ChainClient,
  deposit: DepositRow,
  observation: ChainObservation,
  expectation: Expectation,
  onOtherNetwork: boolean,
): Promise<{ facts: ChainFacts; owner: string | undefined }> {
  let facts = assessObservation(observation, expectation);
  if (facts.state === 'not_found' && onOtherNetwork) facts = { ...facts, state: 'mismatch', problem: 'other_network' };
  const owner = facts.transfer ? await chainRepository.walletOwner(transaction, client.network, facts.transfer.from) : undefined;
  if (facts.state === 'confirmed' && owner !== undefined && owner !== deposit.userId) facts = { ...facts, problem: 'sender_of_another_customer' };
  return { facts, owner };
}

async function scheduleNextCheck(
  transaction: Executor,
  context: ChainWorkContext,
  job: chainRepository.ChainJobRow,
  deposit: DepositRow,
  facts: ChainFacts,
): Promise<void> {
  const age = Date.now() - deposit.createdAt.getTime();
  if (facts.state === 'confirming') {
    await chainRepository.rescheduleJob(transaction, job.id, context.pollSeconds, { failed: false });
  } else if (facts.state === 'not_found' && age < NOT_FOUND_GIVE_UP_HOURS * 3_600_000) {
    await chainRepository.rescheduleJob(transaction, job.id, backoffSeconds(context.pollSeconds, Math.floor(age / 60_000 / 5)), { failed: false });
  } else {
    // Confirmed for an admin to decide, failed, mismatched, or not found for a day: nothing more to learn.
    await chainRepository.finishJob(transaction, job.id);
  }
}

/** A hash unknown here may be a transaction of the other network, submitted under the wrong one. */
async function seenOnOtherNetwork(context: ChainWorkContext, network: DepositNetwork, hash: string): Promise<boolean> {
  const other = context.clientOf.get(network === 'ERC20' ? 'TRC20' : 'ERC20');
  if (!other) return false;
  try {
    return (await other.observe(otherNetworkHash(network, hash))).kind !== 'unknown';
  } catch (error) {
    if (error instanceof ChainProviderError) return false;
    throw error;
  }
}
