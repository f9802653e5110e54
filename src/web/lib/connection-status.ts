import { useSyncExternalStore } from 'react';
import { apiAnswers } from './api.ts';

/**
 * Whether the app can reach its server, as the browser and the API's own answers tell: the
 * browser's offline state, or an answer that says the server is unavailable (no answer at all,
 * 502, 503, 504). Any other answer means the server is back. The offline banner and the money
 * buttons read this one store.
 */
export interface ConnectionStatus {
  /** The browser says there is no network. */
  browserOffline: boolean;
  /** The last API call got no answer, or one that says the server is unavailable. */
  serverUnavailable: boolean;
  /** When the last successful API answer arrived (epoch milliseconds): the figures on screen are as of then. */
  lastAnswerAt: number | null;
}

function isUnavailableAnswer(httpStatus: number): boolean {
  return httpStatus === 0 || httpStatus === 502 || httpStatus === 503 || httpStatus === 504;
}

/** The API's answers are recorded in one place, apiAnswers (api.ts, from before this store loads); the store only reads them. */
function read(browserOffline: boolean): ConnectionStatus {
  return {
    browserOffline,
    serverUnavailable: apiAnswers.httpStatus !== null && isUnavailableAnswer(apiAnswers.httpStatus),
    lastAnswerAt: apiAnswers.successAt,
  };
}

let status = read(typeof navigator !== 'undefined' && navigator.onLine === false);
const listeners = new Set<() => void>();

function refresh(browserOffline = status.browserOffline): void {
  const next = read(browserOffline);
  if (next.browserOffline === status.browserOffline && next.serverUnavailable === status.serverUnavailable && next.lastAnswerAt === status.lastAnswerAt) return;
  status = next;
  for (const listener of listeners) listener();
}

apiAnswers.listener = () => refresh();
if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => refresh(true));
  window.addEventListener('online', () => refresh(false));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = (): ConnectionStatus => status;

export function useConnectionStatus(): ConnectionStatus {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** True while money actions cannot reach the server; they are refused then, never queued. */
export function isOffline(current: ConnectionStatus): boolean {
  return current.browserOffline || current.serverUnavailable;
}

/** The reason shown beside a disabled money button. */
export const OFFLINE_ACTION_REASON = 'You are offline. Money actions need a connection; nothing is sent or queued until you are back online.';
