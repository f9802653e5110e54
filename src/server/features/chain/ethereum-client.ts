import {
  createPublicClient,
  http,
  parseAbiItem,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Hex,
  type Log,
  type PublicClient,
} from 'viem';
import { ChainProviderError, type ChainClient, type ChainObservation, type DetectedTransfer, type TransferLog } from './observation.ts';

const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
/** Blocks read per log query; public endpoints refuse wide ranges. */
const MAX_SCAN_BLOCKS = 2_000n;
const REQUEST_TIMEOUT_MILLISECONDS = 10_000;

export interface EthereumClientOptions {
  rpcUrl: string;
  usdtContract: string;
  /** N confirmations instead of the `finalized` block, when set. */
  confirmations: number | undefined;
}

function transfersOf(logs: Log[]): TransferLog[] {
  return parseEventLogs({ abi: [TRANSFER_EVENT], logs, eventName: 'Transfer', strict: true }).map((log) => ({
    logIndex: log.logIndex,
    contract: log.address.toLowerCase(),
    from: log.args.from.toLowerCase(),
    to: log.args.to.toLowerCase(),
    amountUsdtMicros: log.args.value,
  }));
}

/**
 * Ethereum through any JSON-RPC endpoint. Final means the receipt's block is at
 * or below the `finalized` block, or N blocks deep when ERC20_CONFIRMATIONS=N.
 */
export function createEthereumClient(options: EthereumClientOptions): ChainClient {
  const client: PublicClient = createPublicClient({ transport: http(options.rpcUrl, { timeout: REQUEST_TIMEOUT_MILLISECONDS, retryCount: 0 }) });
  const usdtContractKey = options.usdtContract.toLowerCase();

  /** The newest final block, and how many confirmations a block needs to be final (for display). */
  async function finality(latest: bigint): Promise<{ finalBlock: bigint; requiredConfirmations: (blockNumber: bigint) => number }> {
    if (options.confirmations !== undefined) {
      const required = options.confirmations;
      return { finalBlock: latest - BigInt(required) + 1n, requiredConfirmations: () => required };
    }
    const finalized = await client.getBlock({ blockTag: 'finalized' });
    // Shown as the confirmations needed: how deep the finalized block lies now, at least one.
    const depth = Math.max(1, Number(latest - finalized.number) + 1);
    return { finalBlock: finalized.number, requiredConfirmations: () => depth };
  }

  return {
    network: 'ERC20',
    usdtContractKey,
    addressKey: (address) => address.toLowerCase(),

    async observe(transactionHash): Promise<ChainObservation> {
      return providerCall(async () => {
        const hash = transactionHash as Hex;
        let receipt;
        try {
          receipt = await client.getTransactionReceipt({ hash });
        } catch (error) {
          if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
          try {
            await client.getTransaction({ hash });
          } catch (transactionError) {
            if (transactionError instanceof TransactionNotFoundError) return { kind: 'unknown' };
            throw transactionError;
          }
          return { kind: 'pending', requiredConfirmations: options.confirmations ?? 1 };
        }
        const latest = await client.getBlockNumber({ cacheTime: 0 });
        const { finalBlock, requiredConfirmations } = await finality(latest);
        const confirmations = Math.max(0, Number(latest - receipt.blockNumber) + 1);
        return {
          kind: 'included',
          succeeded: receipt.status === 'success',
          blockNumber: receipt.blockNumber,
          confirmations,
          requiredConfirmations: requiredConfirmations(receipt.blockNumber),
          final: receipt.blockNumber <= finalBlock,
          transfers: transfersOf(receipt.logs),
        };
      });
    },

    async scanStart() {
      return providerCall(async () => (await finality(await client.getBlockNumber({ cacheTime: 0 }))).finalBlock);
    },

    async scanTransfersTo(depositAddress, scannedThrough) {
      return providerCall(async () => {
        const { finalBlock } = await finality(await client.getBlockNumber({ cacheTime: 0 }));
        const fromBlock = scannedThrough + 1n;
        if (fromBlock > finalBlock) return { transfers: [], scannedThrough };
        const toBlock = fromBlock + MAX_SCAN_BLOCKS - 1n < finalBlock ? fromBlock + MAX_SCAN_BLOCKS - 1n : finalBlock;
        const logs = await client.getLogs({
          address: options.usdtContract as Hex,
          event: TRANSFER_EVENT,
          args: { to: depositAddress as Hex },
          fromBlock,
          toBlock,
          strict: true,
        });
        const transfers: DetectedTransfer[] = logs.map((log) => ({
          transactionHash: log.transactionHash.toLowerCase(),
          from: log.args.from.toLowerCase(),
          amountUsdtMicros: log.args.value,
        }));
        return { transfers, scannedThrough: toBlock };
      });
    },
  };
}

/** Every provider failure becomes a ChainProviderError, so the worker retries it later and never fails a request. */
async function providerCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ChainProviderError) throw error;
    throw new ChainProviderError(`Ethereum provider: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, { cause: error });
  }
}
