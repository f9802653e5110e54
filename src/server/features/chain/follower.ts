import { MAX_USDT_MICROS } from '#shared/money';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { creditFollowedTransfers } from '../deposits/service.ts';
import { getSettings } from '../settings/service.ts';
import { recordSharedAddressTransaction } from './detection.ts';
import { closeReincludedIncident, notifyOfIncident } from './incidents.ts';
import { issuedAddressCount } from '../deposit-addresses/service.ts';
import * as followerRepository from './follower-repository.ts';
import {
  ChainProviderError,
  RangeRefusedError,
  type ChainClient,
  type ChainFollowerSource,
  type ChainObservation,
  type FollowedBlock,
  type FollowedTransfer,
} from './observation.ts';
import * as chainRepository from './repository.ts';
import { WatchedAddresses } from './watched-addresses.ts';
import { publishDepositChange, type ChainWorkContext } from './work-context.ts';

/** Ranges read per scan job run; a follower far behind goes on at once in the next run (see worker.ts). */
const RANGES_PER_RUN = 20;
/** Blocks kept behind the cursor to find a common ancestor: a reorganisation deeper than this is logged as an error. */
const BLOCK_WINDOW = 1_024n;
/**
 * Deposit addresses a follower keeps in memory at most (about 200 bytes each); with more it asks
 * the database about each range's addresses instead.
 */
const MAX_REMEMBERED_ADDRESSES = 250_000;
/** Successful ranges after which a range halved by a refusal may double again. */
const SUCCESSES_BEFORE_WIDENING = 10;

export interface ChainFollower {
  /** Reads final blocks after the cursor, a range at a time; true once it reached the newest final block. */
  follow(): Promise<boolean>;
}

interface RangeSettings {
  sharedAddress: string;
  minimumUsdtMicros: bigint;
}

/**
 * Follows one network's final blocks in order (decision 036): each range's
 * first block must descend from the stored cursor, or the follower rewinds to
 * the common ancestor and reads again; each USDT transfer is matched locally
 * against the customers' own deposit addresses and the shared address.
 */
export function createChainFollower(context: ChainWorkContext, client: ChainClient, source: ChainFollowerSource): ChainFollower {
  const scope: FollowerScope = { context, client, source, network: client.network, addressBook: { watched: new WatchedAddresses(new Map()), issued: 0 } };
  const { db } = context;
  const network = client.network;
  const widths: RangeWidths = { rangeBlocks: source.maxRangeBlocks, successes: 0 };

  async function follow(): Promise<boolean> {
    const settings = await getSettings(db);
    const rangeSettings = {
      sharedAddress: (network === 'ERC20' ? settings.erc20Address : settings.trc20Address).trim(),
      minimumUsdtMicros: settings.minDepositUsdtMicros,
    };
    // Read once per run: the ranges of this run go up to it, and the next run reads it again.
    const finalBlock = await source.finalBlockNumber();
    // Read after the final block: every transfer final by then went to an address issued before it (see refreshAddressBook).
    await refreshAddressBook(scope);
    const keep = relevantTransfers(scope, rangeSettings.sharedAddress === '' ? undefined : client.addressKey(rangeSettings.sharedAddress));
    let ahead: GroupRead | undefined;
    let rangesLeft = RANGES_PER_RUN;
    while (rangesLeft > 0) {
      const step = await followOneGroup(scope, widths, { settings: rangeSettings, finalBlock, ahead, rangesLeft, keep });
      if (step.done) return true;
      // A rewind or a refused range counts as one range of the run.
      rangesLeft -= Math.max(1, step.applied);
      ahead = step.ahead;
    }
    return false;
  }

  return { follow };
}

/** What the follower's steps share: the work context, the network's client, where its final blocks are read, and the addresses it knows. */
interface FollowerScope {
  context: ChainWorkContext;
  client: ChainClient;
  source: ChainFollowerSource;
  network: DepositNetwork;
  /** The network's deposit addresses and their customers, and how many were issued when last counted. */
  addressBook: { watched: WatchedAddresses; issued: number };
}

