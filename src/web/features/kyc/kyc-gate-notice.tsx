import { Link } from 'react-router';
import type { MoneyLeaving } from '#shared/contracts/kyc';
import { Alert } from '../../components/ui/alert.tsx';
import { useKycStatus } from './api.ts';
import { kycGateText } from './kyc-texts.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** On the withdraw and transfer screens: below KYC level 1 the money gate's message (as the server refuses), with the way to the KYC page. */
export function KycGateNotice({ leaving }: { leaving: MoneyLeaving }) {
  const kyc = useKycStatus();
  if (kyc.data === undefined || kyc.data.level > 0) return null;
  return (
    <Alert variant="info" data-testid="kyc-gate-notice">
      <p>{kycGateText(leaving, kyc.data.missing.map((item) => item.check))}</p>
      <Link to="/kyc" className="mt-1 inline-block font-semibold underline">
        {t('kyc.openPage')}
      </Link>
    </Alert>
  );
}
