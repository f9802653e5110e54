import { AppHeader, NotificationBell } from '../../components/layout/app-header.tsx';
import { BottomNav } from '../../components/layout/bottom-nav.tsx';
import { useMe } from '../../lib/session.ts';
import { useLogOut } from '../auth/index.ts';
import { useSupportLink } from '../support/index.ts';
import { useCanReadOperatorFigures } from './operator-figures.ts';
import { useUnreadNotificationCount } from './unread-notifications.ts';

/** The header of signed-in pages with what the shell knows: the session, the unread count and signing out. */
export function ShellHeader({ title, backTo, wide }: { title?: string | undefined; backTo?: string | undefined; wide?: boolean }) {
  const me = useMe();
  const logOut = useLogOut();
  return <AppHeader title={title} backTo={backTo} wide={wide ?? false} user={me.data} notificationBell={<UnreadNotificationBell />} onLogOut={logOut} />;
}

/** Rendered only for a signed-in user, so the unread count is asked for only then. */
function UnreadNotificationBell() {
  const unread = useUnreadNotificationCount();
  return <NotificationBell count={unread.data?.unreadCount ?? 0} />;
}

/** The bottom navigation with the support chat's link and, for operators, the admin items. */
export function ShellBottomNav() {
  const supportLink = useSupportLink();
  const showAdmin = useCanReadOperatorFigures();
  return <BottomNav supportLink={supportLink} showAdmin={showAdmin} />;
}
