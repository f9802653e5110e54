import type { z } from 'zod';
import { isValidTronAddress } from '../settings/addresses.ts';
import { ChainProviderError, type ChainClient, type ChainObservation, type DetectedTransfer } from './observation.ts';
import { isKnownTransaction, nowBlockSchema, observationFromTransactionInfo, transactionInfoSchema, trc20TransfersPageSchema } from './tron-decoding.ts';

const REQUEST_TIMEOUT_MILLISECONDS = 10_000;
/** TronGrid's largest page. */
const SCAN_PAGE_SIZE = 200;
/** Pages read per scan; the rest waits for the next poll, which starts where this one stopped. */
const SCAN_MAX_PAGES = 10;

export interface TronClientOptions {
  apiUrl: string;
  apiKey: string | undefined;
  usdtContract: string;
}

/**
 * TRON through a full node's HTTP API (or a TronGrid-compatible service).
 * Final means /walletsolidity/gettransactioninfobyid returns the transaction;
 * /wallet/gettransactioninfobyid tells "seen, not final yet" from "unknown".
 */
export function createTronClient(options: TronClientOptions): ChainClient {
  async function request<Schema extends z.ZodType>(path: string, schema: Schema, body?: unknown): Promise<z.output<Schema>> {
    let response: Response;
    try {
      response = await fetch(`${options.apiUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(options.apiKey ? { 'TRON-PRO-API-KEY': options.apiKey } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MILLISECONDS),
      });
    } catch (error) {
      throw new ChainProviderError(`TRON provider unreachable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (!response.ok) throw new ChainProviderError(`TRON provider answered HTTP ${response.status} to ${path.split('?')[0]}`);
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new ChainProviderError(`TRON provider sent an answer of unexpected shape to ${path.split('?')[0]}`);
    return parsed.data;
  }

  const nowBlock = () => request('/wallet/getnowblock', nowBlockSchema, {});

  return {
    network: 'TRC20',
    usdtContractKey: options.usdtContract,
    addressKey: (address) => address,

    async observe(transactionHash): Promise<ChainObservation> {
      const solidity = await request('/walletsolidity/gettransactioninfobyid', transactionInfoSchema, { value: transactionHash });
      const full = isKnownTransaction(solidity) ? solidity : await request('/wallet/gettransactioninfobyid', transactionInfoSchema, { value: transactionHash });
      if (!isKnownTransaction(full)) return { kind: 'unknown' };
      return observationFromTransactionInfo(solidity, full, (await nowBlock()).block_header.raw_data.number);
    },

    addressScanner: {
      async scanStart() {
        return BigInt((await nowBlock()).block_header.raw_data.timestamp);
      },

      async scanTransfersTo(depositAddress, scannedThrough) {
        if (!isValidTronAddress(depositAddress)) return { transfers: [], scannedThrough };
        const query = new URLSearchParams({
          only_confirmed: 'true',
          only_to: 'true',
          contract_address: options.usdtContract,
          min_timestamp: scannedThrough.toString(),
          order_by: 'block_timestamp,asc',
          limit: String(SCAN_PAGE_SIZE),
        });
        const transfers: DetectedTransfer[] = [];
        let newest = scannedThrough;
        for (let pageNumber = 0; pageNumber < SCAN_MAX_PAGES; pageNumber += 1) {
          const page = await request(`/v1/accounts/${depositAddress}/transactions/trc20?${query.toString()}`, trc20TransfersPageSchema);
          for (const item of page.data) {
            if (BigInt(item.block_timestamp) > newest) newest = BigInt(item.block_timestamp);
            // The filter is the provider's; the decision is ours, so recipient and token are checked again here.
            if (item.to !== depositAddress || item.token_info.address !== options.usdtContract || (item.type !== undefined && item.type !== 'Transfer')) continue;
            transfers.push({ transactionHash: item.transaction_id.toLowerCase(), from: item.from, amountUsdtMicros: BigInt(item.value) });
          }
          // The next page is the same query with the fingerprint of this one, as TronGrid documents.
          const fingerprint = page.meta?.fingerprint;
          if (fingerprint === undefined || page.data.length === 0) break;
          query.set('fingerprint', fingerprint);
        }
        // Reading starts at min_timestamp inclusive, so transfers in the newest millisecond are read again next time
        // (recording them twice does nothing) rather than skipped when the reading stopped inside that millisecond.
        return { transfers, scannedThrough: newest };
      },
    },
  };
}
