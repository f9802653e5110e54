import { Link } from 'react-router';
import { kycGateMessage, type MoneyLeaving } from '#shared/contracts/kyc';
import { Alert } from '../../components/ui/alert.tsx';
import { useKycStatus } from './api.ts';

/** On the withdraw and transfer screens: below KYC level 1 the money gate's message (as the server refuses), with the way to the KYC page. */
export function KycGateNotice({ leaving }: { leaving: MoneyLeaving }) {
  const kyc = useKycStatus();
  if (kyc.data === undefined || kyc.data.level > 0) return null;
  return (
    <Alert variant="info" data-testid="kyc-gate-notice">
      <p>{kycGateMessage(leaving, kyc.data.missing.map((item) => item.check))}</p>
      <Link to="/kyc" className="mt-1 inline-block font-semibold underline">
        Open the KYC page
      </Link>
    </Alert>
  );
}
