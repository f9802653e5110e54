import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { chainBlocks, depositAddresses, sweepPlanItems, sweepPlans, users, usdtSweeps } from '../../db/schema.ts';

/*
 * What the app's records say each deposit address should hold: the approved deposits paid to it,
 * less those whose transfer vanished and an admin settled (known not to be on chain), less the
 * sweeps the follower read out of it. Addresses compare in the network's form (lower case on
 * Ethereum), as the follower stores them.
 */

function comparable(network: DepositNetwork, column: ReturnType<typeof sql>) {
  return network === 'ERC20' ? sql`lower(${column})` : column;
}

function creditedAt(network: DepositNetwork, address: ReturnType<typeof sql>) {
  return sql`(select coalesce(sum(d.amount_usdt_micros), 0) from usdt_deposits d
    where d.network = ${network} and d.status = 'approved' and ${comparable(network, sql`d.deposit_address`)} = ${address}
      and not exists (select 1 from chain_incidents i where i.deposit_id = d.id and i.resolution in ('debited', 'written_off')))`;
}

function sweptFrom(network: DepositNetwork, address: ReturnType<typeof sql>) {
  return sql`(select coalesce(sum(s.amount_usdt_micros), 0) from usdt_sweeps s where s.network = ${network} and s.from_address = ${address})`;
}

export interface AddressBook {
  address: string;
  userId: string | null;
  email: string | null;
  addressIndex: number | null;
  creditedUsdtMicros: bigint;
  sweptUsdtMicros: bigint;
}

/** A page of customer deposit addresses of the network, ordered by address, after `afterAddress`. */
export async function customerAddressPage(db: Executor, network: DepositNetwork, afterAddress: string | undefined, limit: number): Promise<AddressBook[]> {
  const rows = await db
    .select({
      address: depositAddresses.address,
      userId: depositAddresses.userId,
      email: users.email,
      addressIndex: depositAddresses.addressIndex,
      credited: sql<string>`${creditedAt(network, sql`${depositAddresses.address}`)}::text`,
      swept: sql<string>`${sweptFrom(network, sql`${depositAddresses.address}`)}::text`,
    })
    .from(depositAddresses)
    .innerJoin(users, eq(users.id, depositAddresses.userId))
    .where(and(eq(depositAddresses.network, network), afterAddress === undefined ? undefined : gt(depositAddresses.address, afterAddress)))
    .orderBy(asc(depositAddresses.address))
    .limit(limit);
  return rows.map((row) => ({ ...row, creditedUsdtMicros: BigInt(row.credited), sweptUsdtMicros: BigInt(row.swept) }));
}

/** The shared address's book, by its comparison form. */
export async function sharedAddressBook(db: Executor, network: DepositNetwork, address: string): Promise<AddressBook> {
  const result = await db.execute<{ credited: string; swept: string }>(
    sql`select ${creditedAt(network, sql`${address}`)}::text as credited, ${sweptFrom(network, sql`${address}`)}::text as swept`,
  );
  const row = result.rows[0];
  return { address, userId: null, email: null, addressIndex: null, creditedUsdtMicros: BigInt(row?.credited ?? 0), sweptUsdtMicros: BigInt(row?.swept ?? 0) };
}

/** Totals of every customer address of the network from the records alone. */
export async function networkTotals(
  db: Executor,
  network: DepositNetwork,
): Promise<{ creditedUsdtMicros: bigint; sweptUsdtMicros: bigint; addresses: number }> {
  const result = await db.execute<{ credited: string; swept: string; addresses: number }>(sql`
    select
      (select coalesce(sum(d.amount_usdt_micros), 0) from usdt_deposits d join deposit_addresses a on a.network = d.network and a.address = ${comparable(network, sql`d.deposit_address`)}
        where d.network = ${network} and d.status = 'approved'
          and not exists (select 1 from chain_incidents i where i.deposit_id = d.id and i.resolution in ('debited', 'written_off')))::text as credited,
      (select coalesce(sum(s.amount_usdt_micros), 0) from usdt_sweeps s where s.network = ${network} and s.user_id is not null)::text as swept,
      (select count(*)::int from deposit_addresses where network = ${network}) as addresses`);
  const row = result.rows[0];
  return { creditedUsdtMicros: BigInt(row?.credited ?? 0), sweptUsdtMicros: BigInt(row?.swept ?? 0), addresses: Number(row?.addresses ?? 0) };
}

export async function followerCursor(db: Executor, network: DepositNetwork): Promise<bigint | undefined> {
  const [row] = await db
    .select({ number: chainBlocks.blockNumber })
    .from(chainBlocks)
    .where(eq(chainBlocks.network, network))
    .orderBy(desc(chainBlocks.blockNumber))
    .limit(1);
  return row?.number;
}

/** Customer addresses a sweep plan considers: those the records say hold something, fullest first. */
export async function sweepCandidates(db: Executor, network: DepositNetwork, limit: number): Promise<AddressBook[]> {
  const result = await db.execute<{ address: string; user_id: string; address_index: number; credited: string; swept: string }>(sql`
    select a.address, a.user_id, a.address_index, c.credited::text, c.swept::text from deposit_addresses a
    cross join lateral (select ${creditedAt(network, sql`a.address`)} as credited, ${sweptFrom(network, sql`a.address`)} as swept) c
    where a.network = ${network}
      and (c.credited > c.swept or exists (select 1 from usdt_deposits p where p.network = ${network} and p.status = 'pending' and ${comparable(network, sql`p.deposit_address`)} = a.address))
    order by c.credited - c.swept desc, a.address
    limit ${limit}`);
  return result.rows.map((row) => ({
    address: row.address,
    userId: row.user_id,
    email: null,
    addressIndex: row.address_index,
    creditedUsdtMicros: BigInt(row.credited),
    sweptUsdtMicros: BigInt(row.swept),
  }));
}

export async function insertPlan(
  db: Executor,
  plan: { network: DepositNetwork; thresholdUsdtMicros: bigint; createdByUserId: string },
  items: { address: string; derivationPath: string | null; amountUsdtMicros: bigint; needs: string }[],
): Promise<string> {
  const [row] = await db.insert(sweepPlans).values(plan).returning({ id: sweepPlans.id });
  if (!row) throw new Error('insert into sweep_plans returned no row');
  if (items.length > 0) await db.insert(sweepPlanItems).values(items.map((item) => ({ ...item, planId: row.id })));
  return row.id;
}

export async function findPlan(db: Executor, id: string) {
  const [plan] = await db.select().from(sweepPlans).where(eq(sweepPlans.id, id));
  if (!plan) return undefined;
  const items = await db
    .select({
      address: sweepPlanItems.address,
      derivationPath: sweepPlanItems.derivationPath,
      amountUsdtMicros: sweepPlanItems.amountUsdtMicros,
      needs: sweepPlanItems.needs,
      sweepHash: usdtSweeps.transactionHash,
      sweptUsdtMicros: usdtSweeps.amountUsdtMicros,
    })
    .from(sweepPlanItems)
    .leftJoin(usdtSweeps, eq(usdtSweeps.id, sweepPlanItems.sweepId))
    .where(eq(sweepPlanItems.planId, id))
    .orderBy(desc(sweepPlanItems.amountUsdtMicros), asc(sweepPlanItems.address));
  return { plan, items };
}
