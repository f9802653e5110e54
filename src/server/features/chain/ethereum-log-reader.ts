/**
 * The chain follower's hot path on Ethereum: a range's USDT Transfer logs read by a plain JSON-RPC
 * `eth_getLogs` and decoded by hand, without viem's transport and formatting layers.
 *
 * Why by hand: `npm run bench -- --follower-only` (bench/follower.ts, RESULTS.md round 19) measured
 * the follower's reading of 50-block ranges of 10,000 logs through viem's client, its capped fetch
 * stream and the generic decoding at 58 to 123 ms a range where a bare loop fetching and parsing the
 * same answers took 33 to 55 ms. Reading the answer as the bare loop does (one `response.json()`) and
 * decoding the fixed-width topics with as few allocations per log as possible brings the two close.
 * Everything else (blocks, receipts, balances) still goes through viem in ethereum-client.ts.
 */
import { ChainProviderError, RangeRefusedError, type FollowedTransfer } from './observation.ts';

/** keccak-256 of `Transfer(address,address,uint256)`, the first topic of every ERC20 Transfer event. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** How providers word a refusal of a range as too wide or too full (Alchemy, Infura, QuickNode, Ankr, geth, Erigon). */
export const RANGE_REFUSAL = /range|more than \d+ results|returned more than|too many|limit exceeded|response size|exceed/i;
/** The largest answer read: a full range of 10,000 logs is about 6 MB; more is refused like a range too wide, so the follower halves it. */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const REQUEST_TIMEOUT_MILLISECONDS = 10_000;

/** A log as `eth_getLogs` answers it; only the fields the follower reads. */
interface RawLog {
  address?: unknown;
  topics?: unknown;
  data?: unknown;
  logIndex?: unknown;
  transactionHash?: unknown;
  blockNumber?: unknown;
  blockHash?: unknown;
}

let nextRequestId = 1;

