import { and, asc, desc, eq, gt, isNotNull, isNull, lt, sql, sum } from 'drizzle-orm';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { chainBlocks, chainIncidents, depositAddresses, sweepPlanItems, sweepPlans, usdtDeposits, usdtSweeps } from '../../db/schema.ts';
import type { FollowedBlock, FollowedTransfer } from './observation.ts';

/** A block the follower read; the parent hash is unknown for a block seen only through its logs. */
export interface StoredBlock {
  number: bigint;
  hash: string;
}

/** The follower's cursor: the newest block it read on the network. */
export async function newestBlock(db: Executor, network: DepositNetwork): Promise<StoredBlock | undefined> {
  const [row] = await db
    .select({ number: chainBlocks.blockNumber, hash: chainBlocks.blockHash })
    .from(chainBlocks)
    .where(eq(chainBlocks.network, network))
    .orderBy(desc(chainBlocks.blockNumber))
    .limit(1);
  return row;
}

/** Whether the follower has read the network up to `blockNumber`. */
export async function hasRead(db: Executor, network: DepositNetwork, blockNumber: bigint | null): Promise<boolean> {
  const cursor = await newestBlock(db, network);
  return cursor !== undefined && blockNumber !== null && blockNumber <= cursor.number;
}

/** The stored blocks, newest first, at most `limit` of them: where a rewind looks for the common ancestor. */
export async function storedBlocksNewestFirst(db: Executor, network: DepositNetwork, limit: number): Promise<StoredBlock[]> {
  return db
    .select({ number: chainBlocks.blockNumber, hash: chainBlocks.blockHash })
    .from(chainBlocks)
    .where(eq(chainBlocks.network, network))
    .orderBy(desc(chainBlocks.blockNumber))
    .limit(limit);
}

export async function storeBlocks(db: Executor, network: DepositNetwork, blocks: (StoredBlock & { parentHash: string | null })[]): Promise<void> {
  if (blocks.length === 0) return;
  await db
    .insert(chainBlocks)
    .values(blocks.map((block) => ({ network, blockNumber: block.number, blockHash: block.hash, parentHash: block.parentHash })))
    .onConflictDoNothing();
}

/** Forgets blocks a reorganisation replaced (above the common ancestor). */
export async function forgetBlocksAbove(db: Executor, network: DepositNetwork, blockNumber: bigint): Promise<void> {
  await db.delete(chainBlocks).where(and(eq(chainBlocks.network, network), gt(chainBlocks.blockNumber, blockNumber)));
}

/** Keeps the window: blocks more than `window` below the newest are no longer needed to find an ancestor. */
export async function forgetBlocksBelow(db: Executor, network: DepositNetwork, blockNumber: bigint): Promise<void> {
  await db.delete(chainBlocks).where(and(eq(chainBlocks.network, network), lt(chainBlocks.blockNumber, blockNumber)));
}

