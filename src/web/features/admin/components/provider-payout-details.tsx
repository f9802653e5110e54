import { useState } from 'react';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { usePayoutOverview, useProviderPayout } from '../api.ts';
import { providerPayoutLines } from '../provider-payout-lines.ts';
import { RejectHeldPayoutButton } from './reject-held-payout-button.tsx';

/**
 * Under a decided or processing withdrawal while a payout provider is configured: its payout's state, UTR, reason,
 * attempts and last error, and each state the provider reported, read when the admin opens it (decision 053); a
 * payout held before its first send has the reject button (`rejectDescription` says what the reject does).
 */
export function ProviderPayoutDetails({ withdrawalId, rejectDescription }: { withdrawalId: string; rejectDescription: string }) {
  const [open, setOpen] = useState(false);
  const viaProvider = (usePayoutOverview().data?.provider ?? null) !== null;
  const payout = useProviderPayout(withdrawalId, viaProvider && open);
  if (!viaProvider) return null;
  const lines = payout.data ? providerPayoutLines(payout.data.payout) : undefined;
  return (
    <details className="mt-1 text-xs text-slate-600" data-testid={`provider-payout-${withdrawalId}`} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer font-medium text-slate-800">Provider payout</summary>
      {payout.isPending && open && <p>Loading the payout...</p>}
      {payout.error && (
        <p>
          {payout.error instanceof ApiError && payout.error.status === 404 ? 'Not paid through the provider.' : errorMessage(payout.error, 'Please try again.')}
        </p>
      )}
      {lines && (
        <>
          {lines.summary.map((line) => (
            <p key={line} className="break-words">
              {line}
            </p>
          ))}
          <ol className="mt-1 list-decimal pl-4">
            {lines.events.map((line, index) => (
              <li key={`${index}-${line}`} className="break-words">
                {line}
              </li>
            ))}
          </ol>
          {payout.data?.payout.heldBeforeSend && <RejectHeldPayoutButton withdrawalId={withdrawalId} description={rejectDescription} />}
        </>
      )}
    </details>
  );
}
