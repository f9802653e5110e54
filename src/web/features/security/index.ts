/**
 * What other features may use of the security pauses: the wallet's transfer and withdrawal forms and the bank
 * accounts page read them, and the bank accounts page refreshes them after a change.
 */
export { SECURITY_PAUSES_QUERY_KEY, useSecurityPauses } from './api.ts';
