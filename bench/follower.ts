// The chain follower against a bare loop that fetches the same logs (issue 30, decision 045):
// recorded Ethereum blocks of 200 USDT transfers each, served as JSON-RPC, 100,000 customer deposit
// addresses in the database, the real follower code (features/chain) reading them through the real
// Ethereum client, beside a loop that sends the same eth_getLogs requests and does nothing with the answers.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { connectDatabase } from '../src/server/db/client.ts';
import { runMigrations } from '../src/server/db/migrate.ts';
import { createEthereumClient } from '../src/server/features/chain/ethereum-client.ts';
import { createChainFollower } from '../src/server/features/chain/follower.ts';
import { printTable, ratioText } from './measure.ts';

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const USDT_CONTRACT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const CUSTOMERS = 100_000;
/** Blocks one eth_getLogs asks for, for the follower and the bare loop alike: 10,000 logs, the most many providers return at once. */
const RANGE_BLOCKS = 50;

export interface FollowerBenchOptions {
  /** A fresh, empty database for the follower's app. */
  databaseUrl: string;
  rounds: number;
  blocksPerRound: number;
  transfersPerBlock: number;
  /** How many of a block's transfers pay a customer's deposit address (credited); the rest are other USDT traffic. */
  customerTransfersPerBlock: number;
}

const hex64 = (value: bigint) => value.toString(16).padStart(64, '0');
const blockHash = (number: number) => `0x${createHash('sha256').update(`block ${number}`).digest('hex')}`;
const customerAddress = (index: number) => `0xc0de${index.toString(16).padStart(36, '0')}`;
const strangerAddress = (seed: string) => `0x${createHash('sha256').update(seed).digest('hex').slice(0, 40)}`;

/** Recorded blocks served as an Ethereum node serves them: each block's logs are JSON made once, so serving costs the bare loop and the follower alike. */
function recordedChain(options: FollowerBenchOptions) {
  const logsOfBlock: string[] = [''];
  let head = 0;
  function record(count: number): void {
    for (let index = 0; index < count; index += 1) {
      const number = logsOfBlock.length;
      const logs: string[] = [];
      for (let position = 0; position < options.transfersPerBlock; position += 1) {
        const toCustomer = position < options.customerTransfersPerBlock;
        const to = toCustomer ? customerAddress((number * 7919 + position) % CUSTOMERS) : strangerAddress(`to ${number} ${position}`);
        const from = strangerAddress(`from ${number} ${position}`);
        logs.push(
          JSON.stringify({
            address: USDT_CONTRACT,
            topics: [TRANSFER_TOPIC, `0x${from.slice(2).padStart(64, '0')}`, `0x${to.slice(2).padStart(64, '0')}`],
            data: `0x${hex64(BigInt(25_000_000 + position))}`,
            blockNumber: `0x${number.toString(16)}`,
            blockHash: blockHash(number),
            transactionHash: `0x${createHash('sha256').update(`transaction ${number} ${position}`).digest('hex')}`,
            transactionIndex: `0x${position.toString(16)}`,
            logIndex: `0x${position.toString(16)}`,
            removed: false,
          }),
        );
      }
      logsOfBlock.push(logs.join(','));
    }
  }
  function blockJson(number: number): string {
    return JSON.stringify({
      number: `0x${number.toString(16)}`,
      hash: blockHash(number),
      parentHash: number === 0 ? `0x${'0'.repeat(64)}` : blockHash(number - 1),
      timestamp: `0x${(1_700_000_000 + number * 12).toString(16)}`,
      gasLimit: '0x1c9c380',
      gasUsed: '0x0',
      miner: `0x${'0'.repeat(40)}`,
      extraData: '0x',
      logsBloom: `0x${'0'.repeat(512)}`,
      nonce: '0x0000000000000000',
      difficulty: '0x0',
      size: '0x220',
      transactions: [],
      uncles: [],
    });
  }
  function answer(method: string, params: unknown[]): string {
    if (method === 'eth_blockNumber') return JSON.stringify(`0x${head.toString(16)}`);
    if (method === 'eth_chainId') return '"0x1"';
    if (method === 'eth_getBlockByNumber') {
      const tag = String(params[0]);
      const number = tag === 'latest' || tag === 'finalized' || tag === 'safe' ? head : Number.parseInt(tag, 16);
      return number > head ? 'null' : blockJson(number);
    }
    if (method === 'eth_getLogs') {
      const filter = params[0] as { fromBlock: string; toBlock: string };
      const from = Number.parseInt(filter.fromBlock, 16);
      const to = Math.min(Number.parseInt(filter.toBlock, 16), head);
      const parts: string[] = [];
      for (let number = from; number <= to; number += 1) {
        const logs = logsOfBlock[number];
        if (logs) parts.push(logs);
      }
      return `[${parts.join(',')}]`;
    }
    throw new Error(`the recorded chain does not answer ${method}`);
  }
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string; params: unknown[] };
      let payload: string;
      try {
        payload = `{"jsonrpc":"2.0","id":${JSON.stringify(body.id)},"result":${answer(body.method, body.params)}}`;
      } catch (error) {
        payload = JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: String(error) } });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(payload);
    });
  });
  // Idle keep-alive connections stay open between rounds, as a provider's do.
  server.keepAliveTimeout = 60_000;
  return {
    server,
    record,
    get head() {
      return head;
    },
    set head(value: number) {
      head = value;
    },
  };
}

