import type { DepositNetwork } from '#shared/contracts/enums';

/** One ERC20/TRC20 Transfer event log, addresses in the network's comparison form (see ChainClient.addressKey). */
export interface TransferLog {
  /**
   * The log's position within its transaction, which does not change when the
   * transaction lands in another block (decision 036): on Ethereum its place
   * among the transaction's Transfer events of the same contract, on TRON its
   * place in the transaction's log list. With network and hash, the credit key.
   */
  logIndex: number;
  contract: string;
  from: string;
  to: string;
  amountUsdtMicros: bigint;
}

/** What a network says about one transaction hash. */
export type ChainObservation =
  /** The network does not know the hash. */
  | { kind: 'unknown' }
  /** Known, but not in a block yet (Ethereum mempool) or in a block that is not final yet and cannot be read in full (TRON). */
  | { kind: 'pending'; requiredConfirmations: number }
  /** In a block: succeeded or failed, with its Transfer logs, and whether it is final. */
  | {
      kind: 'included';
      succeeded: boolean;
      blockNumber: bigint;
      confirmations: number;
      requiredConfirmations: number;
      final: boolean;
      transfers: TransferLog[];
    };

/** A block as the follower keeps it: its number, hash and parent's hash. */
export interface FollowedBlock {
  number: bigint;
  hash: string;
  parentHash: string;
}

/** A USDT transfer read from a range of final blocks, with where it landed. */
export interface FollowedTransfer extends TransferLog {
  transactionHash: string;
  blockNumber: bigint;
  blockHash: string;
}

/**
 * Reads final blocks in order (decision 036). Every method may throw
 * ChainProviderError; `transfersIn` throws RangeRefusedError when the provider
 * refuses a range as too wide, and the follower halves it.
 */
export interface ChainFollowerSource {
  /** The newest final block: the `finalized` tag (or N deep) on Ethereum, the solidity node's newest block on TRON. */
  finalBlockNumber(): Promise<bigint>;
  block(blockNumber: bigint): Promise<FollowedBlock>;
  /** Every Transfer event of the USDT contract in blocks fromBlock..toBlock, in chain order. */
  transfersIn(fromBlock: bigint, toBlock: bigint): Promise<FollowedTransfer[]>;
  /** The widest range asked for at once. */
  maxRangeBlocks: number;
}

/** Reads one network through configuration; every method may throw ChainProviderError. */
export interface ChainClient {
  network: DepositNetwork;
  /** The configured USDT contract in comparison form. */
  usdtContractKey: string;
  /** The form in which addresses of this network are compared: lower case on Ethereum, base58check as is on TRON. */
  addressKey(address: string): string;
  observe(transactionHash: string): Promise<ChainObservation>;
  /** Detection without a hash: final blocks read in order (decision 036). */
  follower: ChainFollowerSource;
  /** Balances for the reconciliation and the sweep plan (decision 045). */
  accounts: ChainAccountReader;
}

/** Reads what an address holds, as of final blocks where the network allows it. */
export interface ChainAccountReader {
  /**
   * Whether `usdtBalanceOf` reads at the block it is given (Ethereum's `eth_call` at a block number).
   * A TRON node reads only the state after its newest final block, whatever block is asked for.
   */
  readsAtBlock: boolean;
  /** The USDT an address holds, in micro-USDT: ERC20 `balanceOf` at `blockNumber` (the follower's cursor), TRC20 through the solidity node. */
  usdtBalanceOf(address: string, blockNumber: bigint | undefined): Promise<bigint>;
  /** The network's own coin an address holds, in its smallest unit (wei, sun): what pays for a sweep. */
  nativeBalanceOf(address: string): Promise<bigint>;
  /** About what one USDT transfer from an address costs in the network's own coin (wei, sun). */
  sweepFeeEstimate(): Promise<bigint>;
  /** The unit of `nativeBalanceOf` and `sweepFeeEstimate`, and how many of them make one coin. */
  nativeUnit: { coin: 'ETH' | 'TRX'; decimals: number };
}

/** The provider could not be read (network error, HTTP 429 or 5xx, malformed answer): try again later. */
export class ChainProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainProviderError';
  }
}

/** The provider refused a block range as too wide or with too many results; a narrower one may pass. */
export class RangeRefusedError extends ChainProviderError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RangeRefusedError';
  }
}
