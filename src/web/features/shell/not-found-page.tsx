import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '../../components/ui/card.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

export default function NotFoundPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const path = location.pathname;
  const suggestsPin = /verify|pin/i.test(path);

  useEffect(() => {
    console.warn(`404: no page at ${path}`);
  }, [path]);

  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-md text-center">
        <CardHeader>
          <p className="text-5xl font-bold text-brand-700">404</p>
          <h1 className="text-2xl font-semibold text-slate-900">{t('shell.notFound')}</h1>
          <p className="break-all text-sm text-slate-500">
            There is no page at <code>{path}</code>.
          </p>
        </CardHeader>
        <CardContent className="flex flex-col gap-2">
          <Button asChild>
            <Link to="/">{t('shell.returnHome')}</Link>
          </Button>
          <div className="grid grid-cols-2 gap-2">
            <Button variant="outline" asChild>
              <Link to="/login">{t('shell.login')}</Link>
            </Button>
            <Button variant="outline" asChild>
              <Link to="/signup">{t('shell.signUp')}</Link>
            </Button>
          </div>
          <Button variant="ghost" onClick={() => navigate(-1)}>
            {t('shell.goBack')}
          </Button>
          {suggestsPin && (
            <div className="mt-2 rounded-lg bg-slate-50 p-3 text-sm">
              <p className="mb-2 text-slate-600">{t('shell.lookingForPin')}</p>
              <div className="flex flex-wrap justify-center gap-2">
                <Button size="sm" variant="outline" asChild>
                  <Link to="/verify-pin">{t('shell.verifyPin')}</Link>
                </Button>
                <Button size="sm" variant="outline" asChild>
                  <Link to="/pin-setup">{t('shell.setupPin')}</Link>
                </Button>
                <Button size="sm" variant="outline" asChild>
                  <Link to="/reset-pin">{t('shell.resetPin')}</Link>
                </Button>
              </div>
            </div>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
