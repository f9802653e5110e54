import { lazy, Suspense, useLayoutEffect } from 'react';
import { Link } from 'react-router';
import { RateCard } from '../rates/index.ts';
import { usePublicSettings, supportChatUrl } from '../support/index.ts';
import { outlineLinkClass, primaryLinkClass } from '../../components/ui/link-classes.ts';
import { languageReady, useTranslation } from '../../lib/i18n/i18n.ts';
import { prerenderedPage } from '../../lib/prerendered-page.ts';
import { PublicLayout } from './public-layout.tsx';

// Loaded apart: the landing page's first JavaScript stays within its budget.
const InstallAppButton = lazy(() => Promise.all([import('./install-app-button.tsx'), languageReady('page')]).then(([module]) => module));
// The converter sits below the rates, and the language choice is a small control: their code (and the USDT parser's, and
// the catalog's rest) loads after the page, each in a frame of its size, keeping the landing page's first JavaScript in budget.
const Converter = lazy(() => Promise.all([import('../rates/index.ts'), languageReady('page')]).then(([module]) => ({ default: module.Converter })));
const HowItWorks = lazy(() => Promise.all([import('./how-it-works.tsx'), languageReady('page')]).then(([module]) => module));
const LanguageSelect = lazy(() => import('../../components/ui/language-select.tsx').then((module) => ({ default: module.LanguageSelect })));

export default function LandingPage() {
  const { t } = useTranslation();
  // This page now stands where the copy the server drew stood (src/web/lib/prerendered-page.ts).
  useLayoutEffect(() => prerenderedPage()?.remove(), []);
  const settings = usePublicSettings();
  const apk = settings.data?.apk;
  const supportLink = settings.data ? supportChatUrl(settings.data.whatsappSupportNumber) : undefined;

  return (
    <PublicLayout
      actions={
        <nav aria-label={t('home.accountNav')} className="flex gap-2">
          <Link to="/login" className={`${outlineLinkClass} h-9`}>
            {t('home.login')}
          </Link>
          <Link to="/signup" className={`${primaryLinkClass} h-9`}>
            {t('home.signUp')}
          </Link>
        </nav>
      }
    >
      <section className="flex flex-col items-center gap-4 py-8 text-center">
        <Suspense fallback={<div className="h-9 self-end" />}>
          <LanguageSelect className="self-end" />
        </Suspense>
        <h1 className="text-3xl font-bold sm:text-5xl">{t('home.heroTitle')}</h1>
        <p className="max-w-xl text-slate-600">{t('home.heroText', { tagline: t('home.tagline') })}</p>
        <div className="flex flex-wrap justify-center gap-3">
          <Link to="/signup" className={`${primaryLinkClass} h-12 px-6 text-base`}>
            {t('home.getStarted')}
          </Link>
          {apk?.exists && apk.url && (
            <a href={apk.url} className={`${outlineLinkClass} h-12 px-6 text-base`}>
              {t('home.downloadApp')}
            </a>
          )}
          <Suspense fallback={null}>
            <InstallAppButton />
          </Suspense>
        </div>
      </section>

      <div className="grid gap-4 md:grid-cols-2">
        <RateCard />
        <Suspense fallback={<div className="min-h-60 rounded-2xl border border-slate-200 bg-white shadow-sm" />}>
          <Converter />
        </Suspense>
      </div>

      <Suspense fallback={<div className="min-h-96" />}>
        <HowItWorks newAccountPauseHours={settings.data?.newAccountPauseHours ?? 0} />
      </Suspense>

      {supportLink && (
        <section className="flex flex-col items-center gap-2 text-center">
          <p className="text-slate-600">{t('home.questions')}</p>
          <a href={supportLink} target="_blank" rel="noopener noreferrer" className={`${outlineLinkClass} h-11`}>
            {t('home.chatWithSupport')}
          </a>
        </section>
      )}
    </PublicLayout>
  );
}
