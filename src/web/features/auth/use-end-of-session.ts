import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { ME_QUERY_KEY } from './session.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

/**
 * Forgets the ended session in the browser and goes to /login. The cached user
 * must be cleared first: otherwise the login page, still seeing a signed-in
 * user, sends the visitor straight back.
 */
export function useLeaveEndedSession(): () => void {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return () => {
    queryClient.clear();
    queryClient.setQueryData(ME_QUERY_KEY, null);
    void navigate('/login', { replace: true });
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
    if (error.code === 'PIN_LOCKED') {
      // Sonner loads here, not with this file: every page's background services import this feature, the landing page's too.
      void import('sonner').then(({ toast }) => toast.error(t('auth.tooManyAttempts'), { description: t('auth.loggedOutForSecurity') }));
    } else if (error.status !== 401) {
      return false;
    }
    leave();
    return true;
  };
}
