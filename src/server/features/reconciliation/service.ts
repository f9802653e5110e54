import type { DepositNetwork } from '#shared/contracts/enums';
import { DEPOSIT_ACCOUNT_PATHS } from '#shared/contracts/deposit-keys';
import {
  RECONCILIATION_MESSAGES,
  SWEEP_PLAN_MAX_ITEMS,
  type CreateSweepPlanRequest,
  type ReconciliationQuery,
  type ReconciliationResponse,
  type ReconciliationRow,
  type SweepPlan,
} from '#shared/contracts/reconciliation';
import { formatDecimal, parseUsdtMicros, usdtMicrosToWire } from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import type { ChainConfig } from '../../env.ts';
import { AppError } from '../../errors.ts';
import { csvCell } from '../../platform/csv.ts';
import { createEthereumClient } from '../chain/ethereum-client.ts';
import { ChainProviderError, type ChainClient } from '../chain/observation.ts';
import { createTronClient } from '../chain/tron-client.ts';
import { getSettings } from '../settings/service.ts';
import * as reconciliationRepository from './repository.ts';
import type { AddressBook } from './repository.ts';

/** The chain clients of the configured networks, built once per app: the same client code the follower uses. */
export function reconciliationClients(config: ChainConfig): ReadonlyMap<DepositNetwork, ChainClient> {
  const clients = new Map<DepositNetwork, ChainClient>();
  if (config.ethereum) clients.set('ERC20', createEthereumClient(config.ethereum));
  if (config.tron) clients.set('TRC20', createTronClient(config.tron));
  return clients;
}

function clientOf(clients: ReadonlyMap<DepositNetwork, ChainClient>, network: DepositNetwork): ChainClient {
  const client = clients.get(network);
  if (!client) throw new AppError(503, 'SERVICE_UNAVAILABLE', RECONCILIATION_MESSAGES.notConfigured(network));
  return client;
}

function signedUsdt(amountUsdtMicros: bigint): string {
  return amountUsdtMicros < 0n ? `-${usdtMicrosToWire(-amountUsdtMicros)}` : usdtMicrosToWire(amountUsdtMicros);
}

/** Blocks the follower may lag the node's newest final block for a TRON page to be compared address by address (five minutes of blocks). */
const MAX_UNFOLLOWED_BLOCKS = 100n;

async function readBalance(client: ChainClient, address: string, blockNumber: bigint | undefined): Promise<bigint | undefined> {
  try {
    return await client.accounts.usdtBalanceOf(address, blockNumber);
  } catch (error) {
    if (error instanceof ChainProviderError) return undefined;
    throw error;
  }
}

async function newestFinalBlock(client: ChainClient): Promise<bigint | undefined> {
  try {
    return await client.follower.finalBlockNumber();
  } catch (error) {
    if (error instanceof ChainProviderError) return undefined;
    throw error;
  }
}

/** A balance beside the records: undefined when it could not be read; not comparable while the follower has not read a transfer it includes. */
interface BalanceReading {
  onChain: bigint | undefined;
  comparable: boolean;
}

/**
 * The addresses that a transfer in blocks the follower has not read (or the node has not) touched,
 * read through the follower's own source: their balance and their records may disagree for no
 * other reason than the follower's next run. `behind` when the gap is too wide to read here.
 */
async function addressesMovedOutsideRecords(
  client: ChainClient,
  cursor: bigint | undefined,
  headBefore: bigint | undefined,
  headAfter: bigint | undefined,
): Promise<Set<string> | 'behind' | 'unreadable'> {
  if (headBefore === undefined || headAfter === undefined) return 'unreadable';
  // Before the follower's first run nothing was credited from the chain, so every balance compares.
  if (cursor === undefined) return new Set();
  const fromBlock = (cursor < headBefore ? cursor : headBefore) + 1n;
  const toBlock = cursor > headAfter ? cursor : headAfter;
  if (toBlock < fromBlock) return new Set();
  if (toBlock - fromBlock + 1n > MAX_UNFOLLOWED_BLOCKS) return 'behind';
  try {
    const transfers = await client.follower.transfersIn(fromBlock, toBlock);
    return new Set(transfers.flatMap((transfer) => [transfer.from, transfer.to]));
  } catch (error) {
    if (error instanceof ChainProviderError) return 'unreadable';
    throw error;
  }
}

/**
 * The balances of `addresses` as of the follower's cursor. Ethereum reads each at the cursor's
 * block. A TRON node reads only the state after its newest final block (java-tron's constant call
 * takes no block), so the balances are read between two readings of that block, and an address a
 * transfer in blocks between the cursor and them touched is left uncompared until the follower
 * read them; every other address held the same at the cursor.
 */
