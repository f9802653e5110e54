import { and, asc, eq, sql } from 'drizzle-orm';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { depositAddresses, depositExtendedKeys } from '../../db/schema.ts';

export type DepositAddressRow = typeof depositAddresses.$inferSelect;

/** Serialises a customer's first address on a network until the transaction ends. */
export async function lockCustomer(db: Executor, network: DepositNetwork, userId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('deposit-address-customer'), hashtext(${`${network}:${userId}`}))`);
}

/** Serialises index allocation under one key until the transaction ends, so two customers never get one index. */
export async function lockAllocation(db: Executor, network: DepositNetwork, extendedPublicKey: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('deposit-address-allocation'), hashtext(${`${network}:${extendedPublicKey}`}))`);
}

/** One past the highest index ever handed out under this key (rows are never deleted, so no index comes back). */
export async function nextIndex(db: Executor, network: DepositNetwork, extendedPublicKey: string): Promise<number> {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${depositAddresses.addressIndex}) + 1, 0)::bigint` })
    .from(depositAddresses)
    .where(and(eq(depositAddresses.network, network), eq(depositAddresses.extendedPublicKey, extendedPublicKey)));
  return Number(row?.next ?? 0);
}

export async function insert(
  db: Executor,
  values: { network: DepositNetwork; addressIndex: number; userId: string; extendedPublicKey: string; address: string },
): Promise<DepositAddressRow> {
  const [row] = await db.insert(depositAddresses).values(values).returning();
  if (!row) throw new Error('insert into deposit_addresses returned no row');
  return row;
}

/** The customer's address on the network under any key, the first one handed out: an issued address never changes (decision 045). */
export async function findAnyForUser(db: Executor, network: DepositNetwork, userId: string): Promise<DepositAddressRow | undefined> {
  const [row] = await db
    .select()
    .from(depositAddresses)
    .where(and(eq(depositAddresses.network, network), eq(depositAddresses.userId, userId)))
    .orderBy(asc(depositAddresses.createdAt))
    .limit(1);
  return row;
}

export async function countIssued(db: Executor, network: DepositNetwork): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(depositAddresses)
    .where(eq(depositAddresses.network, network));
  return row?.count ?? 0;
}

export async function findSettingsKey(db: Executor, network: DepositNetwork): Promise<string | undefined> {
  const [row] = await db.select({ key: depositExtendedKeys.extendedPublicKey }).from(depositExtendedKeys).where(eq(depositExtendedKeys.network, network));
  return row?.key;
}

/** Serialises changes of the settings' keys (a save, a confirm) until the transaction ends. */
export async function lockSettingsKeys(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('deposit-extended-keys'))`);
}

export async function saveSettingsKey(db: Executor, network: DepositNetwork, extendedPublicKey: string, userId: string): Promise<void> {
  await db
    .insert(depositExtendedKeys)
    .values({ network, extendedPublicKey, setByUserId: userId })
    .onConflictDoUpdate({ target: depositExtendedKeys.network, set: { extendedPublicKey, setByUserId: userId, setAt: sql`now()` } });
}
