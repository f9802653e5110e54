import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

// The notice's form (buttons, the form kit) loads only on the KYC page: the public pages' footer reads this feature too.
const ConsentNotice = lazy(() => import('./consent-notice.tsx'));

/** The KYC page's first step: the notice until it is accepted, nothing after. */
export function ConsentStep() {
  return (
    <Suspense fallback={<Spinner label={t('consent.loading')} />}>
      <ConsentNotice />
    </Suspense>
  );
}