/** How wide the follower's ranges are now: halved after a refusal, doubled again after enough successes. */
interface RangeWidths {
  rangeBlocks: number;
  successes: number;
}

/**
 * Reads up to RANGES_PER_GROUP ranges after the cursor (up to `finalBlock`) and applies them in one
 * database transaction; done when there was nothing final to read. While a group is applied, the
 * next one is read from the provider (`ahead`), so the follower's time is about the longer of the
 * two rather than their sum, and a group costs the database's round trips once for several ranges
 * (bench/follower.ts, RESULTS.md round 19). Every range must descend from the one before it, the
 * first from the cursor's block, as when ranges were read and applied one at a time.
 */
async function followOneGroup(
  scope: FollowerScope,
  widths: RangeWidths,
  run: { settings: RangeSettings; finalBlock: bigint; ahead: GroupRead | undefined; rangesLeft: number; keep: KeepTransfers },
): Promise<{ done: boolean; applied: number; ahead?: GroupRead }> {
  const { context, network, source } = scope;
  const { settings, finalBlock, ahead, rangesLeft, keep } = run;
  const cursor = await followerRepository.newestBlock(context.db, network);
  if (cursor === undefined) {
    await startFollowing(scope, settings, finalBlock);
    return { done: true, applied: 0 };
  }
  if (finalBlock <= cursor.number) return { done: true, applied: 0 };
  const fromBlock = cursor.number + 1n;
  const group =
    ahead !== undefined && ahead.fromBlock === fromBlock
      ? ahead
      : readGroup(scope, keep, fromBlock, finalBlock, widths.rangeBlocks, Math.min(RANGES_PER_GROUP, rangesLeft));
  const ranges = await group.ranges;
  const head = ranges[0];
  if (head === undefined) return { done: true, applied: 0 };
  if (!head.read && head.first === undefined) {
    // A group read ahead whose first block failed is read again, as a group read now would be.
    if (group === ahead) return { done: false, applied: 0 };
    throw head.error;
  }
  if (head.first === undefined) throw new ChainProviderError(`the ${network} provider's block ${fromBlock} could not be read`);
  if (head.first.parentHash !== cursor.hash) {
    await rewind(scope, cursor);
    return { done: false, applied: 0 };
  }
  if (!head.read) {
    if (!(head.error instanceof RangeRefusedError) || head.toBlock === head.fromBlock) throw head.error;
    widths.rangeBlocks = Math.max(1, Math.floor(Number(head.toBlock - head.fromBlock + 1n) / 2));
    widths.successes = 0;
    context.log.info(
      { network, fromBlock: head.fromBlock.toString(), toBlock: head.toBlock.toString(), rangeBlocks: widths.rangeBlocks },
      'Chain provider refused a block range; reading half of it',
    );
    return { done: false, applied: 0 };
  }
  const usable = chainedRanges(network, cursor, ranges);
  const lastRange = usable.at(-1);
  if (lastRange === undefined) throw new ChainProviderError(`the ${network} provider's ranges after block ${cursor.number} could not be read`);
  const whole = usable.length === ranges.length;
  const next =
    whole && usable.length < rangesLeft && lastRange.toBlock < finalBlock
      ? readGroup(scope, keep, lastRange.toBlock + 1n, finalBlock, widths.rangeBlocks, Math.min(RANGES_PER_GROUP, rangesLeft - usable.length))
      : undefined;
  await applyRange(
    scope,
    {
      cursor,
      first: head.first,
      last: lastRange.last,
      boundaries: usable.flatMap((range) => [range.first, range.last]),
      transfers: usable.length === 1 ? lastRange.transfers : usable.flatMap((range) => range.transfers),
    },
    settings,
  );
  widths.successes += usable.length;
  if (widths.rangeBlocks < source.maxRangeBlocks && widths.successes >= SUCCESSES_BEFORE_WIDENING) {
    widths.rangeBlocks = Math.min(source.maxRangeBlocks, widths.rangeBlocks * 2);
    widths.successes = 0;
  }
  return next === undefined ? { done: false, applied: usable.length } : { done: false, applied: usable.length, ahead: next };
}

