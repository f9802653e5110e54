/** What other features may use of the events feature: a toast that loads its toaster on demand. */
export { notify } from './notify.ts';
