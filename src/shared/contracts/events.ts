/**
 * GET /api/events: a server-sent event stream. Everyone receives rate and
 * settings changes; a signed-in customer also receives their own wallet
 * changes; admins (the admin role only, decision 040) receive admin
 * queue changes. The web app loads this module before any page, so it holds
 * names and types only, no zod.
 */

export const EVENT_STREAM_PATH = '/api/events';

export const STREAM_EVENT_NAMES = {
  /** First message of every stream, sent once the server is listening for changes. */
  ready: 'ready',
  /** Changes may have been missed (the server's database connection dropped): refresh everything. */
  resync: 'resync',
  settingsUpdated: 'settings.updated',
  walletUpdated: 'wallet.updated',
  adminQueueUpdated: 'admin.queue.updated',
} as const;
export type StreamEventName = (typeof STREAM_EVENT_NAMES)[keyof typeof STREAM_EVENT_NAMES];

/** The `data` of each event, as JSON. */
export interface StreamEventData {
  ready: { audience: 'public' | 'customer' | 'admin' };
  resync: Record<string, never>;
  'settings.updated': Record<string, never>;
  /** `reason` says what changed, e.g. 'deposit.approved'; the user is always the stream's own. */
  'wallet.updated': { reason: string };
  'admin.queue.updated': Record<string, never>;
}

export const EVENT_STREAM_LIMITS = {
  /** A comment line at this interval keeps proxies from closing an idle stream. */
  heartbeatMilliseconds: 15_000,
  /** How long a browser waits before reconnecting (the `retry:` field). */
  retryMilliseconds: 3_000,
  /** Streams of signed-in users are re-checked this often, so a logout or a role change takes effect. */
  sessionCheckMilliseconds: 60_000,
  maxStreamsPerProcess: 2_000,
  maxStreamsPerAddress: 20,
} as const;

export const RATES_UPDATED_TOAST = 'Exchange rates updated';
