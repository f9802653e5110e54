import { useTranslation, type MessageKey } from '../../lib/i18n/i18n.ts';

const HOW_IT_WORKS: readonly { title: MessageKey; text: MessageKey }[] = [
  { title: 'landing.step1Title', text: 'landing.step1Text' },
  { title: 'landing.step2Title', text: 'landing.step2Text' },
  { title: 'landing.step3Title', text: 'landing.step3Text' },
];

/** The landing page's three steps, below the fold: loaded after the page with the rest of the catalog; then the pause on a new bank account (issue 33, item 5), unless it is off. */
export default function HowItWorks({ newAccountPauseHours }: { newAccountPauseHours: number }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="how-it-works-title" className="flex flex-col gap-4">
      <h2 id="how-it-works-title" className="text-center text-2xl font-bold">
        {t('landing.howItWorks')}
      </h2>
      <ol className="grid gap-4 sm:grid-cols-3">
        {HOW_IT_WORKS.map(({ title, text }, index) => (
          <li key={title} className="flex flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
            <span className="flex size-10 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white" aria-hidden>
              {index + 1}
            </span>
            <h3 className="font-semibold">{t(title)}</h3>
            <p className="text-sm text-slate-600">{t(text)}</p>
          </li>
        ))}
      </ol>
      {newAccountPauseHours > 0 && (
        <p className="text-center text-sm text-slate-600" data-testid="new-account-pause-note">
          {t('landing.newAccountPause', { hours: newAccountPauseHours })}
        </p>
      )}
    </section>
  );
}
