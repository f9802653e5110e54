import { PRODUCT_NAME } from '#shared/limits';
import { PublicTextPage } from './public-layout.tsx';
import { OperatorIdentityDetails } from '../legal/index.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

export default function TermsPage() {
  return (
    <PublicTextPage title={t('home.termsOfService')}>
      <p>{t('legal.terms1', { product: PRODUCT_NAME })}</p>
      <p>{t('legal.terms2')}</p>
      <p>{t('legal.terms3')}</p>
      <OperatorIdentityDetails />
    </PublicTextPage>
  );
}
