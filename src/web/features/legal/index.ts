/** What other features may use of the legal feature: the operator's identity and the consent notice before KYC. */
export { ConsentStep, useConsentAccepted } from './consent-notice.tsx';
export { OperatorFooterLine, OperatorIdentityDetails } from './operator-identity.tsx';
