import type { KycCheck, KycCheckState, NameMatchVerdict, RiskCategory } from '#shared/contracts/kyc';

type Tone = 'default' | 'success' | 'warning' | 'danger';

export const RISK_LABELS: Record<RiskCategory, string> = { low: 'Low risk', medium: 'Medium risk', high: 'High risk' };
export const RISK_TONES: Record<RiskCategory, Tone> = { low: 'default', medium: 'warning', high: 'danger' };
export const NAME_MATCH_TONES: Record<NameMatchVerdict, Tone> = { match: 'success', partial: 'warning', mismatch: 'danger' };

export const KYC_CHECK_LABELS: Record<KycCheck, string> = {
  email: 'E-mail',
  mobile: 'Mobile number',
  pan: 'PAN',
  taxResidence: 'Tax residence',
  secondDocument: 'Second document',
  selfie: 'Live selfie',
  address: 'Address',
};

export const KYC_STATE_LABELS: Record<KycCheckState, { label: string; tone: Tone }> = {
  verified: { label: 'Verified', tone: 'success' },
  pending: { label: 'Waiting for review', tone: 'warning' },
  rejected: { label: 'Rejected', tone: 'danger' },
  missing: { label: 'Missing', tone: 'warning' },
  not_available: { label: 'Not available yet', tone: 'default' },
};