async function readBalances(client: ChainClient, addresses: string[], cursor: bigint | undefined): Promise<BalanceReading[]> {
  const balances: (bigint | undefined)[] = [];
  if (client.accounts.readsAtBlock) {
    for (const address of addresses) balances.push(await readBalance(client, address, cursor));
    return balances.map((onChain) => ({ onChain, comparable: true }));
  }
  const headBefore = await newestFinalBlock(client);
  for (const address of addresses) balances.push(await readBalance(client, address, undefined));
  const moved = await addressesMovedOutsideRecords(client, cursor, headBefore, await newestFinalBlock(client));
  return balances.map((onChain, index) => {
    if (moved === 'unreadable') return { onChain: undefined, comparable: true };
    return { onChain, comparable: moved !== 'behind' && !moved.has(client.addressKey(addresses[index] ?? '')) };
  });
}

function rowOf(book: AddressBook, kind: 'customer' | 'shared', reading: BalanceReading): ReconciliationRow {
  const { onChain } = reading;
  const expected = book.creditedUsdtMicros - book.sweptUsdtMicros;
  const difference = onChain === undefined || !reading.comparable ? undefined : onChain - expected;
  return {
    address: book.address,
    kind,
    userId: book.userId,
    email: book.email,
    onChain: onChain === undefined ? null : usdtMicrosToWire(onChain),
    credited: usdtMicrosToWire(book.creditedUsdtMicros),
    swept: usdtMicrosToWire(book.sweptUsdtMicros),
    expected: signedUsdt(expected),
    difference: difference === undefined ? null : signedUsdt(difference),
    problem:
      onChain === undefined
        ? 'unreadable'
        : difference === undefined
          ? 'not_followed_yet'
          : difference > 0n
            ? 'more_on_chain'
            : difference < 0n
              ? 'less_on_chain'
              : null,
  };
}

/**
 * One page of the network's reconciliation: each customer address's on-chain USDT (as of the
 * follower's cursor, so final blocks only) beside credited minus swept, and the shared address.
 * The records and the cursor come from one snapshot, so a credit the follower commits meanwhile
 * is in both or in neither. A balance that cannot be read is flagged, never guessed.
 */
