import { z } from 'zod';
import { tronAccountIdOf } from '../settings/addresses.ts';
import { ChainProviderError, type ChainAccountReader, type ChainClient, type ChainObservation, type FollowedTransfer } from './observation.ts';
import {
  blockSchema,
  blockTransactionInfoSchema,
  decodeTransferLogs,
  isKnownTransaction,
  observationFromTransactionInfo,
  transactionInfoSchema,
  transactionSucceeded,
} from './tron-decoding.ts';

const REQUEST_TIMEOUT_MILLISECONDS = 10_000;
/** Blocks read per follower range: one request per block (and one more per block with a USDT transfer). */
const MAX_RANGE_BLOCKS = 100;

/**
 * About what a TRC20 USDT transfer burns in TRX when the sending address has no energy of its own:
 * 13 to 28 TRX at 2024-2025 energy prices (more when the recipient holds no USDT yet), so 30 TRX, or
 * energy delegated to the address beforehand (about 65,000 units).
 */
const SWEEP_FEE_SUN = 30_000_000n;

/** `triggerconstantcontract`: a read-only contract call; `constant_result` holds the 32-byte answer words in hex. */
const constantCallSchema = z.object({
  result: z.object({ result: z.boolean().optional(), message: z.string().optional() }).optional(),
  constant_result: z.array(z.string().regex(/^[0-9a-fA-F]*$/)).optional(),
});
/** `getaccount`: an account that never received TRX answers `{}`. */
const accountSchema = z.object({ balance: z.number().int().nonnegative().optional() });

export interface TronClientOptions {
  /** A full node's HTTP API (/wallet/…), port 8090 on a self-hosted java-tron node. */
  fullNodeUrl: string;
  /** The solidity node's HTTP API (/walletsolidity/…), port 8091 on a self-hosted node; TronGrid serves both at one URL. */
  solidityNodeUrl: string;
  apiKey: string | undefined;
  usdtContract: string;
}

/** A POST to the node: /walletsolidity/… to the solidity node, the rest to the full node; any failure is a ChainProviderError. */
type TronRequest = <Schema extends z.ZodType>(path: string, schema: Schema, body: unknown) => Promise<z.output<Schema>>;

function tronRequester(options: TronClientOptions): TronRequest {
  return async (path, schema, body) => {
    const base = path.startsWith('/walletsolidity/') ? options.solidityNodeUrl : options.fullNodeUrl;
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', ...(options.apiKey ? { 'TRON-PRO-API-KEY': options.apiKey } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MILLISECONDS),
      });
    } catch (error) {
      throw new ChainProviderError(`TRON provider unreachable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (!response.ok) throw new ChainProviderError(`TRON provider answered HTTP ${response.status} to ${path}`);
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new ChainProviderError(`TRON provider sent an answer of unexpected shape to ${path}`);
    return parsed.data;
  };
}

/** Balances through the solidity node: the state after its newest final block, the only state a node reads. */
function tronAccounts(request: TronRequest, options: TronClientOptions): ChainAccountReader {
  return {
    nativeUnit: { coin: 'TRX', decimals: 6 },
    // java-tron's triggerconstantcontract has no block parameter: the solidity node's newest state only.
    readsAtBlock: false,
    async usdtBalanceOf(address) {
      const accountId = tronAccountIdOf(address);
      if (!accountId) throw new ChainProviderError(`not a TRON address: ${address}`);
      const answer = await request('/walletsolidity/triggerconstantcontract', constantCallSchema, {
        owner_address: address,
        contract_address: options.usdtContract,
        function_selector: 'balanceOf(address)',
        parameter: Buffer.from(accountId).toString('hex').padStart(64, '0'),
        visible: true,
      });
      const word = answer.constant_result?.[0];
      if (answer.result?.result !== true || word === undefined || word.length !== 64) throw new ChainProviderError('TRON node refused the balanceOf call');
      return BigInt(`0x${word}`);
    },
    async nativeBalanceOf(address) {
      return BigInt((await request('/walletsolidity/getaccount', accountSchema, { address, visible: true })).balance ?? 0);
    },
    sweepFeeEstimate: () => Promise.resolve(SWEEP_FEE_SUN),
  };
}

/**
 * TRON through a node's HTTP API (decision 036). Final means the solidity node
 * returns it: /walletsolidity/gettransactioninfobyid for one transaction, and
 * the follower reads final blocks through /walletsolidity/getnowblock,
 * /getblockbynum and /gettransactioninfobyblocknum, which a self-hosted node and
 * TronGrid both serve. The full node (/wallet/…) tells "seen, not final yet"
 * from "unknown".
 */
export function createTronClient(options: TronClientOptions): ChainClient {
  const request = tronRequester(options);

  async function block(blockNumber: bigint) {
    const found = await request('/walletsolidity/getblockbynum', blockSchema, { num: Number(blockNumber) });
    if (BigInt(found.block_header.raw_data.number) !== blockNumber)
      throw new ChainProviderError(`TRON solidity node returned another block for ${blockNumber}`);
    return { number: blockNumber, hash: found.blockID.toLowerCase(), parentHash: found.block_header.raw_data.parentHash.toLowerCase() };
  }

  /** The USDT transfers of one final block, each with its position in its transaction's log list. */
  async function transfersOfBlock(blockNumber: bigint): Promise<FollowedTransfer[]> {
    const infos = await request('/walletsolidity/gettransactioninfobyblocknum', blockTransactionInfoSchema, { num: Number(blockNumber) });
    const transfers = infos.filter(transactionSucceeded).flatMap((info) =>
      decodeTransferLogs(info.log ?? [])
        .filter((transfer) => transfer.contract === options.usdtContract)
        .map((transfer) => ({ ...transfer, transactionHash: info.id.toLowerCase(), blockNumber, blockHash: '' })),
    );
    if (transfers.length === 0) return [];
    const { hash } = await block(blockNumber);
    return transfers.map((transfer) => ({ ...transfer, blockHash: hash }));
  }

  return {
    network: 'TRC20',
    usdtContractKey: options.usdtContract,
    addressKey: (address) => address,

    async observe(transactionHash): Promise<ChainObservation> {
      const solidity = await request('/walletsolidity/gettransactioninfobyid', transactionInfoSchema, { value: transactionHash });
      const full = isKnownTransaction(solidity) ? solidity : await request('/wallet/gettransactioninfobyid', transactionInfoSchema, { value: transactionHash });
      if (!isKnownTransaction(full)) return { kind: 'unknown' };
      const newest = await request('/wallet/getnowblock', blockSchema, {});
      return observationFromTransactionInfo(solidity, full, newest.block_header.raw_data.number);
    },

    follower: {
      maxRangeBlocks: MAX_RANGE_BLOCKS,
      async finalBlockNumber() {
        return BigInt((await request('/walletsolidity/getnowblock', blockSchema, {})).block_header.raw_data.number);
      },
      block,
      async transfersIn(fromBlock, toBlock) {
        const transfers: FollowedTransfer[] = [];
        for (let blockNumber = fromBlock; blockNumber <= toBlock; blockNumber += 1n) transfers.push(...(await transfersOfBlock(blockNumber)));
        return transfers;
      },
    },

    accounts: tronAccounts(request, options),
  };
}
