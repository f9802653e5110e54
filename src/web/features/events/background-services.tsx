import { DeferredToaster } from './deferred-toaster.tsx';
import { LiveUpdates } from './live-updates.tsx';

/**
 * What every page runs besides itself: live updates and the toast area. The
 * app root loads this right after the first render, off the first visit's critical path.
 */
export default function BackgroundServices() {
  return (
    <>
      <LiveUpdates />
      <DeferredToaster />
    </>
  );
}
