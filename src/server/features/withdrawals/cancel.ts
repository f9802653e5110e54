import { lastFourDigits } from '#shared/contracts/bank-accounts';
import { WITHDRAWAL_MESSAGES, type Withdrawal } from '#shared/contracts/withdrawals';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { house, moveMoney, wallet } from '../../platform/ledger/ledger.ts';
import { createNotifications } from '../../platform/notifications/service.ts';
import { withdrawalCancelled } from '../notifications/templates.ts';
import { findOpenChange } from '../pending-changes/service.ts';
import { recoverWrittenOffRewards } from '../referrals/service.ts';
import * as withdrawalRepository from './repository.ts';
import { toWithdrawalView } from './views.ts';

/**
 * A customer cancels their own withdrawal while it is still pending (decision 044): not in a payout
 * batch or sent to a payout provider (both move it out of `pending`), and with no first approval of a
 * large withdrawal waiting (that admin may already have paid it by hand). In one transaction the row is
 * locked, marked cancelled by a conditional update, and the held USDT goes back to the wallet through
 * the ledger, with an audit entry, the events and a notification.
 *
 * Races: an admin's decision, a batch's claim and a second cancel all change the row only while it is
 * `pending`, and each waits for the row lock the other holds, so exactly one of them wins; the losers
 * see the new status (409) or skip the row.
 */
export async function cancelOwnWithdrawal(
  db: Database,
  customer: { userId: string; ipAddress: string },
  withdrawalId: string,
): Promise<{ withdrawal: Withdrawal; message: string }> {
  return db.transaction(async (transaction) => {
    // Another customer's withdrawal is as unknown as a missing one (404), so ids cannot be probed.
    const locked = await withdrawalRepository.findOwnedForUpdate(transaction, customer.userId, withdrawalId);
    if (!locked) throw AppError.notFound(WITHDRAWAL_MESSAGES.notFound);
    refuseUnlessCancellable(locked.status);
    // Locked after the withdrawal, the order an admin's approval takes (the withdrawal, then its pending change).
    if (await findOpenChange(transaction, 'large_withdrawal_approval', locked.id)) {
      throw AppError.conflict(WITHDRAWAL_MESSAGES.cannotCancelApproving, 'DECIDED_ELSEWHERE');
    }
    const cancelled = await withdrawalRepository.cancelPending(transaction, customer.userId, locked.id);
    if (!cancelled) throw new Error(`withdrawal ${locked.id} left pending while it was locked`);
    // The refund first repays what a referral reward's write-off counted as spent while this withdrawal held it (decision 045).
    const recovered = await recoverWrittenOffRewards(transaction, {
      userId: customer.userId,
      amountUsdtMicros: cancelled.amountUsdtMicros,
      heldAt: cancelled.createdAt,
    });
    await moveMoney(transaction, [
      {
        from: house('withdrawals_pending'),
        to: wallet(customer.userId),
        amountUsdtMicros: cancelled.amountUsdtMicros,
        reason: 'withdrawal_refund',
        referenceId: cancelled.id,
      },
      ...recovered,
    ]);
    await recordAudit(transaction, {
      actorUserId: customer.userId,
      action: 'withdrawal.cancel',
      targetType: 'withdrawal',
      targetId: cancelled.id,
      targetUserId: customer.userId,
      before: { status: 'pending' },
      after: { status: 'cancelled', refundedUsdtMicros: cancelled.amountUsdtMicros, cancelledBy: 'customer' },
      ipAddress: customer.ipAddress,
    });
    await publishEvent(transaction, { type: 'wallet.updated', userId: customer.userId, reason: 'withdrawal.cancelled' });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
    await createNotifications(transaction, [withdrawalCancelled({ ...cancelled, accountNumberLast4: lastFourDigits(cancelled.accountNumber) })]);
    return { withdrawal: toWithdrawalView(cancelled), message: WITHDRAWAL_MESSAGES.cancelled };
  });
}

function refuseUnlessCancellable(status: Withdrawal['status']): void {
  if (status === 'pending') return;
  if (status === 'processing') throw AppError.conflict(WITHDRAWAL_MESSAGES.cannotCancelProcessing, 'DECIDED_ELSEWHERE');
  throw AppError.conflict(WITHDRAWAL_MESSAGES.cannotCancelDecided, 'ALREADY_DECIDED');
}