/** The body of an answer, read whole unless it passes MAX_RESPONSE_BYTES (counted after any decompression). */
async function answerBody(response: Response): Promise<unknown> {
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_RESPONSE_BYTES) {
    await response.body?.cancel();
    throw new RangeRefusedError(`Ethereum provider's response size ${declared} bytes exceeds ${MAX_RESPONSE_BYTES}`);
  }
  // An uncompressed body of a declared length within the cap is read at once, as the bare loop reads it.
  if (declared !== null && response.headers.get('content-encoding') === null) return response.json();
  if (!response.body) return null;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new RangeRefusedError(`Ethereum provider's response size exceeds ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return JSON.parse(Buffer.concat(chunks, bytes).toString('utf8'));
}

/** What a JSON-RPC error says, as one line; a range refusal among them is a RangeRefusedError. */
function rpcFailure(what: string, details: string): ChainProviderError {
  const message = `Ethereum provider: ${what}: ${details.split('\n')[0] ?? ''}`;
  return RANGE_REFUSAL.test(details) ? new RangeRefusedError(message) : new ChainProviderError(message);
}

/** One JSON-RPC call over HTTP POST: its result, or a ChainProviderError (a RangeRefusedError when the provider refuses the range). */
export async function jsonRpcCall(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const id = nextRequestId;
  nextRequestId = nextRequestId >= Number.MAX_SAFE_INTEGER ? 1 : nextRequestId + 1;
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MILLISECONDS),
  });
  let answer: unknown;
  try {
    answer = await answerBody(response);
  } catch (error) {
    if (error instanceof ChainProviderError) throw error;
    if (response.ok) throw error;
    answer = undefined;
  }
  const rpcError = typeof answer === 'object' && answer !== null ? (answer as { error?: unknown }).error : undefined;
  if (typeof rpcError === 'object' && rpcError !== null && typeof (rpcError as { message?: unknown }).message === 'string') {
    throw rpcFailure(method, (rpcError as { message: string }).message);
  }
  if (!response.ok) {
    // A plain HTTP failure (429, 5xx): described by its error text or its status, as viem's transport does.
    throw rpcFailure(`${method} HTTP ${response.status}`, rpcError === undefined ? response.statusText : JSON.stringify(rpcError));
  }
  if (typeof answer !== 'object' || answer === null || !('result' in answer)) throw new ChainProviderError(`Ethereum provider: ${method} answered no result`);
  return (answer as { result: unknown }).result;
}

/** A hexadecimal quantity as JSON-RPC writes it, as a number of at most 2^53; NaN when it is not one. */
function quantity(value: unknown): number {
  return typeof value === 'string' && value.startsWith('0x') && value.length > 2 ? Number(value) : typeof value === 'number' ? value : Number.NaN;
}

/** The logs in chain order (block, then log index); providers answer in that order, so usually nothing moves. */
function inChainOrder(logs: RawLog[]): RawLog[] {
  let previousBlock = -1;
  let previousIndex = -1;
  for (const log of logs) {
    const block = quantity(log.blockNumber);
    const index = quantity(log.logIndex);
    if (!(block > previousBlock || (block === previousBlock && index > previousIndex))) {
      const placed = logs.map((entry) => ({ log: entry, block: quantity(entry.blockNumber) || 0, index: quantity(entry.logIndex) || 0 }));
      placed.sort((a, b) => a.block - b.block || a.index - b.index);
      return placed.map((entry) => entry.log);
    }
    previousBlock = block;
    previousIndex = index;
  }
  return logs;
}

const UPPER_CASE_HEX = /[A-F]/;
/** Hex text in lower case; providers write it so, and then the text itself is kept (no copy). */
function lowerHex(text: string): string {
  return UPPER_CASE_HEX.test(text) ? text.toLowerCase() : text;
}

/** Whether a character code is a hexadecimal digit. */
function isHexDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70);
}

/** The amount of a Transfer event: its data, exactly one 32-byte word (`0x` and 64 hex digits); undefined otherwise. */
function transferAmount(data: unknown): bigint | undefined {
  if (typeof data !== 'string' || data.length !== 66 || data.charCodeAt(0) !== 48 || data.charCodeAt(1) !== 120 || !isHexDigit(data.charCodeAt(65)))
    return undefined;
  try {
    // With the length, the prefix and the last digit checked, BigInt accepts exactly the 64 hex digits.
    return BigInt(data);
  } catch {
    return undefined;
  }
}

/**
 * The USDT Transfer events among a range's logs, in chain order, each with its position within its
 * transaction among the Transfer events of the same contract (decision 036): the credit key's third part.
 * Logs that are not a Transfer event (not three topics, no 32-byte amount) or come from another contract
 * than `usdtContract` (a provider that ignored the filter) are skipped and not counted. In chain order a
 * transaction's logs are next to each other, so its positions are counted without a map of hashes.
 */
export function decodeTransferLogs(logs: RawLog[], usdtContract: string): FollowedTransfer[] {
  const contract = usdtContract.toLowerCase();
  const transfers: FollowedTransfer[] = [];
  // Consecutive logs mostly share a block and often a transaction: what they share is made once.
  let blockNumberText: unknown;
  let blockNumber = 0n;
  let blockHashText: unknown;
  let blockHash = '';
  let transactionHashText: unknown;
  let transactionHash = '';
  let position = 0;
  for (const log of inChainOrder(logs)) {
    const topics = log.topics;
    if (!Array.isArray(topics) || topics.length !== 3) continue;
    const [topic, fromTopic, toTopic] = topics as unknown[];
    if (typeof topic !== 'string' || typeof fromTopic !== 'string' || typeof toTopic !== 'string') continue;
    if (topic !== TRANSFER_TOPIC && topic.toLowerCase() !== TRANSFER_TOPIC) continue;
    const amountUsdtMicros = transferAmount(log.data);
    if (amountUsdtMicros === undefined) continue;
    if (log.address !== usdtContract && (typeof log.address !== 'string' || log.address.toLowerCase() !== contract)) continue;
    if (typeof log.transactionHash !== 'string' || typeof log.blockHash !== 'string' || log.blockNumber === null || log.blockNumber === undefined)
      throw new ChainProviderError('Ethereum provider returned a pending log for a final block');
    if (log.blockNumber !== blockNumberText) {
      blockNumberText = log.blockNumber;
      blockNumber = BigInt(log.blockNumber as string);
      // A transaction's logs are all in one block: a new block starts the count again.
      transactionHashText = undefined;
    }
    if (log.blockHash !== blockHashText) {
      blockHashText = log.blockHash;
      blockHash = lowerHex(log.blockHash);
    }
    if (log.transactionHash === transactionHashText) {
      position += 1;
    } else {
      transactionHashText = log.transactionHash;
      transactionHash = lowerHex(log.transactionHash);
      position = 0;
    }
    transfers.push({
      contract,
      from: lowerHex(`0x${fromTopic.slice(26)}`),
      to: lowerHex(`0x${toTopic.slice(26)}`),
      amountUsdtMicros,
      logIndex: position,
      transactionHash,
      blockNumber,
      blockHash,
    });
  }
  return transfers;
}

/** Every USDT Transfer event in blocks fromBlock..toBlock, in chain order; a range the provider refuses as too wide throws RangeRefusedError. */
export async function readTransferLogs(rpcUrl: string, usdtContract: string, fromBlock: bigint, toBlock: bigint): Promise<FollowedTransfer[]> {
  const result = await jsonRpcCall(rpcUrl, 'eth_getLogs', [
    { address: usdtContract, topics: [TRANSFER_TOPIC], fromBlock: `0x${fromBlock.toString(16)}`, toBlock: `0x${toBlock.toString(16)}` },
  ]);
  if (!Array.isArray(result)) throw new ChainProviderError('Ethereum provider answered eth_getLogs with something other than a list of logs');
  return decodeTransferLogs(result as RawLog[], usdtContract);
}
