/** What other features may use of the shell: the guards, the operator's view of figures and the connection error. */
export { RequireSession, RequireVerifiedUser } from './guards.tsx';
export { canOpenAdminArea, useCanReadOperatorFigures } from './operator-figures.ts';
export { ConnectionErrorCard } from './connection-error.tsx';
/** The page for an unknown address, loaded on demand. */
export const loadNotFoundPage = () => import('./not-found-page.tsx');
/** The frame of signed-in pages, and its header and bottom navigation for the admin desk's own frame. */
export { AppPage } from './app-page.tsx';
export { ShellBottomNav, ShellHeader } from './app-frame.tsx';
/** The unread count's query key, which the notifications feature refreshes after marking them read. */
export { UNREAD_NOTIFICATIONS_QUERY_KEY } from './unread-notifications.ts';
