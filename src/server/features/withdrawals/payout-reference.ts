import { and, eq, ne } from 'drizzle-orm';
import { PAYOUT_BATCH_MESSAGES } from '#shared/contracts/payout-batches';
import type { Executor } from '../../db/client.ts';
import { violatesConstraint } from '../../db/database-errors.ts';
import { withdrawalRequests } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/** The unique index by which one UTR pays one withdrawal (migration 0029). */
const PAYOUT_REFERENCE_INDEX = 'withdrawal_requests_payout_reference_idx';

function payoutReferenceConflict(message: string): AppError {
  return new AppError(409, 'CONFLICT', message, { fields: { payoutReference: message } });
}

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
  if (owner) throw payoutReferenceConflict(PAYOUT_BATCH_MESSAGES.utrUsedElsewhere(owner.reference));
}

/**
 * Runs a write that records a payout reference and answers 409 when the unique index refuses it: the
 * UTR was taken after it was checked (a concurrent approval or results file), or it was never checked
 * on this path (a first approval's UTR, kept in its pending change, that another withdrawal took since).
 */
export async function withPayoutReferenceUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violatesConstraint(error, PAYOUT_REFERENCE_INDEX)) throw payoutReferenceConflict(PAYOUT_BATCH_MESSAGES.utrTakenMeanwhile);
    throw error;
  }
}