/** Ranges read one after another and applied in one database transaction. */
const RANGES_PER_GROUP = 4;

/** A range as the provider answered it: its first block, its transfers and its last block, or the error that stopped it. */
type ArrivedRange = { fromBlock: bigint; toBlock: bigint } & (
  | { read: true; first: FollowedBlock; transfers: FollowedTransfer[]; last: FollowedBlock; agrees: boolean }
  | { read: false; first: FollowedBlock | undefined; error: unknown }
);

/** Consecutive ranges being read from the provider, starting at `fromBlock`; the list stops at the first range that failed. */
interface GroupRead {
  fromBlock: bigint;
  ranges: Promise<ArrivedRange[]>;
}

/** Reads one range: its first block (whose parent the block before must be), its transfers and its last block, all at once. */
async function readRange({ source }: FollowerScope, keep: KeepTransfers, fromBlock: bigint, toBlock: bigint): Promise<ArrivedRange> {
  const firstRead = source.block(fromBlock);
  const transfersRead = source.transfersIn(fromBlock, toBlock);
  const lastRead = toBlock === fromBlock ? firstRead : source.block(toBlock);
  // Marked handled at once: a part may fail while an earlier one is awaited; each failure is still thrown where it is awaited.
  for (const part of [firstRead, transfersRead, lastRead]) part.catch(() => undefined);
  let first: FollowedBlock | undefined;
  try {
    const firstBlock = await firstRead;
    first = firstBlock;
    const [transfers, last] = await Promise.all([transfersRead, lastRead]);
    // Checked before anything is left out: every transfer must lie in the blocks the range's own ends name.
    const agrees = transfers.every((transfer) => {
      const expected = transfer.blockNumber === firstBlock.number ? firstBlock.hash : transfer.blockNumber === last.number ? last.hash : transfer.blockHash;
      return transfer.blockHash === expected;
    });
    return { read: true, fromBlock, toBlock, first: firstBlock, transfers: keep === undefined ? transfers : keep(transfers), last, agrees };
  } catch (error) {
    return { read: false, fromBlock, toBlock, first, error };
  }
}

/** What a range keeps of its transfers once read, or undefined to keep them all. */
type KeepTransfers = ((transfers: FollowedTransfer[]) => FollowedTransfer[]) | undefined;

/**
 * Keeps the transfers of the transactions that touch a watched address or the shared address (every
 * transfer of such a transaction: the shared address' detection reads them together), once the
 * range was checked against its blocks. A range holds up to 10,000 transfers and almost none are
 * the operator's: kept until their group is applied, the others made most of the follower's garbage
 * collection (bench/follower.ts, RESULTS.md round 19). With the addresses asked of the database
 * (more than MAX_REMEMBERED_ADDRESSES) every transfer is kept.
 */
function relevantTransfers(scope: FollowerScope, sharedKey: string | undefined): KeepTransfers {
  const { addressBook } = scope;
  if (addressBook.issued > MAX_REMEMBERED_ADDRESSES) return undefined;
  const { watched } = addressBook;
  return (transfers) => {
    const transactions = new Set<string>();
    for (const transfer of transfers) {
      const touches =
        transfer.to === sharedKey || transfer.from === sharedKey || watched.ownerOf(transfer.to) !== undefined || watched.ownerOf(transfer.from) !== undefined;
      if (touches) transactions.add(transfer.transactionHash);
    }
    return transactions.size === 0 ? [] : transfers.filter((transfer) => transactions.has(transfer.transactionHash));
  };
}

/** Starts reading up to `count` consecutive ranges of at most `rangeBlocks` blocks from `fromBlock`, up to `finalBlock`. */
function readGroup(scope: FollowerScope, keep: KeepTransfers, fromBlock: bigint, finalBlock: bigint, rangeBlocks: number, count: number): GroupRead {
  const ranges = (async () => {
    const arrived: ArrivedRange[] = [];
    let from = fromBlock;
    while (arrived.length < count && from <= finalBlock) {
      const to = finalBlock < from + BigInt(rangeBlocks) - 1n ? finalBlock : from + BigInt(rangeBlocks) - 1n;
      const range = await readRange(scope, keep, from, to);
      arrived.push(range);
      if (!range.read) break;
      from = to + 1n;
    }
    return arrived;
  })();
  return { fromBlock, ranges };
}