export async function reconcile(db: Database, clients: ReadonlyMap<DepositNetwork, ChainClient>, query: ReconciliationQuery): Promise<ReconciliationResponse> {
  const { network } = query;
  const client = clientOf(clients, network);
  const settings = await getSettings(db);
  const sharedAddress = (network === 'ERC20' ? settings.erc20Address : settings.trc20Address).trim();
  const records = await db.transaction(
    async (transaction) => ({
      cursor: await reconciliationRepository.followerCursor(transaction, network),
      books: await reconciliationRepository.customerAddressPage(transaction, network, query.cursor, query.limit + 1),
      sharedBook: sharedAddress === '' ? undefined : await reconciliationRepository.sharedAddressBook(transaction, network, client.addressKey(sharedAddress)),
      totals: await reconciliationRepository.networkTotals(transaction, network),
    }),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const { cursor, books, sharedBook, totals } = records;
  const page = books.slice(0, query.limit);
  const readings = await readBalances(client, [...page.map((book) => book.address), ...(sharedBook ? [sharedAddress] : [])], cursor);
  const items = page.map((book, index) => rowOf(book, 'customer', readings[index] ?? { onChain: undefined, comparable: true }));
  const shared = sharedBook ? rowOf(sharedBook, 'shared', readings[page.length] ?? { onChain: undefined, comparable: true }) : null;
  const rows = shared ? [...items, shared] : items;
  const sum = (values: (string | null)[]) => values.reduce((total, value) => total + (value === null ? 0n : micros(value)), 0n);
  return {
    network,
    asOfBlock: client.accounts.readsAtBlock ? (cursor?.toString() ?? null) : null,
    shared,
    items,
    nextCursor: books.length > query.limit ? (page.at(-1)?.address ?? null) : null,
    pageTotals: {
      onChain: signedUsdt(sum(rows.map((row) => row.onChain))),
      expected: signedUsdt(sum(rows.map((row) => row.expected))),
      difference: signedUsdt(sum(rows.map((row) => row.difference))),
      flagged: rows.filter((row) => row.problem !== null).length,
    },
    networkTotals: {
      credited: usdtMicrosToWire(totals.creditedUsdtMicros),
      swept: usdtMicrosToWire(totals.sweptUsdtMicros),
      expected: signedUsdt(totals.creditedUsdtMicros - totals.sweptUsdtMicros),
      addresses: totals.addresses,
    },
  };
}

/** A wire decimal (possibly negative) back to micro-USDT; the values come from this module. */
function micros(value: string): bigint {
  const negative = value.startsWith('-');
  const parsed = parseUsdtMicros(negative ? value.slice(1) : value);
  if (!parsed.ok) throw new Error(`not a USDT amount: ${value}`);
  return negative ? -parsed.value : parsed.value;
}

function needsOf(client: ChainClient, nativeBalance: bigint, fee: bigint): string {
  const { coin, decimals } = client.accounts.nativeUnit;
  if (nativeBalance >= fee) return 'nothing';
  const missing = `${formatDecimal(fee - nativeBalance, decimals)} ${coin}`;
  return coin === 'ETH' ? `${missing} for gas first` : `${missing} first, or about 65,000 energy delegated to the address`;
}

/**
 * A sweep plan for the offline signer: the customer addresses whose on-chain USDT is at least the
 * threshold, with the amount, the derivation path the custody signs with, and what each needs
 * first (the network's coin for the fee). Stored, so that the sweeps the follower reads are
 * matched to it.
 */
export async function createSweepPlan(
  db: Database,
  clients: ReadonlyMap<DepositNetwork, ChainClient>,
  userId: string,
  input: CreateSweepPlanRequest,
): Promise<SweepPlan> {
  const client = clientOf(clients, input.network);
  const threshold = parseUsdtMicros(input.threshold);
  if (!threshold.ok || threshold.value <= 0n) throw AppError.fieldError('threshold', RECONCILIATION_MESSAGES.thresholdInvalid);
  const asOfBlock = client.accounts.readsAtBlock ? await reconciliationRepository.followerCursor(db, input.network) : undefined;
  const candidates = await reconciliationRepository.sweepCandidates(db, input.network, SWEEP_PLAN_MAX_ITEMS);
  const items: { address: string; derivationPath: string | null; amountUsdtMicros: bigint; needs: string }[] = [];
  try {
    const fee = await client.accounts.sweepFeeEstimate();
    for (const candidate of candidates) {
      const balance = await client.accounts.usdtBalanceOf(candidate.address, asOfBlock);
      if (balance < threshold.value) continue;
      const nativeBalance = await client.accounts.nativeBalanceOf(candidate.address);
      items.push({
        address: candidate.address,
        derivationPath: candidate.addressIndex === null ? null : `${DEPOSIT_ACCOUNT_PATHS[input.network]}/0/${candidate.addressIndex}`,
        amountUsdtMicros: balance,
        needs: needsOf(client, nativeBalance, fee),
      });
    }
  } catch (error) {
    if (error instanceof ChainProviderError) throw new AppError(503, 'SERVICE_UNAVAILABLE', RECONCILIATION_MESSAGES.providerFailed);
    throw error;
  }
  const id = await reconciliationRepository.insertPlan(db, { network: input.network, thresholdUsdtMicros: threshold.value, createdByUserId: userId }, items);
  return getSweepPlan(db, id);
}

export async function getSweepPlan(db: Executor, id: string): Promise<SweepPlan> {
  const found = await reconciliationRepository.findPlan(db, id);
  if (!found) throw AppError.notFound(RECONCILIATION_MESSAGES.planNotFound);
  return {
    id: found.plan.id,
    network: found.plan.network,
    threshold: usdtMicrosToWire(found.plan.thresholdUsdtMicros),
    createdAt: found.plan.createdAt.toISOString(),
    items: found.items.map((item) => ({
      address: item.address,
      derivationPath: item.derivationPath,
      amount: usdtMicrosToWire(item.amountUsdtMicros),
      needs: item.needs,
      sweep:
        item.sweepHash === null || item.sweptUsdtMicros === null ? null : { transactionHash: item.sweepHash, amount: usdtMicrosToWire(item.sweptUsdtMicros) },
    })),
  };
}

/** The plan as the offline signer reads it: one row per address. */
export function sweepPlanCsv(plan: SweepPlan): string {
  const header = ['network', 'address', 'derivation_path', 'amount_usdt', 'needs_first', 'swept_in_transaction'];
  const lines = plan.items.map((item) =>
    [plan.network, item.address, item.derivationPath ?? '', item.amount, item.needs, item.sweep?.transactionHash ?? ''].map(csvCell).join(','),
  );
  return `${[header.map(csvCell).join(','), ...lines].join('\r\n')}\r\n`;
}
