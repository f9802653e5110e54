/** What other features may use of the auth feature. */
export { useSignOut } from './api.ts';
export { useLogOut } from './use-log-out.ts';
export { useEndOfSessionHandler, useLeaveEndedSession } from './use-end-of-session.ts';
export { AuthCard } from './auth-card.tsx';
export { BackToLoginLink, ExpiredResetLink } from './expired-reset-link.tsx';
export { useResetLinkCheck } from './reset-link-check.ts';