/**
 * The leading ranges that form one chain from the cursor: each read whole, its first block the child
 * of the block before it, and its transfers in the blocks the range's own first and last block name.
 * A first range whose transfers contradict its blocks is an error, as it always was; a later one ends
 * the group there, and is read again as the next group's first.
 */
function chainedRanges(
  network: DepositNetwork,
  cursor: followerRepository.StoredBlock,
  ranges: ArrivedRange[],
): { fromBlock: bigint; toBlock: bigint; first: FollowedBlock; transfers: FollowedTransfer[]; last: FollowedBlock }[] {
  const usable: { fromBlock: bigint; toBlock: bigint; first: FollowedBlock; transfers: FollowedTransfer[]; last: FollowedBlock }[] = [];
  let parentHash = cursor.hash;
  for (const range of ranges) {
    if (!range.read || range.first.parentHash !== parentHash) break;
    const { first, last } = range;
    if (!range.agrees) {
      if (usable.length === 0) throw new ChainProviderError(`the ${network} chain changed while blocks ${range.fromBlock} to ${range.toBlock} were read`);
      break;
    }
    usable.push({ fromBlock: range.fromBlock, toBlock: range.toBlock, first, transfers: range.transfers, last });
    parentHash = last.hash;
  }
  return usable;
}

/**
 * Counts the network's deposit addresses, once per run, after the run read its final block: a
 * customer sends to an address only after it was issued, so every transfer final by then went to an
 * address counted here. Deposit addresses are never changed or removed (migration 0026), so an equal
 * count means exactly the same rows, and the addresses in memory are read again only when it
 * differs. Counting in every range's transaction took about 10 ms of PostgreSQL a range
 * (bench/follower.ts, RESULTS.md round 19).
 */
async function refreshAddressBook(scope: FollowerScope): Promise<void> {
  const { context, network, addressBook } = scope;
  addressBook.issued = await issuedAddressCount(context.db, network);
  if (addressBook.issued > MAX_REMEMBERED_ADDRESSES) addressBook.watched = new WatchedAddresses(new Map());
  else if (addressBook.issued !== addressBook.watched.size)
    addressBook.watched = new WatchedAddresses(await followerRepository.allDepositAddressOwners(context.db, network));
}

/**
 * The customers whose deposit addresses are among a range's senders and recipients, matched in
 * memory (refreshAddressBook). Matching a range's 20,000 addresses in the database took most of the
 * follower's database time (bench/follower.ts); above MAX_REMEMBERED_ADDRESSES it still asks the database.
 */
async function ownersOf(scope: FollowerScope, transaction: Executor, transfers: FollowedTransfer[]): Promise<Map<string, string>> {
  const { network, addressBook } = scope;
  if (addressBook.issued > MAX_REMEMBERED_ADDRESSES) {
    return followerRepository.depositAddressOwners(transaction, network, [...new Set(transfers.flatMap((transfer) => [transfer.to, transfer.from]))]);
  }
  const { watched } = addressBook;
  const owners = new Map<string, string>();
  for (const transfer of transfers) {
    const recipient = watched.ownerOf(transfer.to);
    if (recipient !== undefined) owners.set(transfer.to, recipient);
    const sender = watched.ownerOf(transfer.from);
    if (sender !== undefined) owners.set(transfer.from, sender);
  }
  return owners;
}

/** A range read after the cursor: its first and last blocks and the USDT transfers in it. */
interface ReadRange {
  cursor: followerRepository.StoredBlock;
  first: FollowedBlock;
  last: FollowedBlock;
  /** The first and last block of every range read: stored, so a rewind finds a close ancestor. */
  boundaries: FollowedBlock[];
  transfers: FollowedTransfer[];
}

/**
 * The first run starts at the newest final block, so history before it is
 * not credited by itself; on Ethereum it goes on from where the earlier scan
 * of the shared address stopped, so nothing sent meanwhile is missed.
 */
