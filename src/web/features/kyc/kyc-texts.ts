import type { KycCheck, KycCheckState, KycMissingItem, MoneyLeaving } from '#shared/contracts/kyc';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';

/*
 * The KYC texts in the screen's language. The server writes the same sentences in English
 * (src/shared/contracts/kyc.ts, the KYC service); the page builds them from the check and its
 * state, so the English catalog holds those sentences verbatim and Hindi has its own.
 */

const MISSING_KEYS: Record<KycMissingItem, MessageKey> = {
  email: 'kyc.missingEmail',
  mobile: 'kyc.missingMobile',
  pan: 'kyc.missingPan',
  panCard: 'kyc.missingPanCard',
  taxResidence: 'kyc.missingTaxResidence',
  secondDocument: 'kyc.missingSecondDocument',
  selfie: 'kyc.missingSelfie',
  address: 'kyc.missingAddress',
};

export function missingText(check: KycMissingItem): string {
  return t(MISSING_KEYS[check]);
}

/** The money gate's refusal, as kycGateMessage writes it. */
export function kycGateText(leaving: MoneyLeaving, missing: readonly KycMissingItem[]): string {
  const list = missing.map((check) => missingText(check)).join('; ');
  return leaving === 'withdrawals' ? t('kyc.gateWithdrawals', { missing: list }) : t('kyc.gateTransfers', { missing: list });
}

/** A check's line under its title, as the KYC service's checkMessage writes it. */
export function checkText(check: KycCheck, state: KycCheckState): string {
  if (state === 'verified') return check === 'taxResidence' ? t('kyc.messageDeclared') : t('kyc.messageVerified');
  if (state === 'pending') return t('kyc.messageWaiting');
  if (state === 'rejected') return t('kyc.stateNotAccepted');
  if (state === 'not_available') return t('kyc.stateNotAvailable');
  return t('kyc.messageMissing', { what: missingText(check) });
}
