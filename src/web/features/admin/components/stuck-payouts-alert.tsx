import { Alert } from '../../../components/ui/alert.tsx';
import { usePayoutOverview } from '../api.ts';
import { inrText, shortDateTimeText } from '../format.ts';

/** Payouts through the provider with an error or not settled in time (decision 049); nothing when there are none. */
export function StuckPayoutsAlert() {
  const overview = usePayoutOverview();
  const stuck = overview.data?.stuck ?? [];
  if (stuck.length === 0) return null;
  return (
    <Alert variant="destructive" className="w-full" data-testid="stuck-payouts">
      <p className="font-semibold">
        {stuck.length === 1 ? '1 payout needs a look' : `${stuck.length} payouts need a look`} (an error, or not settled in {overview.data?.stuckAfterMinutes}{' '}
        minutes)
      </p>
      <ul className="mt-2 space-y-1">
        {stuck.map((payout) => (
          <li key={payout.withdrawalId}>
            <span className="font-medium">{payout.reference}</span>: {inrText(payout.amountInr)}, provider state {payout.state}, {payout.attempts}{' '}
            {payout.attempts === 1 ? 'attempt' : 'attempts'}, since {shortDateTimeText(payout.since)}
            {payout.lastError !== null && <span className="block break-words text-xs">{payout.lastError}</span>}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
