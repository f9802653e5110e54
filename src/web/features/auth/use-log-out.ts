import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useSignOut } from './api.ts';

/** The Logout action of the header and the profile page: sign out, say so, and go to /login. */
export function useLogOut(): () => Promise<void> {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return async () => {
    try {
      await signOut();
      toast.success('Successfully logged out');
      void navigate('/login', { replace: true });
    } catch {
      toast.error('Failed to log out');
    }
  };
}
