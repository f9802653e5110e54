/** What other features may use of the legal feature: the operator's identity and the consent notice before KYC. */
export { useConsentAccepted } from './api.ts';
export { ConsentStep } from './consent-step.tsx';
export { OperatorFooterLine, OperatorIdentityDetails } from './operator-identity.tsx';
