import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { ME_QUERY_KEY } from '../../lib/session.ts';

/** Why the app itself signed the customer out; the login page says it once (signed-out-notice.tsx). */
export type SignedOutReason = 'pin-locked' | 'session-needed' | 'user-not-found' | 'account-closed';

/** The history state the login page is opened with after a forced sign-out. */
interface SignedOutState {
  signedOutReason: SignedOutReason;
}

/**
 * Forgets the ended session in the browser and goes to /login. The cached user
 * must be cleared first: otherwise the login page, still seeing a signed-in
 * user, sends the visitor straight back. The toasts of the ended session go
 * too: the login page says, once and by itself, why the customer is there.
 */
export function useLeaveEndedSession(): (reason?: SignedOutReason) => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return (reason) => {
    queryClient.clear();
    queryClient.setQueryData(ME_QUERY_KEY, null);
    // Sonner loads here, not with this file: every page's background services import this feature, the landing page's too.
    void import('sonner').then(({ toast }) => toast.dismiss());
    const state: SignedOutState | undefined = reason ? { signedOutReason: reason } : undefined;
    void navigate('/login', { replace: true, state });
  };
}

/**
 * True (and the customer is sent to /login) when the error means the session is
 * over: the third wrong PIN ends every session of the user, and a 401 means it
 * expired or was ended elsewhere.
 */
export function useEndOfSessionHandler(): (error: unknown) => boolean {
  const leave = useLeaveEndedSession();
  return (error) => {
    if (!(error instanceof ApiError)) return false;
    if (error.code === 'PIN_LOCKED') leave('pin-locked');
    else if (error.status === 401) leave();
    else return false;
    return true;
  };
}
