import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { DepositNetwork, Language } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import { customerWallets, profiles, users, walletChallenges } from '../../db/schema.ts';

export type WalletRow = typeof customerWallets.$inferSelect;

/** Challenges kept per customer; asking for more drops the oldest. */
const MAX_OPEN_CHALLENGES_PER_USER = 5;

export async function insertChallenge(
  db: Executor,
  values: { userId: string; network: DepositNetwork; addressKey: string; message: string; lifetimeMinutes: number },
): Promise<Date> {
  const [row] = await db
    .insert(walletChallenges)
    .values({
      userId: values.userId,
      network: values.network,
      addressKey: values.addressKey,
      message: values.message,
      expiresAt: sql`now() + make_interval(mins => ${values.lifetimeMinutes})`,
    })
    .returning({ expiresAt: walletChallenges.expiresAt });
  if (!row) throw new Error('insert into wallet_challenges returned no row');
  await db.execute(sql`
    delete from wallet_challenges where user_id = ${values.userId} and id not in (
      select id from wallet_challenges where user_id = ${values.userId} order by created_at desc limit ${MAX_OPEN_CHALLENGES_PER_USER})`);
  return row.expiresAt;
}

/** The customer's unexpired challenges for one address, newest first. */
export async function openChallenges(db: Executor, userId: string, network: DepositNetwork, addressKey: string): Promise<{ message: string }[]> {
  return db
    .select({ message: walletChallenges.message })
    .from(walletChallenges)
    .where(
      and(
        eq(walletChallenges.userId, userId),
        eq(walletChallenges.network, network),
        eq(walletChallenges.addressKey, addressKey),
        gt(walletChallenges.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(walletChallenges.createdAt));
}

export async function deleteChallenges(db: Executor, userId: string, network: DepositNetwork, addressKey: string): Promise<void> {
  await db
    .delete(walletChallenges)
    .where(and(eq(walletChallenges.userId, userId), eq(walletChallenges.network, network), eq(walletChallenges.addressKey, addressKey)));
}

export async function findByAddress(db: Executor, network: DepositNetwork, addressKey: string): Promise<WalletRow | undefined> {
  const [row] = await db
    .select()
    .from(customerWallets)
    .where(and(eq(customerWallets.network, network), eq(customerWallets.addressKey, addressKey)));
  return row;
}

/** Inserts the wallet; undefined when someone (this customer or another) already proved the address. */
export async function insertUnlessTaken(
  db: Executor,
  values: { userId: string; network: DepositNetwork; address: string; addressKey: string },
): Promise<WalletRow | undefined> {
  const [row] = await db
    .insert(customerWallets)
    .values(values)
    .onConflictDoNothing({ target: [customerWallets.network, customerWallets.addressKey] })
    .returning();
  return row;
}

export async function listForUser(db: Executor, userId: string): Promise<WalletRow[]> {
  return db.select().from(customerWallets).where(eq(customerWallets.userId, userId)).orderBy(desc(customerWallets.verifiedAt), desc(customerWallets.id));
}

/**
 * Serializes one customer's wallet additions so the cap on wallets holds under concurrency (the user row alone is locked);
 * returns where and in which language (the profile's) to write to the customer.
 */
export async function lockUser(db: Executor, userId: string): Promise<{ email: string; language: Language } | undefined> {
  const [row] = await db
    .select({ email: users.email, language: profiles.language })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .for('no key update', { of: users });
  return row;
}

export async function countForUser(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(customerWallets)
    .where(eq(customerWallets.userId, userId));
  return row?.count ?? 0;
}

export async function deleteOwned(db: Executor, userId: string, id: string): Promise<WalletRow | undefined> {
  const [row] = await db
    .delete(customerWallets)
    .where(and(eq(customerWallets.id, id), eq(customerWallets.userId, userId)))
    .returning();
  return row;
}

export async function emailOf(db: Executor, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email;
}
