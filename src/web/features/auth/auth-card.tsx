import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '#shared/limits';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx';
import { useDocumentTitle } from '../../lib/document-title.ts';

/** The centred card that frames the sign-in, sign-up, password and PIN screens. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-10">
      <Link to="/" className="mb-6 flex items-center gap-2 text-xl font-bold text-brand-800">
        <span className="flex size-9 items-center justify-center rounded-xl bg-brand-700 text-white">&#8377;</span>
        {PRODUCT_NAME}
      </Link>
      {/* No fade-in: the login page may arrive drawn (decision 065), and its live copy must replace it unseen. */}
      <Card className="w-full max-w-md">
        <CardHeader className="text-center">
          <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
          {subtitle && <CardDescription>{subtitle}</CardDescription>}
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
      {footer && <div className="mt-4 text-center text-sm text-slate-600">{footer}</div>}
    </main>
  );
}
