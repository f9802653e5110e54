import type { KycDocumentType } from '#shared/contracts/kyc-documents';

export const DOCUMENT_TYPE_LABELS: Record<KycDocumentType, string> = {
  passport: 'Passport',
  driving_licence: 'Driving licence',
  voter_id: 'Voter ID (EPIC)',
  aadhaar_masked: 'Masked Aadhaar',
};
