import { WifiOff } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';

/** Shown when the API or its database cannot be reached. */
export function ConnectionErrorCard({ onRetry, onBackToLogin }: { onRetry: () => void; onBackToLogin?: () => void }) {
  return (
    <div className="flex min-h-screen items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="items-center text-center">
          <WifiOff className="size-10 text-red-500" aria-hidden />
          <CardTitle>Connection Error</CardTitle>
          <CardDescription>Unable to connect to the database</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 text-center">
          <p className="text-sm text-slate-600">We&apos;re having trouble connecting to our servers. This might be a temporary issue.</p>
          <Button onClick={onRetry}>Retry</Button>
          {onBackToLogin ? (
            <Button variant="outline" onClick={onBackToLogin}>
              Back to Login
            </Button>
          ) : (
            <Button variant="outline" asChild>
              <Link to="/login">Back to Login</Link>
            </Button>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
