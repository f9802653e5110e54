import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '../../components/ui/card.tsx';

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
          <h1 className="text-2xl font-semibold text-slate-900">Oops! Page not found</h1>
          <p className="break-all text-sm text-slate-500">
            There is no page at <code>{path}</code>.
          </p>
        </CardHeader>
        <CardContent className="flex flex-col gap-2">
          <Button asChild>
            <Link to="/">Return to Home</Link>
          </Button>
          <div className="grid grid-cols-2 gap-2">
            <Button variant="outline" asChild>
              <Link to="/login">Login</Link>
            </Button>
            <Button variant="outline" asChild>
              <Link to="/signup">Sign Up</Link>
            </Button>
          </div>
          <Button variant="ghost" onClick={() => navigate(-1)}>
            Go Back
          </Button>
          {suggestsPin && (
            <div className="mt-2 rounded-lg bg-slate-50 p-3 text-sm">
              <p className="mb-2 text-slate-600">Looking for a PIN screen?</p>
              <div className="flex flex-wrap justify-center gap-2">
                <Button size="sm" variant="outline" asChild>
                  <Link to="/verify-pin">Verify PIN</Link>
                </Button>
                <Button size="sm" variant="outline" asChild>
                  <Link to="/pin-setup">Setup PIN</Link>
                </Button>
                <Button size="sm" variant="outline" asChild>
                  <Link to="/reset-pin">Reset PIN</Link>
                </Button>
              </div>
            </div>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