async function startFollowing(scope: FollowerScope, settings: RangeSettings, finalBlock: bigint): Promise<void> {
  const {
    context: { db, log },
    network,
    source,
  } = scope;
  const earlier = network === 'ERC20' && settings.sharedAddress !== '' ? await chainRepository.findScanCursor(db, network, settings.sharedAddress) : undefined;
  const start = await source.block(earlier ?? finalBlock);
  await followerRepository.storeBlocks(db, network, [followerRepository.toStoredBlock(start)]);
  log.info({ network, blockNumber: start.number.toString() }, 'Chain follower started');
}

async function applyRange(scope: FollowerScope, range: ReadRange, settings: RangeSettings): Promise<void> {
  const { context, client, network } = scope;
  const { cursor, last, boundaries, transfers } = range;
  const { db } = context;
  const sharedKey = settings.sharedAddress === '' ? undefined : client.addressKey(settings.sharedAddress);
  let credited = false;
  await db.transaction(async (transaction) => {
    await followerRepository.lockFollower(transaction, network);
    // Another process read this range first: nothing to do.
    if ((await followerRepository.newestBlock(transaction, network))?.number !== cursor.number) return;
    const owners = await ownersOf(scope, transaction, transfers);
    await recordSweeps(transaction, network, transfers, owners, sharedKey);
    const landedBlocks = new Map<bigint, string>();
    const ownAddressTransfers: followerRepository.OwnAddressTransfer[] = [];
    for (const transfer of transfers) {
      const owner = owners.get(transfer.to);
      if (owner === undefined && transfer.to !== sharedKey) continue;
      landedBlocks.set(transfer.blockNumber, transfer.blockHash);
      if (owner !== undefined) ownAddressTransfers.push({ userId: owner, transfer });
    }
    credited = await creditOwnAddressTransfers(scope, transaction, ownAddressTransfers, settings.minimumUsdtMicros);
    if (sharedKey !== undefined) {
      for (const [transactionHash, group] of groupByTransaction(transfers)) {
        if (group.some((transfer) => transfer.to === sharedKey)) {
          for (const transfer of group) if (transfer.to === sharedKey) await noteLanding(scope, transaction, transfer);
          await recordSharedAddressTransaction(transaction, client, transactionHash, finalObservation(group), {
            address: settings.sharedAddress,
            minimumUsdtMicros: settings.minimumUsdtMicros,
          });
        }
      }
    }
    const blocks = [...landedBlocks].map(([number, hash]) => ({ number, hash, parentHash: null }));
    await followerRepository.storeBlocks(transaction, network, [...boundaries.map((block) => followerRepository.toStoredBlock(block)), ...blocks]);
    await followerRepository.forgetBlocksBelow(transaction, network, last.number - BLOCK_WINDOW);
  });
  if (credited) context.notificationEmails?.poke();
}

/**
 * A final transfer to a customer's own deposit address is that customer's,
 * whoever sent it: credited once, for the on-chain amount, with no hash and no
 * signature. Below the minimum it is recorded and left for an admin. A
 * transfer that already stands for a deposit (read again after a
 * reorganisation) only records where it landed now. A group's transfers go
 * together: their transactions locked in one statement, then their deposits
 * inserted and settled in a few set-based ones (creditFollowedTransfers).
 */
