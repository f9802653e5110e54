import { Link } from 'react-router';
import { kycGateMessage, type MoneyLeaving } from '#shared/contracts/kyc';
import { Alert } from '../../components/ui/alert.tsx';
import { useKycStatus } from './api.ts';

/**
 * On the withdraw and transfer screens: why money cannot leave now, in the order the server refuses
 * (a frozen account, below KYC level 1, a KYC refresh overdue), with the way to the KYC page.
 */
export function KycGateNotice({ leaving }: { leaving: MoneyLeaving }) {
  const kyc = useKycStatus();
  if (kyc.data === undefined) return null;
  const { accountFrozenMessage, level, missing, refresh } = kyc.data;
  const message =
    accountFrozenMessage ?? (level === 0 ? kycGateMessage(leaving, missing.map((item) => item.check)) : refresh?.overdue ? refresh.message : null);
  if (message === null) return null;
  return (
    <Alert variant={accountFrozenMessage === null ? 'info' : 'destructive'} data-testid="kyc-gate-notice">
      <p>{message}</p>
      <Link to="/kyc" className="mt-1 inline-block font-semibold underline">
        Open the KYC page
      </Link>
    </Alert>
  );
}
