/** What other features may use of the auth feature. */
export { useEndOfSessionHandler } from './use-end-of-session.ts';
