/** What other features may use of the wallet feature. */
export { useIdempotencyKeys } from './api.ts';