async function creditOwnAddressTransfers(
  scope: FollowerScope,
  transaction: Executor,
  items: followerRepository.OwnAddressTransfer[],
  minimumUsdtMicros: bigint,
): Promise<boolean> {
  const {
    context: { log },
    network,
  } = scope;
  const creditable = items.filter(({ transfer }) => {
    if (transfer.amountUsdtMicros > 0n && transfer.amountUsdtMicros <= MAX_USDT_MICROS) return true;
    log.warn(
      { network, transactionHash: transfer.transactionHash, amount: transfer.amountUsdtMicros.toString() },
      'Transfer to a customer address of an amount no deposit can hold; left alone',
    );
    return false;
  });
  if (creditable.length === 0) return false;
  await chainRepository.lockChainTransactions(
    transaction,
    network,
    creditable.map(({ transfer }) => transfer.transactionHash),
  );
  const recorded = await creditFollowedTransfers(
    transaction,
    network,
    creditable.map(({ userId, transfer }) => ({
      userId,
      amountUsdtMicros: transfer.amountUsdtMicros,
      transactionHash: transfer.transactionHash,
      toAddress: transfer.to,
      fromAddress: transfer.from,
      logIndex: transfer.logIndex,
      blockNumber: transfer.blockNumber,
      blockHash: transfer.blockHash,
    })),
    minimumUsdtMicros,
  );
  if (recorded.length < creditable.length) {
    const recordedKeys = new Set(recorded.map((deposit) => `${deposit.transactionHash}:${deposit.logIndex}`));
    for (const { transfer } of creditable) {
      if (!recordedKeys.has(`${transfer.transactionHash}:${transfer.logIndex}`)) await noteLanding(scope, transaction, transfer);
    }
  }
  const approved = recorded.filter((deposit) => deposit.status === 'approved');
  if (approved.length === 0) return false;
  log.info({ network, depositIds: approved.map((deposit) => deposit.id) }, 'Transfers to customers’ own deposit addresses credited');
  return true;
}

/** Where a transfer that already stands for a deposit landed now; a re-included transfer closes its incident. */
async function noteLanding(scope: FollowerScope, transaction: Executor, transfer: FollowedTransfer): Promise<void> {
  const {
    context: { log },
    network,
  } = scope;
  const deposit = await followerRepository.depositOfTransfer(transaction, network, transfer.transactionHash, transfer.logIndex);
  if (!deposit) return;
  await followerRepository.recordLanding(transaction, deposit.id, transfer.blockNumber, transfer.blockHash);
  const heldUser = await closeReincludedIncident(transaction, deposit.id);
  if (heldUser !== undefined) {
    log.warn({ network, depositId: deposit.id }, 'A vanished deposit’s transfer is final on the chain again; its incident is closed');
    await publishDepositChange(transaction, heldUser, 'deposit.chain');
  }
}

/**
 * The cursor's block is no longer on the chain: finds the newest stored block
 * that still is (the common ancestor), forgets the blocks above it, and
 * settles the deposits that landed above it. The next range reads the
 * replacement branch from there, so transfers in it are found.
 */
async function rewind(scope: FollowerScope, cursor: followerRepository.StoredBlock): Promise<void> {
  const {
    context: { db, log },
    client,
    network,
    source,
  } = scope;
  let ancestor: FollowedBlock | undefined;
  const stored = await followerRepository.storedBlocksNewestFirst(db, network, Number(BLOCK_WINDOW));
  for (const block of stored) {
    const onChain = await source.block(block.number);
    if (onChain.hash === block.hash) {
      ancestor = onChain;
      break;
    }
  }
  if (ancestor?.number === cursor.number) {
    // The cursor is still on the chain, yet the next block names another parent: the provider contradicts itself.
    throw new ChainProviderError(`the ${network} provider's block ${cursor.number + 1n} does not descend from block ${cursor.number} it returns`);
  }
  if (ancestor === undefined) {
    const oldest = stored.at(-1) ?? cursor;
    log.error({ network, blockNumber: oldest.number.toString() }, 'Chain reorganisation deeper than the stored blocks; reading again from before the oldest');
    ancestor = await source.block(oldest.number > 0n ? oldest.number - 1n : 0n);
  }
  log.warn({ network, from: cursor.number.toString(), ancestor: ancestor.number.toString() }, 'Chain reorganisation: rewinding to the common ancestor');
  const touched = await followerRepository.depositsLandedAbove(db, network, ancestor.number);
  // Read before the database transaction, which must not wait on the provider.
  const observations = new Map<string, ChainObservation>();
  for (const deposit of touched) {
    if (!observations.has(deposit.transactionHash)) observations.set(deposit.transactionHash, await client.observe(deposit.transactionHash));
  }
  const common = ancestor;
  await db.transaction(async (transaction) => {
    await followerRepository.lockFollower(transaction, network);
    if ((await followerRepository.newestBlock(transaction, network))?.number !== cursor.number) return;
    await followerRepository.forgetBlocksAbove(transaction, network, common.number);
    await followerRepository.forgetSweepsAbove(transaction, network, common.number);
    await followerRepository.storeBlocks(transaction, network, [followerRepository.toStoredBlock(common)]);
    for (const deposit of touched) {
      const observation = observations.get(deposit.transactionHash);
      if (observation && deposit.logIndex !== null) await settleTouchedDeposit(scope, transaction, deposit.id, deposit.logIndex, observation);
    }
  });
}

