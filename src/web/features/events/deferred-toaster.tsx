import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { isToasterRequested, subscribeToToasterRequest } from './notify.ts';

const AppToaster = lazy(() => import('./app-toaster.tsx'));

/** Public pages a visitor reads without acting; every other page may toast as soon as it opens. */
const QUIET_PUBLIC_PATHS = new Set(['/', '/privacy', '/terms', '/contact']);

/**
 * Mounts the toast area once it can be needed: on any page but the public ones,
 * or when a toast is requested through notify(). Once mounted it stays, so
 * toasts survive navigation back to a public page.
 */
export function DeferredToaster() {
  const { pathname } = useLocation();
  const requested = useSyncExternalStore(subscribeToToasterRequest, isToasterRequested, () => false);
  const [mounted, setMounted] = useState(false);
  if (!mounted && (requested || !QUIET_PUBLIC_PATHS.has(pathname))) setMounted(true);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  );
}
