import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { userPins } from '../../db/schema.ts';

export async function findPin(db: Executor, userId: string): Promise<{ pinHash: string; failedAttempts: number } | undefined> {
  const [row] = await db.select({ pinHash: userPins.pinHash, failedAttempts: userPins.failedAttempts }).from(userPins).where(eq(userPins.userId, userId));
  return row;
}

/** Counts one wrong PIN atomically, so concurrent guesses cannot share one count. */
export async function recordFailedAttempt(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .update(userPins)
    .set({ failedAttempts: sql`least(${userPins.failedAttempts} + 1, 3)` })
    .where(eq(userPins.userId, userId))
    .returning({ failedAttempts: userPins.failedAttempts });
  return row?.failedAttempts ?? 3;
}

export async function clearFailedAttempts(db: Executor, userId: string): Promise<void> {
  await db.update(userPins).set({ failedAttempts: 0 }).where(eq(userPins.userId, userId));
}

export async function insertPin(db: Executor, userId: string, pinHash: string): Promise<boolean> {
  const inserted = await db.insert(userPins).values({ userId, pinHash }).onConflictDoNothing().returning({ userId: userPins.userId });
  return inserted.length === 1;
}

export async function upsertPin(db: Executor, userId: string, pinHash: string): Promise<void> {
  await db
    .insert(userPins)
    .values({ userId, pinHash })
    .onConflictDoUpdate({ target: userPins.userId, set: { pinHash, failedAttempts: 0, updatedAt: sql`now()` } });
}
