import { z } from 'zod';
import { tronAddressFromAccountId } from '../settings/addresses.ts';
import type { ChainObservation, TransferLog } from './observation.ts';

/** A TRON block is final ("solidified") once 2/3 of the 27 super representatives built on it: 19 blocks. */
export const TRON_SOLIDIFICATION_BLOCKS = 19;

/*
 * The TRON HTTP API's documented answers, read with zod. Only the fields we
 * decide on are declared; the rest pass through unread.
 */

/** keccak-256("Transfer(address,address,uint256)"), the first topic of every ERC20/TRC20 Transfer event. */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const hex = (length?: number) => z.string().regex(length === undefined ? /^(0x)?([0-9a-fA-F]{2})*$/ : new RegExp(`^(0x)?[0-9a-fA-F]{${length}}$`));

const logSchema = z.object({
  /** The emitting contract: 20 bytes in hex, sometimes with the 41 version prefix. */
  address: z.string().regex(/^(41)?[0-9a-fA-F]{40}$/),
  topics: z.array(hex()).max(8).optional(),
  data: hex().optional(),
});

const knownTransactionInfoSchema = z.object({
  id: hex(64),
  blockNumber: z.number().int().nonnegative(),
  blockTimeStamp: z.number().int().nonnegative().optional(),
  receipt: z
    .object({ result: z.string().max(64).optional() })
    .passthrough()
    .optional(),
  /** Present as "FAILED" when the transaction failed. */
  result: z.string().max(64).optional(),
  log: z.array(logSchema).max(500).optional(),
});
export type KnownTransactionInfo = z.infer<typeof knownTransactionInfoSchema>;

/** An empty object when the node does not know the transaction (or, on the solidity node, when it is not final yet). */
export const transactionInfoSchema = z.union([knownTransactionInfoSchema, z.object({}).strict()]);
export type TransactionInfo = z.infer<typeof transactionInfoSchema>;

export function isKnownTransaction(info: TransactionInfo): info is KnownTransactionInfo {
  return 'blockNumber' in info;
}

/** A block as /wallet(solidity)/getnowblock and /walletsolidity/getblockbynum return it; the block id is its hash. */
export const blockSchema = z.object({
  blockID: hex(64),
  block_header: z.object({
    raw_data: z.object({ number: z.number().int().nonnegative(), timestamp: z.number().int().nonnegative(), parentHash: hex(64) }),
  }),
});

/** /walletsolidity/gettransactioninfobyblocknum: the block's transactions' info, `[]` (or `{}`) for a block without any. */
export const blockTransactionInfoSchema = z.union([
  z.array(knownTransactionInfoSchema).max(20_000),
  z
    .object({})
    .strict()
    .transform(() => []),
]);

function withoutPrefix(value: string): string {
  return value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value;
}

/** A 32-byte topic holding an address: its last 20 bytes are the account id. */
function addressFromTopic(topic: string): string | undefined {
  const body = withoutPrefix(topic);
  if (body.length !== 64 || !/^0{24}/.test(body)) return undefined;
  return tronAddressFromAccountId(Buffer.from(body.slice(24), 'hex'));
}

function contractAddressOf(address: string): string {
  return tronAddressFromAccountId(Buffer.from(address.length === 42 ? address.slice(2) : address, 'hex'));
}

/**
 * The Transfer event logs of a transaction: first topic ddf252ad..., exactly
 * three topics (from and to indexed), the amount as one 32-byte word of data.
 * Anything else (an Approval, a malformed log) is not a transfer.
 */
export function decodeTransferLogs(logs: z.infer<typeof logSchema>[]): TransferLog[] {
  const transfers: TransferLog[] = [];
  logs.forEach((log, logIndex) => {
    const topics = log.topics ?? [];
    if (topics.length !== 3 || withoutPrefix(topics[0] ?? '').toLowerCase() !== TRANSFER_TOPIC) return;
    const data = withoutPrefix(log.data ?? '');
    if (data.length !== 64) return;
    const from = addressFromTopic(topics[1] ?? '');
    const to = addressFromTopic(topics[2] ?? '');
    if (from === undefined || to === undefined) return;
    transfers.push({ logIndex, contract: contractAddressOf(log.address), from, to, amountUsdtMicros: BigInt(`0x${data}`) });
  });
  return transfers;
}

/** java-tron spells success `SUCESS` in some answers; both spellings, and no result at all, mean success. */
function isSuccess(result: string | undefined): boolean {
  return result === undefined || result === 'SUCCESS' || result === 'SUCESS';
}

/** Whether a known transaction succeeded: no top-level FAILED and, for contract calls, a successful receipt. */
export function transactionSucceeded(info: KnownTransactionInfo): boolean {
  return isSuccess(info.result) && isSuccess(info.receipt?.result);
}

/**
 * What the two nodes say about one transaction: the solidity node knows only
 * final ones, the full node also those seen in a block that is not final yet.
 * Seen but not final is `included` and not final (shown as confirming), its
 * confirmations counted from the newest block and kept below the 19 a final
 * one has; the solidity node's answer is final with at least 19.
 */
export function observationFromTransactionInfo(solidity: TransactionInfo, full: TransactionInfo, latestBlock: number): ChainObservation {
  const final = isKnownTransaction(solidity);
  const info = final ? solidity : full;
  if (!isKnownTransaction(info)) return { kind: 'unknown' };
  const depth = Math.max(0, latestBlock - info.blockNumber + 1);
  return {
    kind: 'included',
    succeeded: transactionSucceeded(info),
    blockNumber: BigInt(info.blockNumber),
    // The newest block may lag behind the solidity node's (two servers behind one URL), hence the floor for a final one.
    confirmations: final ? Math.max(TRON_SOLIDIFICATION_BLOCKS, depth) : Math.min(TRON_SOLIDIFICATION_BLOCKS - 1, depth),
    requiredConfirmations: TRON_SOLIDIFICATION_BLOCKS,
    final,
    transfers: decodeTransferLogs(info.log ?? []),
  };
}
