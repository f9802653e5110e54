import { PAN_MESSAGES, type PanReview } from '#shared/contracts/kyc';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../platform/audit/record.ts';
import { publishEvent } from '../../platform/events/publish.ts';
import { createNotifications } from '../../platform/notifications/service.ts';
import * as kycRepository from './repository.ts';
import { reviewOf } from './service.ts';

/**
 * The desk asks for the photo of a waiting PAN's card (decision 066), as it asks for a level 2 document again: the
 * PAN keeps waiting, approving it is refused until a photo arrives, and the customer is told why. Audited.
 */
export async function requestPanCard(
  db: Database,
  actor: { userId: string; ipAddress: string },
  customerId: string,
  reason: string,
): Promise<{ message: string; review: PanReview }> {
  return db.transaction(async (transaction) => {
    const row = await kycRepository.findKyc(transaction, customerId, { forUpdate: true });
    if (row === undefined) throw AppError.notFound(PAN_MESSAGES.userNotFound);
    if (customerId === actor.userId) throw AppError.forbidden(PAN_MESSAGES.reviewOwnAccount);
    if (row.pan === null || !(await kycRepository.requestPanCard(transaction, customerId, reason))) throw AppError.conflict(PAN_MESSAGES.reviewNotPending);
    await recordAudit(transaction, {
      actorUserId: actor.userId,
      action: 'kyc_pan.request_card',
      targetType: 'user',
      targetId: customerId,
      targetUserId: customerId,
      before: { cardImageId: row.panCardImageId },
      after: { reason },
      ipAddress: actor.ipAddress,
    });
    await createNotifications(transaction, [
      {
        userId: customerId,
        kind: 'kyc_updated',
        title: 'Add a photo of your PAN card',
        body: `We need a photo of your PAN card to verify your PAN: ${reason}`,
        link: '/kyc',
        emailSubject: 'Add a photo of your PAN card',
        emailText: `We need a photo of your PAN card to verify your PAN: ${reason}\n\nOpen the KYC page in the app to add it.`,
      },
    ]);
    await publishEvent(transaction, { type: 'wallet.updated', userId: customerId, reason: 'kyc.updated' });
    await publishEvent(transaction, { type: 'admin.queue.updated' });
    const after = await kycRepository.findKyc(transaction, customerId);
    if (after === undefined || after.pan === null) throw new Error(`user ${customerId} lost the PAN under lock`);
    return { message: PAN_MESSAGES.cardRequested, review: reviewOf(after, await kycRepository.countOtherAccountsWithPan(transaction, customerId, after.pan)) };
  });
}
