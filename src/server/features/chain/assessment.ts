import { MAX_USDT_MICROS } from '#shared/money';
import type { ChainObservation, TransferLog } from './observation.ts';

export type ChainState = 'unchecked' | 'confirming' | 'confirmed' | 'not_found' | 'mismatch' | 'failed';
export type ChainProblem = 'wrong_recipient' | 'wrong_token' | 'below_minimum' | 'other_network' | 'sender_of_another_customer' | 'amount_too_large';

export interface ChainFacts {
  state: ChainState;
  problem: ChainProblem | null;
  /** The Transfer log the decision rests on, when there is one to show. */
  transfer: TransferLog | undefined;
  confirmations: number | null;
  requiredConfirmations: number | null;
  blockNumber: bigint | null;
}

export interface Expectation {
  usdtContractKey: string;
  /** The operator's deposit address as it was when the deposit was submitted, in comparison form. */
  depositAddressKey: string;
  minimumUsdtMicros: bigint;
  /** The Transfer log this deposit stands for, once chosen: detected deposits from the start, submitted ones once final. */
  boundLogIndex: number | null;
  /** Logs of the same transaction that other deposits stand for; a deposit never takes one of them. */
  takenLogIndexes: ReadonlySet<number>;
}

/** Whether a log pays the operator in USDT. */
function paysOperator(log: TransferLog, expectation: Pick<Expectation, 'usdtContractKey' | 'depositAddressKey'>): boolean {
  return log.contract === expectation.usdtContractKey && log.to === expectation.depositAddressKey;
}

function depositableAmount(log: TransferLog, minimumUsdtMicros: bigint): boolean {
  return log.amountUsdtMicros >= minimumUsdtMicros && log.amountUsdtMicros <= MAX_USDT_MICROS;
}

/**
 * The logs of an included, successful transaction that could each be a deposit
 * of their own: USDT to the operator, an amount the app accepts, and not taken
 * by another deposit. Detection records one deposit per such log.
 */
export function depositableTransfers(observation: ChainObservation, expectation: Omit<Expectation, 'boundLogIndex'>): TransferLog[] {
  if (observation.kind !== 'included' || !observation.succeeded) return [];
  return observation.transfers.filter(
    (log) => paysOperator(log, expectation) && depositableAmount(log, expectation.minimumUsdtMicros) && !expectation.takenLogIndexes.has(log.logIndex),
  );
}

/** The log a deposit stands for: its bound one, or else the first free USDT log to the operator with an acceptable amount (the first free one when none is). */
function chooseLog(usdtTransfers: TransferLog[], expectation: Expectation): TransferLog | undefined {
  if (expectation.boundLogIndex !== null) return usdtTransfers.find((log) => log.logIndex === expectation.boundLogIndex);
  const free = usdtTransfers.filter((log) => log.to === expectation.depositAddressKey && !expectation.takenLogIndexes.has(log.logIndex));
  return free.find((log) => depositableAmount(log, expectation.minimumUsdtMicros)) ?? free[0];
}

/**
 * Judges a transaction on its Transfer event logs, never on its call parameters:
 * it must have succeeded, and the log the deposit stands for must come from the
 * USDT contract, pay the operator's deposit address and carry at least the
 * minimum deposit. A transaction with several such logs is several deposits,
 * one per log; a deposit takes its bound log, or the first one no other deposit
 * took. Only a final transaction is `confirmed`; until then it is `confirming`.
 */
export function assessObservation(observation: ChainObservation, expectation: Expectation): ChainFacts {
  if (observation.kind === 'unknown') {
    return { state: 'not_found', problem: null, transfer: undefined, confirmations: null, requiredConfirmations: null, blockNumber: null };
  }
  if (observation.kind === 'pending') {
    return { state: 'confirming', problem: null, transfer: undefined, confirmations: 0, requiredConfirmations: observation.requiredConfirmations, blockNumber: null };
  }
  const base = { confirmations: observation.confirmations, requiredConfirmations: observation.requiredConfirmations, blockNumber: observation.blockNumber };
  if (!observation.succeeded) return { ...base, state: 'failed', problem: null, transfer: undefined };
  const usdtTransfers = observation.transfers.filter((log) => log.contract === expectation.usdtContractKey);
  if (usdtTransfers.length === 0) return { ...base, state: 'mismatch', problem: 'wrong_token', transfer: observation.transfers[0] };
  const toOperator = usdtTransfers.filter((log) => paysOperator(log, expectation));
  if (expectation.boundLogIndex === null && toOperator.length > 0 && toOperator.every((log) => expectation.takenLogIndexes.has(log.logIndex))) {
    // Submissions and detection of one transaction are serialised (repository.lockChainTransaction), and a
    // transaction another deposit stands for cannot be submitted again; reaching this is a bug.
    throw new Error(`every USDT transfer to the operator in transaction at block ${observation.blockNumber} is another deposit's`);
  }
  const chosen = chooseLog(usdtTransfers, expectation);
  if (!chosen || chosen.to !== expectation.depositAddressKey) return { ...base, state: 'mismatch', problem: 'wrong_recipient', transfer: chosen ?? usdtTransfers[0] };
  if (chosen.amountUsdtMicros < expectation.minimumUsdtMicros) return { ...base, state: 'mismatch', problem: 'below_minimum', transfer: chosen };
  if (chosen.amountUsdtMicros > MAX_USDT_MICROS) return { ...base, state: 'mismatch', problem: 'amount_too_large', transfer: chosen };
  return { ...base, state: observation.final ? 'confirmed' : 'confirming', problem: null, transfer: chosen };
}
