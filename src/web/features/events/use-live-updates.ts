import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { Me } from '#shared/contracts/auth';
import { EVENT_STREAM_PATH, RATES_UPDATED_TOAST, STREAM_EVENT_NAMES, type StreamEventData } from '#shared/contracts/events';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { notify } from './notify.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** After the server refused the stream (EventSource gives up on an HTTP error), try again after these delays. */
const REOPEN_DELAYS_MILLISECONDS = [2_000, 5_000, 10_000, 30_000, 60_000] as const;

function invalidate(queryClient: QueryClient, ...keys: (readonly string[])[]): void {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

function audienceOf(event: Event): string {
  try {
    const data = JSON.parse((event as MessageEvent<string>).data) as Partial<StreamEventData['ready']>;
    return typeof data.audience === 'string' ? data.audience : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The wallet.updated reason of a new notification (the server's NOTIFICATION_EVENT_REASONS.created). */
const NEW_NOTIFICATION_REASON = 'notification.created';

function reasonOf(event: Event): string | undefined {
  try {
    const data = JSON.parse((event as MessageEvent<string>).data) as Partial<StreamEventData['wallet.updated']>;
    return typeof data.reason === 'string' ? data.reason : undefined;
  } catch {
    return undefined;
  }
}

function refreshEverything(queryClient: QueryClient): void {
  invalidate(queryClient, QUERY_KEYS.rates, QUERY_KEYS.publicSettings, QUERY_KEYS.me, QUERY_KEYS.wallet, QUERY_KEYS.admin);
}

type ShownRates = { normalRate: string; vipRate: string } | undefined;

/**
 * Any save of the settings (a support number, a QR image, a change waiting for a second admin) is
 * announced; the rates' toast is said only when the rates shown on this page did change.
 */
async function settingsChanged(queryClient: QueryClient): Promise<void> {
  invalidate(queryClient, QUERY_KEYS.publicSettings);
  const before = queryClient.getQueryData<ShownRates>(QUERY_KEYS.rates);
  await queryClient.invalidateQueries({ queryKey: QUERY_KEYS.rates });
  const after = queryClient.getQueryData<ShownRates>(QUERY_KEYS.rates);
  if (before && after && (before.normalRate !== after.normalRate || before.vipRate !== after.vipRate))
    notify('success', RATES_UPDATED_TOAST, { id: 'rates-updated' });
}

/** The signed-in user's id as the session check last answered it, without asking the server itself. */
function useKnownUserId(queryClient: QueryClient): string | null {
  return useSyncExternalStore(
    (onChange) => queryClient.getQueryCache().subscribe(onChange),
    () => queryClient.getQueryData<Me | null>(QUERY_KEYS.me)?.id ?? null,
    () => null,
  );
}

/**
 * Listens to GET /api/events and refreshes what a change made stale. The stream
 * is reopened when the user signs in or out, so it always carries the events of
 * whoever is signed in. EventSource reconnects by itself when the connection
 * drops (the server sends `retry:`); it is reopened here only when the server
 * refused it outright. A reconnect may have missed events, so it refreshes everything.
 */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  const userId = useKnownUserId(queryClient);

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let reopenTimer: number | undefined;
    let failedOpens = 0;
    let connectedBefore = false;

    const open = () => {
      const current = new EventSource(EVENT_STREAM_PATH);
      source = current;
      current.addEventListener(STREAM_EVENT_NAMES.ready, (event) => {
        failedOpens = 0;
        // Says which events this page now receives; browser tests wait for it before changing anything.
        document.documentElement.dataset.liveUpdates = audienceOf(event);
        if (connectedBefore) refreshEverything(queryClient);
        connectedBefore = true;
      });
      current.addEventListener(STREAM_EVENT_NAMES.resync, () => refreshEverything(queryClient));
      current.addEventListener(STREAM_EVENT_NAMES.settingsUpdated, () => void settingsChanged(queryClient));
      current.addEventListener(STREAM_EVENT_NAMES.walletUpdated, (event) => {
        invalidate(queryClient, QUERY_KEYS.me, QUERY_KEYS.wallet);
        if (reasonOf(event) === NEW_NOTIFICATION_REASON)
          notify('info', t('shell.newNotification'), { id: 'new-notification', description: t('shell.openBell') });
      });
      current.addEventListener(STREAM_EVENT_NAMES.adminQueueUpdated, () => invalidate(queryClient, QUERY_KEYS.admin));
      current.addEventListener('error', () => {
        if (current.readyState !== EventSource.CLOSED) return;
        const delay = REOPEN_DELAYS_MILLISECONDS[Math.min(failedOpens, REOPEN_DELAYS_MILLISECONDS.length - 1)];
        failedOpens += 1;
        reopenTimer = window.setTimeout(open, delay);
      });
    };

    open();
    return () => {
      window.clearTimeout(reopenTimer);
      source?.close();
      delete document.documentElement.dataset.liveUpdates;
    };
  }, [queryClient, userId]);
}
