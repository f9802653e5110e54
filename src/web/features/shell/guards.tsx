import { lazy, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullPageLoader } from '../../components/ui/spinner.tsx';
import { errorReference } from '../../lib/api.ts';
import { translate } from '../../lib/i18n/i18n.ts';
import { useMe } from '../../lib/session.ts';

// Shown only when the server cannot be reached: loaded then, keeping its UI kit out of the first visit's JavaScript.
const ConnectionErrorCard = lazy(() => import('./connection-error.tsx').then((module) => ({ default: module.ConnectionErrorCard })));

function currentPath(location: { pathname: string; search: string }): string {
  return `${location.pathname}${location.search}`;
}

/** Customer and admin pages: signed in, with the transaction PIN verified in this session. */
export function RequireVerifiedUser({ children }: { children: ReactNode }) {
  const location = useLocation();
  const me = useMe();
  if (me.isPending) return <FullPageLoader text={translate('app.initializing')} />;
  // A failed re-check keeps the page the customer is on (the offline banner says why); only a first check that failed has nothing to show.
  if (me.isError && !me.data) return <ConnectionErrorCard onRetry={() => void me.refetch()} reference={errorReference(me.error)} />;
  const next = encodeURIComponent(currentPath(location));
  if (!me.data) return <Navigate to={`/login?next=${next}`} replace />;
  if (!me.data.hasPin) return <Navigate to={`/pin-setup?next=${next}`} replace />;
  if (!me.data.pinVerified) return <Navigate to={`/verify-pin?next=${next}`} replace />;
  return children;
}

/** Public pages (landing, login, sign-up) send a signed-in user to the dashboard. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <FullPageLoader text={translate('app.initializing')} />;
  if (me.data) return <Navigate to="/dashboard" replace />;
  return children;
}

/** PIN screens need a session, but not a verified PIN. */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const me = useMe();
  if (me.isPending) return <FullPageLoader text={translate('app.initializing')} />;
  // A failed re-check keeps the page the customer is on (the offline banner says why); only a first check that failed has nothing to show.
  if (me.isError && !me.data) return <ConnectionErrorCard onRetry={() => void me.refetch()} reference={errorReference(me.error)} />;
  if (!me.data) return <Navigate to={`/login?next=${encodeURIComponent(currentPath(location))}`} replace />;
  return children;
}