/** 100,000 customers with a wallet and an ERC20 deposit address each, made in SQL (the API would take hours). */
async function seedCustomers(db: ReturnType<typeof connectDatabase>['db']): Promise<void> {
  await db.execute(sql`
    create temporary table bench_customers as select i, gen_random_uuid() as id from generate_series(0, ${CUSTOMERS - 1}) as i`);
  await db.execute(sql`
    insert into users (id, email, password_hash)
    select id, 'follower-' || i || '@example.com', '$argon2id$v=19$m=19456,t=2,p=1$c2VlZHNlZWRzZWVk$3v5wHPAnbvUkhc9UomZhcHRA/y6QSL3fY1Bn4KD9wrU'
    from bench_customers`);
  await db.execute(sql`
    insert into profiles (user_id, name, phone, role, referral_code)
    select id, 'Follower Customer', '+91' || (7000000000 + i * 13)::text, 'user', 'FOLLO' || lpad(i::text, 5, '0') from bench_customers`);
  await db.execute(sql`insert into ledger_accounts (kind, user_id, balance_usdt_micros) select 'customer_wallet', id, 0 from bench_customers`);
  await db.execute(sql`
    insert into deposit_addresses (network, address_index, user_id, extended_public_key, address)
    select 'ERC20', i, id, 'bench-key', '0xc0de' || lpad(to_hex(i), 36, '0') from bench_customers`);
  await db.execute(sql`analyze`);
}

/**
 * Per round: new recorded blocks, then the follower reads them (until caught up) and the bare loop
 * fetches the same ranges' logs, alternating which goes first. Blocks per second of each, and the
 * follower's speed as a share of the bare loop's.
 */
