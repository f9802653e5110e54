import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { passwordResetTokens } from '../../db/schema.ts';

/** Password-reset tokens, stored by their SHA-256 only. */

export async function insertResetToken(db: Executor, values: { userId: string; tokenHash: Buffer; lifetimeMinutes: number }): Promise<void> {
  await db.insert(passwordResetTokens).values({
    userId: values.userId,
    tokenHash: values.tokenHash,
    expiresAt: sql`now() + make_interval(mins => ${values.lifetimeMinutes})`,
  });
}

/** Marks an unused, unexpired token used and answers whose it was; undefined when no such token exists. */
export async function claimResetToken(db: Executor, tokenHash: Buffer): Promise<{ userId: string } | undefined> {
  const [claimed] = await db
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), sql`${passwordResetTokens.expiresAt} > now()`))
    .returning({ userId: passwordResetTokens.userId });
  return claimed;
}

/** Whether an unused, unexpired token with this hash exists; it changes nothing. */
export async function isResetTokenUsable(db: Executor, tokenHash: Buffer): Promise<boolean> {
  const [row] = await db
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), sql`${passwordResetTokens.expiresAt} > now()`));
  return row !== undefined;
}

/** Marks every still unused token of the user used. */
export async function useUpResetTokensOfUser(db: Executor, userId: string): Promise<void> {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