/**
 * A deposit whose block a reorganisation replaced: still final on the chain
 * at the same position, it only moved; otherwise a credited one becomes an
 * incident for admins (never kept silently, never credited again) and a
 * pending one is checked again.
 */
async function settleTouchedDeposit(
  scope: FollowerScope,
  transaction: Executor,
  depositId: string,
  position: number,
  observation: ChainObservation,
): Promise<void> {
  const {
    context: { log },
    client,
    network,
  } = scope;
  const deposit = await chainRepository.lockDeposit(transaction, depositId);
  if (!deposit) return;
  const stillThere =
    observation.kind === 'included' &&
    observation.succeeded &&
    observation.final &&
    observation.transfers.some(
      (transfer) =>
        transfer.logIndex === position &&
        transfer.contract === client.usdtContractKey &&
        transfer.to === client.addressKey(deposit.depositAddress) &&
        transfer.amountUsdtMicros === deposit.chainAmountUsdtMicros,
    );
  if (stillThere) {
    await followerRepository.recordLanding(transaction, depositId, observation.blockNumber, null);
    return;
  }
  if (deposit.status === 'approved') {
    const incident = { depositId, userId: deposit.userId, network, transactionHash: deposit.transactionHash, amountUsdtMicros: deposit.amountUsdtMicros };
    const opened = await followerRepository.openIncident(transaction, incident);
    if (opened) {
      await notifyOfIncident(transaction, incident);
      log.error(
        { network, depositId, userId: deposit.userId },
        'A credited deposit’s transfer is no longer on the chain: incident opened, withdrawals held to its amount',
      );
      await publishDepositChange(transaction, deposit.userId, 'deposit.chain');
    }
  } else if (deposit.status === 'pending') {
    await chainRepository.reopenDepositCheck(transaction, depositId, network);
  }
}

/** The transfers out of the customers' deposit addresses and the shared address: the sweeps, each of an amount a deposit can hold. */
async function recordSweeps(
  transaction: Executor,
  network: DepositNetwork,
  transfers: FollowedTransfer[],
  owners: Map<string, string>,
  sharedKey: string | undefined,
): Promise<void> {
  for (const transfer of transfers) {
    const sender = owners.get(transfer.from);
    if ((sender !== undefined || transfer.from === sharedKey) && transfer.amountUsdtMicros > 0n && transfer.amountUsdtMicros <= MAX_USDT_MICROS) {
      await followerRepository.recordSweep(transaction, {
        network,
        transactionHash: transfer.transactionHash,
        logIndex: transfer.logIndex,
        fromAddress: transfer.from,
        toAddress: transfer.to,
        amountUsdtMicros: transfer.amountUsdtMicros,
        blockNumber: transfer.blockNumber,
        userId: sender ?? null,
      });
    }
  }
}

function groupByTransaction(transfers: FollowedTransfer[]): Map<string, FollowedTransfer[]> {
  const groups = new Map<string, FollowedTransfer[]>();
  for (const transfer of transfers) {
    const group = groups.get(transfer.transactionHash);
    if (group) group.push(transfer);
    else groups.set(transfer.transactionHash, [transfer]);
  }
  return groups;
}

/** A transaction as final range logs show it: it succeeded (a reverted one leaves no logs), and these are its USDT transfers. */
function finalObservation(group: FollowedTransfer[]): ChainObservation {
  const blockNumber = group[0]?.blockNumber ?? 0n;
  return { kind: 'included', succeeded: true, blockNumber, confirmations: 0, requiredConfirmations: 0, final: true, transfers: group };
}
