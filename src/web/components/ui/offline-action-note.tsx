import { isOffline, useConnectionStatus } from '../../lib/connection-status.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** True while money actions must stay disabled: the browser is offline or the server answered that it is unavailable. */
export function useMoneyActionsOffline(): boolean {
  return isOffline(useConnectionStatus());
}

/** Says, beside a money button, why it is disabled while offline. */
export function OfflineActionNote() {
  const offline = useMoneyActionsOffline();
  if (!offline) return null;
  return (
    <p data-testid="offline-action-reason" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
      {t('shell.offlineActionReason')}
    </p>
  );
}