/** Serialises the follower of one network across processes until the end of the transaction. */
export async function lockFollower(db: Executor, network: DepositNetwork): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('chain-follower'), hashtext(${network}))`);
}

export function toStoredBlock(block: FollowedBlock): StoredBlock & { parentHash: string } {
  return { number: block.number, hash: block.hash, parentHash: block.parentHash };
}

/**
 * The customers whose own deposit addresses are among `addresses` (comparison form), looked up in the indexed set.
 * The addresses go as one array parameter: a busy range pays more distinct addresses than a statement may have parameters.
 */
export async function depositAddressOwners(db: Executor, network: DepositNetwork, addresses: string[]): Promise<Map<string, string>> {
  if (addresses.length === 0) return new Map();
  const rows = await db
    .select({ address: depositAddresses.address, userId: depositAddresses.userId })
    .from(depositAddresses)
    .where(and(eq(depositAddresses.network, network), sql`${depositAddresses.address} = any(${sql.param(addresses)}::text[])`));
  return new Map(rows.map((row) => [row.address, row.userId]));
}

/** A final transfer to a customer's own deposit address, as the follower credits it (creditOwnAddressTransfers). */
export interface OwnAddressTransfer {
  userId: string;
  transfer: FollowedTransfer;
}

/** Every deposit address of the network with its customer. */
export async function allDepositAddressOwners(db: Executor, network: DepositNetwork): Promise<Map<string, string>> {
  const rows = await db
    .select({ address: depositAddresses.address, userId: depositAddresses.userId })
    .from(depositAddresses)
    .where(eq(depositAddresses.network, network));
  return new Map(rows.map((row) => [row.address, row.userId]));
}

/** The deposit that stands for a transfer: the credit key (network, hash, position within the transaction). */
export async function depositOfTransfer(db: Executor, network: DepositNetwork, transactionHash: string, position: number) {
  const [row] = await db
    .select({ id: usdtDeposits.id, userId: usdtDeposits.userId })
    .from(usdtDeposits)
    .where(and(eq(usdtDeposits.network, network), eq(usdtDeposits.transactionHash, transactionHash), eq(usdtDeposits.chainLogIndex, position)));
  return row;
}

export async function recordLanding(db: Executor, depositId: string, blockNumber: bigint, blockHash: string | null): Promise<void> {
  await db.update(usdtDeposits).set({ chainBlockNumber: blockNumber, chainBlockHash: blockHash }).where(eq(usdtDeposits.id, depositId));
}

/** Deposits bound to a transfer in a block above `blockNumber`: the ones a reorganisation down to it touches. */
export async function depositsLandedAbove(db: Executor, network: DepositNetwork, blockNumber: bigint) {
  return db
    .select({ id: usdtDeposits.id, transactionHash: usdtDeposits.transactionHash, logIndex: usdtDeposits.chainLogIndex, status: usdtDeposits.status })
    .from(usdtDeposits)
    .where(and(eq(usdtDeposits.network, network), isNotNull(usdtDeposits.chainLogIndex), gt(usdtDeposits.chainBlockNumber, blockNumber)))
    .orderBy(asc(usdtDeposits.chainBlockNumber));
}

/** Opens an incident for a credited deposit whose transfer vanished; false when one is open already. */
export async function openIncident(
  db: Executor,
  values: { depositId: string; userId: string; network: DepositNetwork; transactionHash: string; amountUsdtMicros: bigint },
): Promise<boolean> {
  const rows = await db
    .insert(chainIncidents)
    .values({ ...values, kind: 'transfer_vanished' })
    .onConflictDoNothing({ target: chainIncidents.depositId, where: sql`resolved_at is null` })
    .returning({ id: chainIncidents.id });
  return rows.length > 0;
}

/** Closes the deposit's open incident because its transfer is final on the chain again; the incident and the user whose hold ends, if any. */
export async function resolveIncidentReincluded(db: Executor, depositId: string): Promise<{ id: string; userId: string } | undefined> {
  const [row] = await db
    .update(chainIncidents)
    .set({ resolvedAt: sql`now()`, resolution: 'reincluded' })
    .where(and(eq(chainIncidents.depositId, depositId), isNull(chainIncidents.resolvedAt)))
    .returning({ id: chainIncidents.id, userId: chainIncidents.userId });
  return row;
}

/** The incident, locked until the transaction ends: a settlement and the chain's own closing wait for each other. */
export async function findIncidentForUpdate(db: Executor, id: string): Promise<IncidentRow | undefined> {
  const [row] = await db.select().from(chainIncidents).where(eq(chainIncidents.id, id)).for('update');
  return row;
}

/** Settles an open incident; false when it was settled meanwhile. */
export async function resolveIncident(
  db: Executor,
  id: string,
  values: { resolution: 'debited' | 'written_off'; reason: string; resolvedByUserId: string },
): Promise<IncidentRow | undefined> {
  const [row] = await db
    .update(chainIncidents)
    .set({ resolvedAt: sql`now()`, resolution: values.resolution, resolutionReason: values.reason, resolvedByUserId: values.resolvedByUserId })
    .where(and(eq(chainIncidents.id, id), isNull(chainIncidents.resolvedAt)))
    .returning();
  return row;
}

/** What a customer's withdrawals may not spend: the credited amounts of their open incidents. */
export async function heldUsdtMicros(db: Executor, userId: string): Promise<bigint> {
  const [row] = await db
    .select({ held: sum(chainIncidents.amountUsdtMicros) })
    .from(chainIncidents)
    .where(and(eq(chainIncidents.userId, userId), isNull(chainIncidents.resolvedAt)));
  return BigInt(row?.held ?? 0);
}

export type IncidentRow = typeof chainIncidents.$inferSelect;

/** Incidents for admins, open ones first, newest first within each. */
export async function listIncidents(db: Executor, limit: number): Promise<IncidentRow[]> {
  return db
    .select()
    .from(chainIncidents)
    .orderBy(sql`${chainIncidents.resolvedAt} is null desc`, desc(chainIncidents.openedAt))
    .limit(limit);
}

/**
 * Records USDT that left a customer's deposit address or the shared address (a sweep), once per
 * transfer, and matches it to the address's open row of the newest sweep plan of the network.
 */
export async function recordSweep(
  db: Executor,
  values: {
    network: DepositNetwork;
    transactionHash: string;
    logIndex: number;
    fromAddress: string;
    toAddress: string;
    amountUsdtMicros: bigint;
    blockNumber: bigint;
    userId: string | null;
  },
): Promise<void> {
  const [sweep] = await db
    .insert(usdtSweeps)
    .values(values)
    .onConflictDoUpdate({ target: [usdtSweeps.network, usdtSweeps.transactionHash, usdtSweeps.logIndex], set: { blockNumber: values.blockNumber } })
    .returning({ id: usdtSweeps.id });
  if (!sweep) return;
  await db.execute(sql`
    update ${sweepPlanItems} set sweep_id = ${sweep.id}
    where (plan_id, address) = (
      select i.plan_id, i.address from ${sweepPlanItems} i join ${sweepPlans} p on p.id = i.plan_id
      where p.network = ${values.network} and i.address = ${values.fromAddress} and i.sweep_id is null
      order by p.created_at desc limit 1
    )
    and not exists (select 1 from ${sweepPlanItems} matched where matched.sweep_id = ${sweep.id})`);
}

/** Forgets sweeps a reorganisation replaced; their plan rows become open again (the key sets them null). */
export async function forgetSweepsAbove(db: Executor, network: DepositNetwork, blockNumber: bigint): Promise<void> {
  await db.delete(usdtSweeps).where(and(eq(usdtSweeps.network, network), gt(usdtSweeps.blockNumber, blockNumber)));
}
