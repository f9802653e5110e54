import { createPublicClient, http, TransactionNotFoundError, TransactionReceiptNotFoundError, type Hex, type PublicClient } from 'viem';
import { ChainProviderError, type ChainAccountReader, type ChainClient, type ChainObservation, type TransferLog } from './observation.ts';
import { MAX_RESPONSE_BYTES, readTransferLogs, TRANSFER_TOPIC } from './ethereum-log-reader.ts';

/** Blocks read per log query at most; a provider that refuses a range gets half of it (see the follower). */
const MAX_SCAN_BLOCKS = 2_000n;
const REQUEST_TIMEOUT_MILLISECONDS = 10_000;
/** Gas of one ERC20 transfer to an address that already holds the token, with room for USDT's own code (about 41,000 to 63,000 on mainnet). */
const SWEEP_GAS = 65_000n;
const BALANCE_OF_ABI = [
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'owner', type: 'address' }], outputs: [{ name: '', type: 'uint256' }] },
] as const;

export interface EthereumClientOptions {
  rpcUrl: string;
  usdtContract: string;
  /** N confirmations instead of the `finalized` block, when set. */
  confirmations: number | undefined;
}

interface RawLog {
  address: string;
  topics: readonly string[];
  data: string;
  logIndex: string | number | null;
  transactionHash: string | null;
  blockNumber: string | bigint | null;
  blockHash: string | null;
}

/** The Transfer event a log carries, when it is one: three topics and one 32-byte word of data. */
function decodeTransfer(log: Pick<RawLog, 'address' | 'topics' | 'data'>): Omit<TransferLog, 'logIndex'> | undefined {
  const [topic, fromTopic, toTopic] = log.topics;
  if (log.topics.length !== 3 || topic?.toLowerCase() !== TRANSFER_TOPIC || fromTopic === undefined || toTopic === undefined) return undefined;
  if (!/^0x[0-9a-fA-F]{64}$/.test(log.data)) return undefined;
  return {
    contract: log.address.toLowerCase(),
    from: `0x${fromTopic.slice(26)}`.toLowerCase(),
    to: `0x${toTopic.slice(26)}`.toLowerCase(),
    amountUsdtMicros: BigInt(log.data),
  };
}

/**
 * Decodes the Transfer events of logs in chain order, each with its position
 * within its transaction among the Transfer events of the same contract: the
 * same whichever block or log index the transaction lands at (decision 036).
 */
function transfersWithPositions<Extra>(logs: readonly RawLog[], extra: (log: RawLog, transfer: TransferLog) => TransferLog & Extra): (TransferLog & Extra)[] {
  const counts = new Map<string, number>();
  const transfers: (TransferLog & Extra)[] = [];
  for (const log of logs) {
    const transfer = decodeTransfer(log);
    if (!transfer) continue;
    const key = `${log.transactionHash ?? ''}:${transfer.contract}`;
    const position = counts.get(key) ?? 0;
    counts.set(key, position + 1);
    transfers.push(
      extra(log, { contract: transfer.contract, from: transfer.from, to: transfer.to, amountUsdtMicros: transfer.amountUsdtMicros, logIndex: position }),
    );
  }
  return transfers;
}

/** The newest final block, and how many confirmations a block needs to be final (for display). */
type Finality = (latest: bigint) => Promise<{ finalBlock: bigint; requiredConfirmations: (blockNumber: bigint) => number }>;

function finalityOf(client: PublicClient, options: EthereumClientOptions): Finality {
  return async (latest) => {
    if (options.confirmations !== undefined) {
      const required = options.confirmations;
      // A young chain has no block that deep yet; its genesis block stands in.
      const deep = latest - BigInt(required) + 1n;
      return { finalBlock: deep < 0n ? 0n : deep, requiredConfirmations: () => required };
    }
    const finalized = await client.getBlock({ blockTag: 'finalized' });
    // Shown as the confirmations needed: how deep the finalized block lies now, at least one.
    const depth = Math.max(1, Number(latest - finalized.number) + 1);
    return { finalBlock: finalized.number, requiredConfirmations: () => depth };
  };
}

/** What the chain says about one transaction: unknown, in the mempool, or in a block with its Transfer logs. */
async function observeTransaction(client: PublicClient, options: EthereumClientOptions, finality: Finality, hash: Hex): Promise<ChainObservation> {
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
    transfers: transfersWithPositions(receipt.logs, (_log, transfer) => transfer),
  };
}

function ethereumAccounts(client: PublicClient, options: EthereumClientOptions): ChainAccountReader {
  return {
    nativeUnit: { coin: 'ETH', decimals: 18 },
    readsAtBlock: true,
    usdtBalanceOf: (address, blockNumber) =>
      providerCall(() =>
        client.readContract({
          address: options.usdtContract as Hex,
          abi: BALANCE_OF_ABI,
          functionName: 'balanceOf',
          args: [address as Hex],
          ...(blockNumber === undefined ? {} : { blockNumber }),
        }),
      ),
    nativeBalanceOf: (address) => providerCall(() => client.getBalance({ address: address as Hex })),
    sweepFeeEstimate: () => providerCall(async () => (await client.getGasPrice()) * SWEEP_GAS),
  };
}

/**
 * fetch for viem's transport (blocks, receipts, balances), with the answer's body cut off (an error) once it
 * passes MAX_RESPONSE_BYTES: viem's own cap reads the body chunk by chunk into a string.
 */
async function cappedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_RESPONSE_BYTES) {
    await response.body?.cancel();
    throw new ChainProviderError(`Ethereum provider's response size ${declared} bytes exceeds ${MAX_RESPONSE_BYTES}`);
  }
  if (!response.body) return response;
  let bytes = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        if (bytes > MAX_RESPONSE_BYTES) controller.error(new ChainProviderError(`Ethereum provider's response size exceeds ${MAX_RESPONSE_BYTES} bytes`));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * Ethereum through any JSON-RPC endpoint. Final means the receipt's block is at
 * or below the `finalized` block, or N blocks deep when ERC20_CONFIRMATIONS=N.
 */
export function createEthereumClient(options: EthereumClientOptions): ChainClient {
  const client: PublicClient = createPublicClient({
    transport: http(options.rpcUrl, { timeout: REQUEST_TIMEOUT_MILLISECONDS, retryCount: 0, fetchFn: cappedFetch, maxResponseBodySize: false }),
  });
  const finality = finalityOf(client, options);
  return {
    network: 'ERC20',
    usdtContractKey: options.usdtContract.toLowerCase(),
    addressKey: (address) => address.toLowerCase(),
    observe: (transactionHash) => providerCall(() => observeTransaction(client, options, finality, transactionHash as Hex)),
    follower: {
      maxRangeBlocks: Number(MAX_SCAN_BLOCKS),
      finalBlockNumber: () => providerCall(async () => (await finality(await client.getBlockNumber({ cacheTime: 0 }))).finalBlock),
      block: (blockNumber) =>
        providerCall(async () => {
          const block = await client.getBlock({ blockNumber });
          if (block.hash === null) throw new ChainProviderError(`Ethereum provider returned block ${blockNumber} without a hash`);
          return { number: block.number, hash: block.hash.toLowerCase(), parentHash: block.parentHash.toLowerCase() };
        }),
      // The hot path: a plain JSON-RPC read decoded by hand (ethereum-log-reader.ts).
      transfersIn: (fromBlock, toBlock) => providerCall(() => readTransferLogs(options.rpcUrl, options.usdtContract, fromBlock, toBlock)),
    },
    accounts: ethereumAccounts(client, options),
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
