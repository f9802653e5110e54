/*
 * What other features ask of the chain feature: a new deposit's check, the
 * lock a submission of a transaction hash takes against detection, and
 * checking a customer's waiting deposits again once they proved a wallet, and
 * recording a released transfer as its owner's detected deposit.
 * The rest of the feature is the worker (worker.ts), which every process runs.
 */
export { enqueueDepositCheck, insertDetectedDeposit, lockChainTransaction, reopenPendingChecks } from './repository.ts';
export { chainClientsFromConfig, createChainWorker, type ChainWorker } from './worker.ts';
