import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema.ts';

export interface StoredAnswer {
  operation: string;
  requestHash: string;
  responseStatus: number;
  responseBody: unknown;
}

export async function find(db: Executor, userId: string, key: string): Promise<StoredAnswer | undefined> {
  const [row] = await db
    .select({
      operation: idempotencyKeys.operation,
      requestHash: idempotencyKeys.requestHash,
      responseStatus: idempotencyKeys.responseStatus,
      responseBody: idempotencyKeys.responseBody,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return row;
}

/**
 * Claims the key for this transaction. A concurrent claim of the same key
 * waits here until the first transaction ends; when that one committed, this
 * answers false.
 */
export async function claim(db: Executor, values: { userId: string; key: string; operation: string; requestHash: string }): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ ...values, responseStatus: 0, responseBody: {} })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return inserted.length === 1;
}

export async function saveAnswer(db: Executor, userId: string, key: string, responseStatus: number, responseBody: unknown): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ responseStatus, responseBody })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
}
