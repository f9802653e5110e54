import { Link } from 'react-router';
import type { MoneyLeaving } from '#shared/contracts/kyc';
import { Alert } from '../../components/ui/alert.tsx';
import { useKycStatus } from './api.ts';
import { kycGateText } from './kyc-texts.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/**
 * On the withdraw and transfer screens: why money cannot leave now, in the order the server refuses
 * (a frozen account, below KYC level 1, a KYC refresh overdue), with the way to the KYC page.
 */
export function KycGateNotice({ leaving }: { leaving: MoneyLeaving }) {
  const kyc = useKycStatus();
  if (kyc.data === undefined) return null;
  const { accountFrozenMessage, level, missing, refresh } = kyc.data;
  const serverMessage = accountFrozenMessage ?? (level > 0 && refresh?.overdue ? refresh.message : null);
  const message =
    serverMessage !== null
      ? localizeMessage(serverMessage)
      : level === 0
        ? kycGateText(
            leaving,
            missing.map((item) => item.check),
          )
        : null;
  if (message === null) return null;
  return (
    <Alert variant={accountFrozenMessage === null ? 'info' : 'destructive'} data-testid="kyc-gate-notice">
      <p>{message}</p>
      <Link to="/kyc" className="mt-1 inline-block font-semibold underline">
        {t('kyc.openPage')}
      </Link>
    </Alert>
  );
}
