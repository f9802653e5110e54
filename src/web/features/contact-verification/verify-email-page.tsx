import { CheckCircle2, XCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ApiError } from '../../lib/api.ts';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { verifyEmailLink } from './api.ts';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

type Outcome = { state: 'checking' } | { state: 'verified'; message: string } | { state: 'refused'; title: string; message: string };

const TITLES: Record<string, MessageKey> = {
  VERIFICATION_LINK_EXPIRED: 'contact.linkExpired',
  VERIFICATION_LINK_USED: 'contact.linkUsed',
  EMAIL_TAKEN: 'contact.emailTaken',
};

/** The page the verification e-mail links to: it opens the link once and says whether the address is verified, or why not. */
export default function VerifyEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>({ state: 'checking' });
  // Opened once, even when React runs the effect twice: a second call would only report the link as used.
  const opened = useRef(false);

  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    verifyEmailLink(token)
      .then((answer) => setOutcome({ state: 'verified', message: answer.message }))
      .catch((error: unknown) => {
        const code = error instanceof ApiError ? error.code : '';
        const message = error instanceof ApiError && !error.isConnectionProblem ? error.message : t('contact.unreachable');
        setOutcome({ state: 'refused', title: t(TITLES[code] ?? 'contact.linkNotValid'), message: token === '' ? t('contact.linkInvalidMessage') : message });
      });
  }, [token]);

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <CardTitle>{t('contact.verifyEmail')}</CardTitle>
        </CardHeader>
        <CardContent>
          {outcome.state === 'checking' && (
            <div className="flex justify-center py-6">
              <Spinner label={t('contact.checkingLink')} />
            </div>
          )}
          {outcome.state !== 'checking' && (
            <div className="flex flex-col items-center gap-4 py-2 text-center" data-testid="verify-email-outcome">
              {outcome.state === 'verified' ? (
                <CheckCircle2 className="size-12 text-green-600" aria-hidden />
              ) : (
                <XCircle className="size-12 text-red-600" aria-hidden />
              )}
              <h2 className="text-lg font-semibold">{outcome.state === 'verified' ? t('contact.emailVerified') : outcome.title}</h2>
              <p className="text-sm text-slate-600">{localizeMessage(outcome.message)}</p>
              <Button asChild>
                <Link to="/profile">{t('contact.goToProfile')}</Link>
              </Button>
            </div>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
