/** What other features may use of the KYC feature. */
export { KycGateNotice } from './kyc-gate-notice.tsx';
