import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { consentAcceptances } from '../../db/schema.ts';

export async function findAcceptance(db: Executor, userId: string, noticeVersion: string): Promise<{ acceptedAt: Date } | undefined> {
  const [row] = await db
    .select({ acceptedAt: consentAcceptances.acceptedAt })
    .from(consentAcceptances)
    .where(and(eq(consentAcceptances.userId, userId), eq(consentAcceptances.noticeVersion, noticeVersion)));
  return row;
}

/** Records the acceptance once: a second acceptance of the same version keeps the first one's time and address. */
export async function insertAcceptance(db: Executor, entry: { userId: string; noticeVersion: string; ipAddress: string }): Promise<void> {
  await db.insert(consentAcceptances).values(entry).onConflictDoNothing();
}
