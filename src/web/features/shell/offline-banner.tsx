import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { isOffline, useConnectionStatus } from '../../lib/connection-status.ts';
import { checkHealth } from '../../lib/health.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** How often the banner asks the server whether it is back, while it answered that it is unavailable. */
const SERVER_PROBE_MILLISECONDS = 5_000;

const timeText = (epochMilliseconds: number) => new Date(epochMilliseconds).toLocaleTimeString('en-IN', { hour: '2-digit', minute: '2-digit', hour12: false });

/**
 * Shown on every page while the browser is offline or the server answers that it is unavailable,
 * with the time the figures on screen were read. It goes away by itself: the browser's online
 * event, or the health check it repeats while the server is down, and then every open query is
 * read again so that no stale figure stays.
 */
export function OfflineBanner() {
  const queryClient = useQueryClient();
  const current = useConnectionStatus();
  const offline = isOffline(current);
  const wasOffline = useRef(offline);

  useEffect(() => {
    if (wasOffline.current && !offline) void queryClient.invalidateQueries();
    wasOffline.current = offline;
  }, [offline, queryClient]);

  useEffect(() => {
    if (!current.serverUnavailable || current.browserOffline) return;
    // Its answer reaches the connection status as every API answer does; a failure only means the next probe asks again.
    const timer = setInterval(() => void checkHealth().catch(() => undefined), SERVER_PROBE_MILLISECONDS);
    return () => clearInterval(timer);
  }, [current.serverUnavailable, current.browserOffline]);

  if (!offline) return null;
  const what = current.browserOffline ? t('shell.offline') : t('shell.serverUnreachable');
  const asOf = current.lastAnswerAt === null ? '' : t('shell.figuresAsOf', { time: timeText(current.lastAnswerAt) });
  return (
    <div
      role="status"
      data-testid="offline-banner"
      className="sticky top-0 z-50 bg-amber-100 px-4 py-2 text-center text-sm font-medium text-amber-950 shadow-sm"
    >
      {what}
      {asOf}
      {t('shell.moneyPaused')}
    </div>
  );
}
