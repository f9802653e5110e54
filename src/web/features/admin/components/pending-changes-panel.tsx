import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import type { PendingChangeKind } from '#shared/contracts/enums';
import type { PendingChange } from '#shared/contracts/pending-changes';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/dialog.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useMe } from '../../../lib/session.ts';
import { adminKeys, confirmPendingChange, discardPendingChange, usePendingChanges } from '../api.ts';
import { fullDateTimeText, inrText } from '../format.ts';

type Action = { change: PendingChange; action: 'confirm' | 'discard' };

const KIND_LABELS: Record<PendingChangeKind, string> = {
  deposit_address: 'Deposit address change',
  large_withdrawal_approval: 'Large withdrawal approval',
  admin_role_grant: 'Admin role',
  admin_role_removal: 'Admin role removal',
  exchange_rates: 'Exchange rates change',
  large_withdrawal_limit: 'Large-withdrawal amount raise',
  app_file: 'New app file',
  deposit_override: 'Deposit the blockchain refutes',
  payout_batch_cancel: 'Cancel of a downloaded payout file',
  chain_incident_settlement: 'Settlement of a vanished deposit',
  deposit_xpub: 'Deposit key (extended public key)',
  account_unfreeze: 'Lift an account’s freeze',
  kyc_level2_approval: 'KYC level 2 approval',
  payee_acceptance: 'Bank account the bank did not confirm',
  payee_rejection: 'Rejection of a bank account the bank did not confirm',
};

function ChangeDetails({ change }: { change: PendingChange }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      <dt className="text-slate-500">From</dt>
      <dd className="break-all font-mono text-xs leading-5">{change.from === '' ? '(none)' : change.from}</dd>
      <dt className="text-slate-500">To</dt>
      <dd className="break-all font-mono text-xs leading-5">{change.to === '' ? '(none)' : change.to}</dd>
      {change.withdrawal && (
        <>
          <dt className="text-slate-500">Amount</dt>
          <dd>{inrText(change.withdrawal.amountInr)}</dd>
          {change.withdrawal.payoutReference && (
            <>
              <dt className="text-slate-500">UTR</dt>
              <dd className="break-all">{change.withdrawal.payoutReference}</dd>
            </>
          )}
        </>
      )}
      <dt className="text-slate-500">Asked by</dt>
      <dd className="break-all">{change.requestedBy ? `${change.requestedBy.name} (${change.requestedBy.email})` : 'A former admin'}</dd>
      <dt className="text-slate-500">When</dt>
      <dd>{fullDateTimeText(change.requestedAt)}</dd>
    </dl>
  );
}

/**
 * Changes waiting for a second admin (decision 017), with Confirm and Discard. The admin who asked
 * sees no Confirm button (the server refuses it too); anyone may discard.
 */
export function PendingChangesPanel({ kinds, title = 'Waiting for a second admin' }: { kinds?: PendingChangeKind[]; title?: string }) {
  const queryClient = useQueryClient();
  const me = useMe();
  // VIP-level readers may open the dashboard and settings but not this list.
  const changes = usePendingChanges(me.data?.role === 'admin');
  const [pending, setPending] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const items = (changes.data?.items ?? []).filter((change) => !kinds || kinds.includes(change.kind));
  if (items.length === 0) return null;

  const run = async ({ change, action }: Action) => {
    setBusy(true);
    try {
      const answer = action === 'confirm' ? await confirmPendingChange(change.id) : await discardPendingChange(change.id);
      toast.success(answer.message);
    } catch (error) {
      toast.error(action === 'confirm' ? 'Could not confirm the change' : 'Could not discard the change', {
        description: errorMessage(error, 'Please try again.'),
      });
    } finally {
      setBusy(false);
      setPending(null);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    }
  };

  return (
    <section aria-labelledby="pending-changes-heading" className="flex flex-col gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4">
      <h2 id="pending-changes-heading" className="font-semibold text-amber-900">
        {title} ({items.length})
      </h2>
      <ul className="flex flex-col gap-3">
        {items.map((change) => {
          const ownChange = me.data?.id !== undefined && change.requestedBy?.id === me.data.id;
          return <PendingChangeItem key={change.id} change={change} ownChange={ownChange} busy={busy} onChoose={(action) => setPending({ change, action })} />;
        })}
      </ul>
      {pending && (
        <ConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open && !busy) setPending(null);
          }}
          title={pending.action === 'confirm' ? 'Confirm this change?' : 'Discard this change?'}
          description={
            pending.action === 'confirm'
              ? `${pending.change.summary}: it takes effect now.`
              : `${pending.change.summary}: nothing of it happens, and whoever asked can ask again.`
          }
          confirmLabel={pending.action === 'confirm' ? 'Confirm change' : 'Discard change'}
          destructive={pending.action === 'discard'}
          busy={busy}
          onConfirm={() => void run(pending)}
        >
          <ChangeDetails change={pending.change} />
        </ConfirmDialog>
      )}
    </section>
  );
}

/** One waiting change with its details; Confirm is left out for the admin who asked for it. */
function PendingChangeItem({
  change,
  ownChange,
  busy,
  onChoose,
}: {
  change: Action['change'];
  ownChange: boolean;
  busy: boolean;
  onChoose: (action: Action['action']) => void;
}) {
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-amber-200 bg-white p-3" data-testid="pending-change">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="warning">{KIND_LABELS[change.kind]}</Badge>
        <p className="font-medium">{change.summary}</p>
      </div>
      <ChangeDetails change={change} />
      <div className="flex flex-wrap items-center gap-2">
        {ownChange ? (
          <p className="text-xs text-slate-600">You asked for this change: another admin must confirm it.</p>
        ) : (
          <Button size="sm" disabled={busy} onClick={() => onChoose('confirm')}>
            Confirm
          </Button>
        )}
        <Button size="sm" variant="outline" disabled={busy} onClick={() => onChoose('discard')}>
          Discard
        </Button>
      </div>
    </li>
  );
}

/** "Awaiting second approval" on a withdrawal whose first approval is recorded. */
export function AwaitingSecondApproval({ withdrawalId, depositId }: { withdrawalId?: string; depositId?: string }) {
  const changes = usePendingChanges();
  const change = changes.data?.items.find((item) =>
    withdrawalId !== undefined ? item.withdrawal?.id === withdrawalId : item.kind === 'deposit_override' && item.deposit?.id === depositId,
  );
  if (!change) return null;
  return (
    <p className="mt-1">
      <Badge tone="warning">Awaiting second approval</Badge>
      {change.requestedBy && <span className="mt-0.5 block text-xs text-slate-600">First approved by {change.requestedBy.name}</span>}
    </p>
  );
}
