import { and, eq, ne } from 'drizzle-orm';
import { PAYOUT_BATCH_MESSAGES } from '#shared/contracts/payout-batches';
import type { Executor } from '../../db/client.ts';
import { withdrawalRequests } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/**
 * One UTR pays one withdrawal (decision 038): an approval naming a payout reference that another
 * withdrawal already carries is refused with a clear answer; the unique index is the backstop for two at once.
 */
export async function refuseUsedPayoutReference(db: Executor, withdrawalId: string, payoutReference: string | undefined): Promise<void> {
  if (payoutReference === undefined) return;
  const [owner] = await db
    .select({ reference: withdrawalRequests.reference })
    .from(withdrawalRequests)
    .where(and(eq(withdrawalRequests.payoutReference, payoutReference), ne(withdrawalRequests.id, withdrawalId)))
    .limit(1);
  if (owner) {
    const message = PAYOUT_BATCH_MESSAGES.utrUsedElsewhere(owner.reference);
    throw new AppError(409, 'CONFLICT', message, { fields: { payoutReference: message } });
  }
}
