import { useEffect } from 'react';
import { AccountLanguage } from './account-language.tsx';
import { DeferredToaster } from './deferred-toaster.tsx';
import { LiveUpdates } from './live-updates.tsx';
import { listenForInstallPrompt, registerServiceWorker } from '../install/index.ts';

/**
 * What every page runs besides itself: live updates, the toast area, the service worker and the install offer. The
 * app root loads this right after the first render, off the first visit's critical path.
 */
export default function BackgroundServices() {
  useEffect(() => {
    listenForInstallPrompt();
    registerServiceWorker();
  }, []);
  return (
    <>
      <AccountLanguage />
      <LiveUpdates />
      <DeferredToaster />
    </>
  );
}
