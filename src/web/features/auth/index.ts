/** What other features may use of the auth feature. */
export { useMe } from './session.ts';
export { useEndOfSessionHandler, useLeaveEndedSession } from './use-end-of-session.ts';
