import { PRODUCT_NAME } from '#shared/limits';
import { useTranslation } from '../../lib/i18n/i18n.ts';

export function AppFooter() {
  const { t } = useTranslation();
  return (
    <footer className="mx-auto max-w-3xl px-4 pb-24 pt-8 text-center text-xs text-slate-500">
      <p className="font-semibold text-slate-700">{PRODUCT_NAME}</p>
      <p>{t('home.tagline')}</p>
      <p className="mt-1">{t('home.copyright', { year: new Date().getFullYear(), product: PRODUCT_NAME })}</p>
    </footer>
  );
}
