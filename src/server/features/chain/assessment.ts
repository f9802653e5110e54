import { MAX_USDT_MICROS } from '../../../shared/money.ts';
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
}

/**
 * Judges a transaction on its Transfer event logs, never on its call parameters:
 * it must have succeeded, and one of its logs must come from the USDT contract,
 * pay the operator's deposit address and carry at least the minimum deposit.
 * Only a final transaction is `confirmed`; until then it is `confirming`.
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
  const toOperator = usdtTransfers.filter((log) => log.to === expectation.depositAddressKey);
  const chosen = toOperator[0];
  if (!chosen) return { ...base, state: 'mismatch', problem: 'wrong_recipient', transfer: usdtTransfers[0] };
  if (chosen.amountUsdtMicros < expectation.minimumUsdtMicros) return { ...base, state: 'mismatch', problem: 'below_minimum', transfer: chosen };
  if (chosen.amountUsdtMicros > MAX_USDT_MICROS) return { ...base, state: 'mismatch', problem: 'amount_too_large', transfer: chosen };
  return { ...base, state: observation.final ? 'confirmed' : 'confirming', problem: null, transfer: chosen };
}
