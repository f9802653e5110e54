import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '#shared/limits';
import { outlineLinkClass } from '../../components/ui/link-classes.ts';
import { languageReady, useTranslation } from '../../lib/i18n/i18n.ts';

// Loaded after the page with the rest of the catalog, keeping the landing page's first JavaScript in budget.
const OperatorFooterLine = lazy(() =>
  Promise.all([import('../legal/index.ts'), languageReady('page')]).then(([module]) => ({ default: module.OperatorFooterLine })),
);

export function BrandLink() {
  return (
    <Link to="/" className="flex items-center gap-2 text-lg font-bold text-brand-800">
      <span className="flex size-8 items-center justify-center rounded-lg bg-brand-700 text-white" aria-hidden>
        &#8377;
      </span>
      {PRODUCT_NAME}
    </Link>
  );
}

export function PublicFooter() {
  const { t } = useTranslation();
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-5xl flex-col items-center gap-3 px-4 py-6 text-sm text-slate-500 sm:flex-row sm:justify-between">
        <nav aria-label={t('home.legalNav')} className="flex flex-wrap justify-center gap-4">
          <Link to="/privacy" className="hover:text-slate-800">
            {t('home.privacyPolicy')}
          </Link>
          <Link to="/terms" className="hover:text-slate-800">
            {t('home.termsOfService')}
          </Link>
          <Link to="/contact" className="hover:text-slate-800">
            {t('home.contactUs')}
          </Link>
        </nav>
        <div className="flex flex-col items-center gap-1 sm:items-end">
          <p>{t('home.copyright', { year: new Date().getFullYear(), product: PRODUCT_NAME })}</p>
          <Suspense fallback={null}>
            <OperatorFooterLine />
          </Suspense>
        </div>
      </div>
    </footer>
  );
}

/** Frame of the public pages: brand, optional actions, content, legal footer. */
export function PublicLayout({ actions, children }: { actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="mx-auto flex w-full max-w-5xl items-center justify-between gap-2 px-4 py-4">
        <BrandLink />
        {actions}
      </header>
      <main className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-6 px-4 pb-10">{children}</main>
      <PublicFooter />
    </div>
  );
}

/** A short text page (privacy, terms, contact) under the public frame. */
export function PublicTextPage({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <PublicLayout
      actions={
        <Link to="/" className={`${outlineLinkClass} h-9`}>
          {t('home.home')}
        </Link>
      }
    >
      <article className="mx-auto w-full max-w-2xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-bold">{title}</h1>
        <div className="mt-4 flex flex-col gap-3 text-sm leading-6 text-slate-700">{children}</div>
      </article>
    </PublicLayout>
  );
}
