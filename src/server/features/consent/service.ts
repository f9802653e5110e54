import { CONSENT_NOTICE_OUTDATED_MESSAGE, CONSENT_NOTICE_VERSION, CONSENT_REQUIRED_MESSAGE, type ConsentStatus } from '#shared/contracts/operator-identity';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import * as consentRepository from './repository.ts';

/** Whether the customer accepted the current consent and privacy notice, and when. */
export async function getConsentStatus(db: Executor, userId: string): Promise<ConsentStatus> {
  const acceptance = await consentRepository.findAcceptance(db, userId, CONSENT_NOTICE_VERSION);
  return { noticeVersion: CONSENT_NOTICE_VERSION, acceptedAt: acceptance ? acceptance.acceptedAt.toISOString() : null };
}

/**
 * Records the acceptance with its time, address and version. Only the current version can be accepted:
 * a page that showed an older text must show the new one first.
 */
export async function acceptNotice(db: Executor, userId: string, noticeVersion: string, ipAddress: string): Promise<ConsentStatus> {
  if (noticeVersion !== CONSENT_NOTICE_VERSION) throw AppError.conflict(CONSENT_NOTICE_OUTDATED_MESSAGE);
  await consentRepository.insertAcceptance(db, { userId, noticeVersion, ipAddress });
  return getConsentStatus(db, userId);
}

/** For a KYC step that must not start before the notice was accepted. */
export async function assertConsentAccepted(db: Executor, userId: string): Promise<void> {
  if (!(await consentRepository.findAcceptance(db, userId, CONSENT_NOTICE_VERSION))) throw AppError.conflict(CONSENT_REQUIRED_MESSAGE);
}
