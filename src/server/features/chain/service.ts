/*
 * What other features ask of the chain feature: a new deposit's check, the
 * lock a submission of a transaction hash takes against detection, and
 * checking a customer's waiting deposits again once they proved a wallet, and
 * recording a released transfer as its owner's detected deposit.
 * The rest of the feature is the worker (worker.ts), which every process runs; the
 * entry point (main.ts) starts it from there, so that this file, which the deposits
 * feature imports, does not lead back to the deposits feature through the worker.
 */
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import * as chainRepository from './repository.ts';

/** Queues the on-chain check of a deposit just submitted with its transaction hash. */
export function enqueueDepositCheck(db: Executor, depositId: string, network: DepositNetwork): Promise<void> {
  return chainRepository.enqueueDepositCheck(db, depositId, network);
}

/** Checks again, at once, a customer's pending deposits on a network: a wallet they just proved may settle them. */
export function reopenPendingChecks(db: Executor, userId: string, network: DepositNetwork): Promise<void> {
  return chainRepository.reopenPendingChecks(db, userId, network);
}

/**
 * Serialises, until the end of the transaction, every write that binds deposits to the Transfer logs of one
 * on-chain transaction: a customer's submission of its hash takes it against detection and verification.
 */
export function lockChainTransaction(db: Executor, network: DepositNetwork, transactionHash: string): Promise<void> {
  return chainRepository.lockChainTransaction(db, network, transactionHash);
}

/**
 * Records a deposit for one Transfer log found without a submitted hash (a released transfer, for its owner),
 * bound to that log from the start; undefined when a deposit already stands for the log.
 */
export function insertDetectedDeposit(
  db: Executor,
  values: { userId: string; network: DepositNetwork; amountUsdtMicros: bigint; transactionHash: string; depositAddress: string; logIndex: number },
): Promise<string | undefined> {
  return chainRepository.insertDetectedDeposit(db, values);
}
