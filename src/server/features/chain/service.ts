/*
 * What other features ask of the chain feature: a new deposit's check, the
 * lock a submission of a transaction hash takes against detection, and
 * checking a customer's waiting deposits again once they proved a wallet, and
 * recording a released transfer as its owner's detected deposit.
 * The rest of the feature is the worker (worker.ts), which every process runs; the
 * entry point (main.ts) starts it from there, so that this file, which the deposits
 * feature imports, does not lead back to the deposits feature through the worker.
 */
export { enqueueDepositCheck, insertDetectedDeposit, lockChainTransaction, reopenPendingChecks } from './repository.ts';
