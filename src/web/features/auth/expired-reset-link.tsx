import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { AuthCard } from './auth-card.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** The footer of the pages a logged-out customer reaches from an e-mail. */
export function BackToLoginLink() {
  return (
    <Link className="inline-block py-1 font-medium text-brand-700 hover:underline" to="/login">
      {t('auth.backToLogin')}
    </Link>
  );
}

/** What a reset page shows instead of its form when its link is expired or used: why, and the way to a new one. */
export function ExpiredResetLink({ title, message, requestPath }: { title: string; message: string; requestPath: string }) {
  return (
    <AuthCard title={title} footer={<BackToLoginLink />}>
      <div className="flex flex-col gap-4">
        <Alert variant="destructive">{message}</Alert>
        <Button asChild>
          <Link to={requestPath}>{t('auth.requestNewLink')}</Link>
        </Button>
      </div>
    </AuthCard>
  );
}
