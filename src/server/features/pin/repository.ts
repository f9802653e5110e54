import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { userPins } from '../../db/schema.ts';

/** Locks the user's PIN row, so that PIN checks of one user run one after another. */
export async function lockPin(db: Executor, userId: string): Promise<{ pinHash: string; failedAttempts: number } | undefined> {
  const [row] = await db
    .select({ pinHash: userPins.pinHash, failedAttempts: userPins.failedAttempts })
    .from(userPins)
    .where(eq(userPins.userId, userId))
    .for('update');
  return row;
}

export async function setFailedAttempts(db: Executor, userId: string, failedAttempts: number): Promise<void> {
  await db.update(userPins).set({ failedAttempts }).where(eq(userPins.userId, userId));
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
