import { useLiveUpdates } from './use-live-updates.ts';

/** Mounted once at the root of the app: keeps every open page in step with changes made elsewhere. */
export function LiveUpdates() {
  useLiveUpdates();
  return null;
}
