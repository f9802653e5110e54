import type { DepositNetwork } from '#shared/contracts/enums';

/** One ERC20/TRC20 Transfer event log, addresses in the network's comparison form (see ChainClient.addressKey). */
export interface TransferLog {
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

/** A USDT transfer to the operator's address found by scanning, without a hash from the customer. */
export interface DetectedTransfer {
  transactionHash: string;
  from: string;
  amountUsdtMicros: bigint;
}

/** Reads one network through configuration; every method may throw ChainProviderError. */
export interface ChainClient {
  network: DepositNetwork;
  /** The configured USDT contract in comparison form. */
  usdtContractKey: string;
  /** The form in which addresses of this network are compared: lower case on Ethereum, base58check as is on TRON. */
  addressKey(address: string): string;
  observe(transactionHash: string): Promise<ChainObservation>;
  /** Where a first scan starts: the newest final position, so history before the first start is not credited by itself. */
  scanStart(): Promise<bigint>;
  /** Final USDT transfers to `depositAddress` after `scannedThrough`, and how far the scan read. */
  scanTransfersTo(depositAddress: string, scannedThrough: bigint): Promise<{ transfers: DetectedTransfer[]; scannedThrough: bigint }>;
}

/** The provider could not be read (network error, HTTP 429 or 5xx, malformed answer): try again later. */
export class ChainProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainProviderError';
  }
}
