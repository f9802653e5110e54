import { useSyncExternalStore } from 'react';
import { apiAnswers } from './api.ts';

/**
 * Whether the app can reach its server, as the browser and the API's own answers tell: the
 * browser's offline state, or an answer that says the server is unavailable (no answer at all,
 * 502, 503, 504). Any other answer means the server is back. The offline banner, the money
 * buttons and the error boundary read this one store.
 */
export interface ConnectionStatus {
  /** The browser says there is no network. */
  browserOffline: boolean;
  /** The last API call got no answer, or one that says the server is unavailable. */
  serverUnavailable: boolean;
  /** When the last successful API answer arrived (epoch milliseconds): the figures on screen are as of then. */
  lastAnswerAt: number | null;
}

let status: ConnectionStatus = {
  browserOffline: typeof navigator !== 'undefined' && navigator.onLine === false,
  serverUnavailable: false,
  lastAnswerAt: null,
};
const listeners = new Set<() => void>();

function update(next: Partial<ConnectionStatus>): void {
  const merged = { ...status, ...next };
  if (merged.browserOffline === status.browserOffline && merged.serverUnavailable === status.serverUnavailable && merged.lastAnswerAt === status.lastAnswerAt) return;
  status = merged;
  for (const listener of listeners) listener();
}

apiAnswers.listener = reportApiAnswer;
status = {
  ...status,
  serverUnavailable: apiAnswers.httpStatus !== null && isUnavailableAnswer(apiAnswers.httpStatus),
  lastAnswerAt: apiAnswers.successAt,
};

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => update({ browserOffline: true }));
  window.addEventListener('online', () => update({ browserOffline: false }));
}

function isUnavailableAnswer(httpStatus: number): boolean {
  return httpStatus === 0 || httpStatus === 502 || httpStatus === 503 || httpStatus === 504;
}

/** Told by apiRequest about every answer (through apiAnswers.listener), and by the offline banner's health probe. */
export function reportApiAnswer(httpStatus: number): void {
  if (isUnavailableAnswer(httpStatus)) {
    update({ serverUnavailable: true });
  } else {
    update({ serverUnavailable: false, ...(httpStatus < 400 ? { lastAnswerAt: Date.now() } : {}) });
  }
}

export function subscribeToConnectionStatus(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function connectionStatus(): ConnectionStatus {
  return status;
}

export function useConnectionStatus(): ConnectionStatus {
  return useSyncExternalStore(subscribeToConnectionStatus, connectionStatus, connectionStatus);
}

/** True while money actions cannot reach the server; they are refused then, never queued. */
export function isOffline(current: ConnectionStatus): boolean {
  return current.browserOffline || current.serverUnavailable;
}

/** The reason shown beside a disabled money button. */
export const OFFLINE_ACTION_REASON = 'You are offline. Money actions need a connection; nothing is sent or queued until you are back online.';
