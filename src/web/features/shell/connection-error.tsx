import { WifiOff } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { textOrEnglish } from '../../lib/i18n/text-or-english.ts';

/** How often the card tries again by itself, as the server's Retry-After asks. */
export const CONNECTION_RETRY_MILLISECONDS = 5_000;

/**
 * Shown when the API or its database cannot be reached. It retries by itself
 * every few seconds, so the page comes back on its own once the server does.
 */
export function ConnectionErrorCard({
  onRetry,
  onBackToLogin,
  reference,
}: {
  onRetry: () => void;
  onBackToLogin?: () => void;
  reference?: string | undefined;
}) {
  const retry = useRef(onRetry);
  useEffect(() => {
    retry.current = onRetry;
  }, [onRetry]);
  useEffect(() => {
    const timer = setInterval(() => retry.current(), CONNECTION_RETRY_MILLISECONDS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <WifiOff className="size-10 text-red-500" aria-hidden />
          <CardTitle>{textOrEnglish('shell.connectionError', 'Connection Error')}</CardTitle>
          <CardDescription>{textOrEnglish('shell.databaseUnreachable', 'Unable to connect to the database')}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 text-center">
          <p className="text-sm text-slate-600">
            {textOrEnglish('shell.connectionTrouble', "We're having trouble connecting to our servers. This might be a temporary issue.")}
          </p>
          {reference ? <p className="text-xs text-slate-500">{textOrEnglish('shell.reference', `Reference: ${reference}`, { reference })}</p> : null}
          <Button onClick={onRetry}>{textOrEnglish('shell.retry', 'Retry')}</Button>
          {onBackToLogin ? (
            <Button variant="outline" onClick={onBackToLogin}>
              {textOrEnglish('shell.backToLogin', 'Back to Login')}
            </Button>
          ) : (
            <Button variant="outline" asChild>
              <Link to="/login">{textOrEnglish('shell.backToLogin', 'Back to Login')}</Link>
            </Button>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
