/** What other features use of the session (the rest of this feature's modules are imported by files on the lint's exception list). */
export { useMe } from './session.ts';
export { useEndOfSessionHandler } from './use-end-of-session.ts';
