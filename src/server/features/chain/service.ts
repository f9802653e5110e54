/*
 * What other features ask of the chain feature: a new deposit's check, and
 * checking a customer's waiting deposits again once they proved a wallet.
 * The rest of the feature is the worker (worker.ts), which every process runs.
 */
export { enqueueDepositCheck, reopenPendingChecks } from './repository.ts';
export { chainClientsFromConfig, createChainWorker, type ChainWorker } from './worker.ts';
