import { and, eq, sql } from 'drizzle-orm';
import type { DepositNetwork } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { depositAddresses } from '../../db/schema.ts';

export type DepositAddressRow = typeof depositAddresses.$inferSelect;

export async function findForUser(db: Executor, network: DepositNetwork, extendedPublicKey: string, userId: string): Promise<DepositAddressRow | undefined> {
  const [row] = await db
    .select()
    .from(depositAddresses)
    .where(and(eq(depositAddresses.network, network), eq(depositAddresses.extendedPublicKey, extendedPublicKey), eq(depositAddresses.userId, userId)));
  return row;
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

export async function insert(db: Executor, values: { network: DepositNetwork; addressIndex: number; userId: string; extendedPublicKey: string; address: string }): Promise<DepositAddressRow> {
  const [row] = await db.insert(depositAddresses).values(values).returning();
  if (!row) throw new Error('insert into deposit_addresses returned no row');
  return row;
}