export async function measureFollower(options: FollowerBenchOptions, log: (message: string) => void): Promise<number[]> {
  const handle = connectDatabase(options.databaseUrl);
  const chain = recordedChain(options);
  await new Promise<void>((resolve) => chain.server.listen(0, '127.0.0.1', resolve));
  const rpcUrl = `http://127.0.0.1:${(chain.server.address() as AddressInfo).port}`;
  try {
    await runMigrations(handle.db);
    log(`Seeding ${CUSTOMERS.toLocaleString('en')} customers with an ERC20 deposit address each...`);
    await seedCustomers(handle.db);
    const client = createEthereumClient({ rpcUrl, usdtContract: USDT_CONTRACT, confirmations: 1 });
    const context = { db: handle.db, log: pino({ level: 'silent' }), pollSeconds: 1, clientOf: new Map([[client.network, client]]) };
    // Every round's blocks are recorded up front; a round makes the next ones final.
    chain.record((options.rounds + 1) * options.blocksPerRound);
    const spent = { block: 0, transfersIn: 0, final: 0 };
    const timed =
      <Arguments extends unknown[], Result>(name: keyof typeof spent, work: (...parameters: Arguments) => Promise<Result>) =>
      async (...parameters: Arguments) => {
        const started = performance.now();
        try {
          return await work(...parameters);
        } finally {
          spent[name] += performance.now() - started;
        }
      };
    const follower = createChainFollower(context, client, {
      maxRangeBlocks: RANGE_BLOCKS,
      block: timed('block', client.follower.block),
      transfersIn: timed('transfersIn', client.follower.transfersIn),
      finalBlockNumber: timed('final', client.follower.finalBlockNumber),
    });
    // The first run starts at the newest final block: block 0.
    await follower.follow();

    async function followRound(): Promise<number> {
      const started = performance.now();
      while (!(await follower.follow())) {
        // A follower behind reads on at once, as the worker's next tick does.
      }
      return performance.now() - started;
    }
    async function bareRound(fromBlock: number, toBlock: number): Promise<number> {
      const started = performance.now();
      for (let from = fromBlock; from <= toBlock; from += RANGE_BLOCKS) {
        const to = Math.min(toBlock, from + RANGE_BLOCKS - 1);
        const response = await fetch(rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: from,
            method: 'eth_getLogs',
            params: [{ address: USDT_CONTRACT, topics: [TRANSFER_TOPIC], fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` }],
          }),
        });
        await response.json();
      }
      return performance.now() - started;
    }

    const ratios: number[] = [];
    let followerTotal = 0;
    const rows: string[][] = [];
    // Round 0 warms up (compiled code, the database's caches) and is not counted.
    for (let round = 0; round <= options.rounds; round += 1) {
      const fromBlock = chain.head + 1;
      chain.head += options.blocksPerRound;
      const toBlock = chain.head;
      let followerMilliseconds: number;
      let bareMilliseconds: number;
      if (round % 2 === 0) {
        bareMilliseconds = await bareRound(fromBlock, toBlock);
        followerMilliseconds = await followRound();
      } else {
        followerMilliseconds = await followRound();
        bareMilliseconds = await bareRound(fromBlock, toBlock);
      }
      followerTotal += followerMilliseconds;
      const blocks = toBlock - fromBlock + 1;
      const ratio = bareMilliseconds / followerMilliseconds;
      if (round > 0) ratios.push(ratio);
      rows.push([
        round === 0 ? 'warm-up' : String(round),
        (blocks / (followerMilliseconds / 1000)).toFixed(0),
        (blocks / (bareMilliseconds / 1000)).toFixed(0),
        ratio.toFixed(2),
      ]);
    }
    const credited = await handle.db.execute<{ count: number }>(sql`select count(*)::int as count from usdt_deposits where status = 'approved'`);
    printTable(['round', 'follower blocks/s', 'bare loop blocks/s', 'follower/bare'], rows);
    log(
      `\nFollower against the bare loop: median ${ratioText(ratios)}, goal at least 0.8. ` +
        `${options.blocksPerRound} blocks a round of ${options.transfersPerBlock} USDT transfers each (${options.customerTransfersPerBlock} to customer addresses), ` +
        `${RANGE_BLOCKS}-block ranges, ${CUSTOMERS.toLocaleString('en')} customer addresses; ${credited.rows[0]?.count ?? 0} deposits credited.\n` +
        `The follower's time in all rounds: ${(followerTotal / 1000).toFixed(1)} s; its provider reads took ${((spent.block + spent.transfersIn + spent.final) / 1000).toFixed(1)} s ` +
        `(logs ${(spent.transfersIn / 1000).toFixed(1)} s), partly at the same time as its database work (it reads the next ranges while it applies a group, decision 045), so the two may add up to more.`,
    );
    return ratios;
  } finally {
    await new Promise((resolve) => chain.server.close(resolve));
    await handle.close();
  }
}
