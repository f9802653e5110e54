import { useLocation } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';
import type { SignedOutReason, SignedOutState } from './use-end-of-session.ts';

function reasonOf(state: unknown): SignedOutReason | undefined {
  if (typeof state !== 'object' || state === null || !('signedOutReason' in state)) return undefined;
  const reason = (state as SignedOutState).signedOutReason;
  return reason === 'pin-locked' || reason === 'session-needed' || reason === 'user-not-found' ? reason : undefined;
}

/** The texts SPEC.md gives each reason (they were toasts, which outlived the page they were about). */
function textsOf(reason: SignedOutReason): { title: string; description?: string } {
  switch (reason) {
    case 'pin-locked':
      return { title: t('auth.tooManyAttempts'), description: t('auth.loggedOutForSecurity') };
    case 'session-needed':
      return { title: t('pin.loginToSetUp') };
    case 'user-not-found':
      return { title: t('pin.userNotFound'), description: t('pin.logInAgain') };
  }
}

/**
 * Why the app signed the customer out (useLeaveEndedSession), said once on the login page, in one banner; the
 * toasts of the ended session were dismissed on the way here.
 */
export function SignedOutNotice() {
  const reason = reasonOf(useLocation().state);
  if (!reason) return null;
  const { title, description } = textsOf(reason);
  return (
    <Alert variant="destructive" data-testid="signed-out-notice">
      <p className="font-semibold">{title}</p>
      {description && <p>{description}</p>}
    </Alert>
  );
}
