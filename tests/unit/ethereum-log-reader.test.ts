import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTransferLogs, readTransferLogs, TRANSFER_TOPIC } from '../../src/server/features/chain/ethereum-log-reader.ts';
import { RangeRefusedError } from '../../src/server/features/chain/observation.ts';
import { WatchedAddresses } from '../../src/server/features/chain/watched-addresses.ts';

const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const OTHER_TOKEN = '0x6b175474e89094c44da98b954eedeac495271d0f';
const topicOf = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;
const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}`;
const hash = (digit: string) => `0x${digit.repeat(64)}`;

function transferLog(fields: {
  block: number;
  index: number;
  transaction: string;
  to: string;
  amount?: bigint;
  address?: string;
  data?: string;
  topics?: string[];
}) {
  return {
    address: fields.address ?? USDT,
    topics: fields.topics ?? [TRANSFER_TOPIC, topicOf('0x1111111111111111111111111111111111111111'), topicOf(fields.to)],
    data: fields.data ?? word(fields.amount ?? 5_000_000n),
    blockNumber: `0x${fields.block.toString(16)}`,
    blockHash: hash(fields.block.toString(16)),
    transactionHash: fields.transaction,
    logIndex: `0x${fields.index.toString(16)}`,
  };
}

describe('decoding a range of Transfer logs by hand', () => {
  it('counts each transfer’s position within its transaction, in chain order even when the provider answers out of order', () => {
    const logs = [
      transferLog({ block: 2, index: 0, transaction: hash('c'), to: '0x00000000000000000000000000000000000000c0' }),
      transferLog({ block: 1, index: 5, transaction: hash('b'), to: '0x00000000000000000000000000000000000000b1' }),
      transferLog({ block: 1, index: 4, transaction: hash('b'), to: '0x00000000000000000000000000000000000000b0' }),
      transferLog({ block: 1, index: 1, transaction: hash('a'), to: '0x00000000000000000000000000000000000000a0' }),
    ];
    const transfers = decodeTransferLogs(logs, USDT);
    expect(transfers.map((transfer) => [transfer.blockNumber, transfer.transactionHash.slice(0, 3), transfer.logIndex, transfer.to.slice(-2)])).toEqual([
      [1n, '0xa', 0, 'a0'],
      [1n, '0xb', 0, 'b0'],
      [1n, '0xb', 1, 'b1'],
      [2n, '0xc', 0, 'c0'],
    ]);
    expect(transfers[0]).toMatchObject({
      contract: USDT,
      from: '0x1111111111111111111111111111111111111111',
      amountUsdtMicros: 5_000_000n,
      blockHash: hash('1'),
    });
  });

  it('leaves out logs that are not a USDT Transfer event and does not count them', () => {
    const transaction = hash('d');
    const logs = [
      // Another token's Transfer in the same transaction (a provider that ignored the address filter): not USDT.
      transferLog({ block: 3, index: 0, transaction, to: '0x00000000000000000000000000000000000000d0', address: OTHER_TOKEN }),
      transferLog({ block: 3, index: 1, transaction, to: '0x00000000000000000000000000000000000000d1', data: '0x1234' }),
      transferLog({ block: 3, index: 2, transaction, to: '0x00000000000000000000000000000000000000d2', data: `${word(7n).slice(0, 65)} ` }),
      transferLog({ block: 3, index: 3, transaction, to: '0x00000000000000000000000000000000000000d3', data: `0xg${'0'.repeat(63)}` }),
      transferLog({ block: 3, index: 4, transaction, to: '0x00000000000000000000000000000000000000d4', amount: 9n }),
    ];
    const transfers = decodeTransferLogs(logs, USDT);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ to: '0x00000000000000000000000000000000000000d4', amountUsdtMicros: 9n, logIndex: 0 });
  });

  it('writes hashes and addresses in lower case whatever case the provider used', () => {
    const upper = '0x' + 'AB'.repeat(32);
    const [transfer] = decodeTransferLogs(
      [
        {
          ...transferLog({ block: 4, index: 0, transaction: upper, to: '0x00000000000000000000000000000000000000EE' }),
          blockHash: upper,
          address: USDT.toUpperCase().replace('0X', '0x'),
        },
      ],
      USDT,
    );
    expect(transfer).toMatchObject({ transactionHash: upper.toLowerCase(), blockHash: upper.toLowerCase(), to: '0x00000000000000000000000000000000000000ee' });
  });
});

describe('reading eth_getLogs with a plain JSON-RPC request', () => {
  let server: http.Server;
  let url: string;
  let answer: { status: number; body: string } = { status: 200, body: '' };
  beforeAll(async () => {
    server = http.createServer((_request, response) => {
      _request.resume();
      _request.on('end', () => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('decodes the result', async () => {
    answer = { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: [transferLog({ block: 9, index: 0, transaction: hash('e'), to: USDT })] }) };
    const transfers = await readTransferLogs(url, USDT, 9n, 9n);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.blockNumber).toBe(9n);
  });

  it('turns a provider’s refusal of the range into a RangeRefusedError, and other failures into provider errors', async () => {
    answer = { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'query returned more than 10000 results' } }) };
    await expect(readTransferLogs(url, USDT, 1n, 5_000n)).rejects.toBeInstanceOf(RangeRefusedError);
    answer = { status: 429, body: '{"error":"rate limited"}' };
    const failure = await readTransferLogs(url, USDT, 1n, 2n).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(RangeRefusedError);
    expect((failure as Error).name).toBe('ChainProviderError');
  });
});

describe('the follower’s watched addresses', () => {
  it('finds every known address and nothing else', () => {
    const owners = new Map<string, string>();
    for (let index = 0; index < 5_000; index += 1) owners.set(`0xc0de${index.toString(16).padStart(36, '0')}`, `customer-${index}`);
    const watched = new WatchedAddresses(owners);
    for (const [address, owner] of owners) expect(watched.ownerOf(address)).toBe(owner);
    for (let index = 5_000; index < 10_000; index += 1) expect(watched.ownerOf(`0xc0de${index.toString(16).padStart(36, '0')}`)).toBeUndefined();
    expect(new WatchedAddresses(new Map()).ownerOf('0xc0de')).toBeUndefined();
    expect(watched.size).toBe(5_000);
  });
});
