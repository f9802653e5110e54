import { useLocation } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';
import type { SignedOutReason } from './use-end-of-session.ts';

interface Notice {
  title: MessageKey;
  description?: MessageKey;
  /** A sign-out the customer asked for (closing the account) is news, not a warning. */
  asked?: boolean;
}

/** The texts SPEC.md gives each reason (they were toasts, which outlived the page they were about). */
const NOTICE_TEXTS: Record<SignedOutReason, Notice> = {
  'pin-locked': { title: 'auth.tooManyAttempts', description: 'auth.loggedOutForSecurity' },
  'session-needed': { title: 'pin.loginToSetUp' },
  'user-not-found': { title: 'pin.userNotFound', description: 'pin.logInAgain' },
  'account-closed': { title: 'auth.accountClosedNotice', description: 'auth.accountClosedNoticeDetail', asked: true },
};

/** The notice's texts for the login page's history state, when it names a reason (useLeaveEndedSession's SignedOutState). */
function noticeOf(state: unknown): Notice | undefined {
  if (typeof state !== 'object' || state === null || !('signedOutReason' in state)) return undefined;
  const reason = state.signedOutReason;
  return typeof reason === 'string' && Object.hasOwn(NOTICE_TEXTS, reason) ? NOTICE_TEXTS[reason as SignedOutReason] : undefined;
}

/**
 * Why the app signed the customer out (useLeaveEndedSession), said once on the login page, in one banner; the
 * toasts of the ended session were dismissed on the way here.
 */
export function SignedOutNotice() {
  const notice = noticeOf(useLocation().state);
  if (!notice) return null;
  return (
    <Alert variant={notice.asked ? 'info' : 'destructive'} data-testid="signed-out-notice">
      <p className="font-semibold">{t(notice.title)}</p>
      {notice.description && <p>{t(notice.description)}</p>}
    </Alert>
  );
}
