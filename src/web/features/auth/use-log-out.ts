import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useSignOut } from './api.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** The Logout action of the header and the profile page: sign out, say so, and go to /login. */
export function useLogOut(): () => Promise<void> {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return async () => {
    try {
      await signOut();
      toast.success(t('auth.loggedOut'));
      void navigate('/login', { replace: true });
    } catch {
      toast.error(t('auth.logOutFailed'));
    }
  };
}
