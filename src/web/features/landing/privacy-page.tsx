import { PRODUCT_NAME } from '#shared/limits';
import { PublicTextPage } from './public-layout.tsx';
import { OperatorIdentityDetails } from '../legal/index.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

export default function PrivacyPage() {
  return (
    <PublicTextPage title={t('home.privacyPolicy')}>
      <p>{t('legal.privacy1', { product: PRODUCT_NAME })}</p>
      <p>{t('legal.privacy2')}</p>
      <p>{t('consent.collect')}</p>
      <p>{t('consent.retention')}</p>
      <p>{t('legal.privacy3')}</p>
      <OperatorIdentityDetails />
    </PublicTextPage>
  );
}
