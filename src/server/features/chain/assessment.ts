import { MAX_USDT_MICROS } from '#shared/money';
import type { ChainProblem, ChainStateName as ChainState } from '#shared/contracts/deposits';
import type { ChainObservation, TransferLog } from './observation.ts';

export interface ChainFacts {
  state: ChainState;
  problem: ChainProblem | null;
  /** The Transfer log the decision rests on, when there is one to show. */
  transfer: TransferLog | undefined;
  confirmations: number | null;
  requiredConfirmations: number | null;
  blockNumber: bigint | null;
  /**
   * Whether the transfer's sender is a wallet the deposit's own customer proved; null without a transfer. The follower
   * sets it true for a transfer to the customer's own deposit address, which it credits without this assessment.
   */
  senderProven: boolean | null;
  /** How many USDT transfers to the deposit address the transaction holds; null when it was not read in full. */
  transfersToAddress: number | null;
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
  /** The customer the deposit belongs to. */
  claimantUserId: string;
  /** What the customer typed, which decides between several transfers when nothing else does; null for detected deposits. */
  typedAmountUsdtMicros: bigint | null;
  /** The customer who proved each sender of the transaction's transfers, by address key; senders nobody proved are absent. */
  senderOwners: ReadonlyMap<string, string>;
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
export function depositableTransfers(
  observation: ChainObservation,
  expectation: Pick<Expectation, 'usdtContractKey' | 'depositAddressKey' | 'minimumUsdtMicros' | 'takenLogIndexes'>,
): TransferLog[] {
  if (observation.kind !== 'included' || !observation.succeeded) return [];
  return observation.transfers.filter(
    (log) => paysOperator(log, expectation) && depositableAmount(log, expectation.minimumUsdtMicros) && !expectation.takenLogIndexes.has(log.logIndex),
  );
}

type Choice =
  { log: TransferLog } | { problem: 'wrong_recipient' | 'transfer_taken' | 'sender_of_another_customer' | 'ambiguous'; shown: TransferLog | undefined };

/**
 * The log a deposit stands for: its bound one, or else one of the free USDT logs to the operator
 * (decision 037). A claim never takes a transfer whose sender another customer proved; among several
 * it prefers one from the claimant's own proven wallets, then one whose amount equals the typed
 * amount, and otherwise it is ambiguous and left to an admin. Acceptable amounts come first, so a
 * lone transfer below the minimum is still chosen, to show why it is not credited.
 */
function chooseLog(usdtTransfers: TransferLog[], expectation: Expectation): Choice {
  if (expectation.boundLogIndex !== null) {
    const bound = usdtTransfers.find((log) => log.logIndex === expectation.boundLogIndex);
    return bound && bound.to === expectation.depositAddressKey ? { log: bound } : { problem: 'wrong_recipient', shown: bound ?? usdtTransfers[0] };
  }
  const toAddress = usdtTransfers.filter((log) => log.to === expectation.depositAddressKey);
  if (toAddress.length === 0) return { problem: 'wrong_recipient', shown: usdtTransfers[0] };
  const free = toAddress.filter((log) => !expectation.takenLogIndexes.has(log.logIndex));
  if (free.length === 0) return { problem: 'transfer_taken', shown: undefined };
  const ownerOf = (log: TransferLog) => expectation.senderOwners.get(log.from);
  const claimable = free.filter((log) => ownerOf(log) === undefined || ownerOf(log) === expectation.claimantUserId);
  if (claimable.length === 0) return { problem: 'sender_of_another_customer', shown: free[0] };
  const acceptable = claimable.filter((log) => depositableAmount(log, expectation.minimumUsdtMicros));
  const pool = acceptable.length > 0 ? acceptable : claimable;
  const chosen =
    pool.length === 1
      ? pool[0]
      : (pool.find((log) => ownerOf(log) === expectation.claimantUserId) ?? pool.find((log) => log.amountUsdtMicros === expectation.typedAmountUsdtMicros));
  return chosen ? { log: chosen } : { problem: 'ambiguous', shown: undefined };
}

/**
 * Judges a transaction on its Transfer event logs, never on its call parameters:
 * it must have succeeded, and the log the deposit stands for must come from the
 * USDT contract, pay the operator's deposit address and carry at least the
 * minimum deposit. A transaction with several such logs is several deposits,
 * one per log; a deposit takes its bound log, or one chosen by chooseLog. Only a
 * final transaction is `confirmed`; until then it is `confirming`.
 */
export function assessObservation(observation: ChainObservation, expectation: Expectation): ChainFacts {
  const unread = { senderProven: null, transfersToAddress: null };
  if (observation.kind === 'unknown') {
    return { state: 'not_found', problem: null, transfer: undefined, confirmations: null, requiredConfirmations: null, blockNumber: null, ...unread };
  }
  if (observation.kind === 'pending') {
    return {
      state: 'confirming',
      problem: null,
      transfer: undefined,
      confirmations: 0,
      requiredConfirmations: observation.requiredConfirmations,
      blockNumber: null,
      ...unread,
    };
  }
  const base = { confirmations: observation.confirmations, requiredConfirmations: observation.requiredConfirmations, blockNumber: observation.blockNumber };
  if (!observation.succeeded) return { ...base, ...unread, state: 'failed', problem: null, transfer: undefined };
  const usdtTransfers = observation.transfers.filter((log) => log.contract === expectation.usdtContractKey);
  const transfersToAddress = usdtTransfers.filter((log) => paysOperator(log, expectation)).length;
  if (usdtTransfers.length === 0)
    return { ...base, ...unread, transfersToAddress, state: 'mismatch', problem: 'wrong_token', transfer: observation.transfers[0] };
  const choice = chooseLog(usdtTransfers, expectation);
  if ('problem' in choice) {
    // Another customer's transfer, a taken one or an ambiguous choice may still settle while the transaction is not final.
    const settled = observation.final || choice.problem === 'wrong_recipient';
    return {
      ...base,
      transfersToAddress,
      senderProven: choice.shown ? expectation.senderOwners.get(choice.shown.from) === expectation.claimantUserId : null,
      state: settled ? 'mismatch' : 'confirming',
      problem: settled ? choice.problem : null,
      transfer: choice.shown,
    };
  }
  const chosen = choice.log;
  const facts = { ...base, transfersToAddress, senderProven: expectation.senderOwners.get(chosen.from) === expectation.claimantUserId, transfer: chosen };
  if (chosen.amountUsdtMicros < expectation.minimumUsdtMicros) return { ...facts, state: 'mismatch', problem: 'below_minimum' };
  if (chosen.amountUsdtMicros > MAX_USDT_MICROS) return { ...facts, state: 'mismatch', problem: 'amount_too_large' };
  return { ...facts, state: observation.final ? 'confirmed' : 'confirming', problem: null };
}
