import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { LIMITS } from '#shared/limits';
import type { UnclaimedTransfer } from '#shared/contracts/deposits';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { adminKeys, assignUnclaimedTransfer, useUnclaimedTransfers } from '../api.ts';
import { fullDateTimeText, usdtText } from '../format.ts';
import { CopyValue } from './copy-value.tsx';

/** The form that gives one unclaimed transfer to a customer, found by their e-mail address. */
function AssignForm({ transfer, onDone }: { transfer: UnclaimedTransfer; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ email?: string | undefined; reason?: string | undefined }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const answer = await assignUnclaimedTransfer(transfer.id, { email, reason });
      toast.success(answer.message);
      onDone();
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    } catch (error) {
      if (error instanceof ApiError && (error.fields.email || error.fields.reason)) setErrors({ email: error.fields.email, reason: error.fields.reason });
      else toast.error('Could not assign the transfer', { description: errorMessage(error, 'Please try again.') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="flex flex-col gap-2" onSubmit={(event) => void submit(event)}>
      <FormField label="Customer's e-mail" error={errors.email}>
        <Input type="email" value={email} maxLength={254} onChange={(event) => setEmail(event.target.value)} required />
      </FormField>
      <FormField
        label="How you matched it"
        error={errors.reason}
        help="For example: the customer's WhatsApp message with the exchange's withdrawal screenshot."
      >
        <Textarea value={reason} maxLength={LIMITS.reasonLength} onChange={(event) => setReason(event.target.value)} required />
      </FormField>
      <div className="flex gap-2">
        <Button size="sm" type="submit" disabled={busy}>
          Assign to customer
        </Button>
        <Button size="sm" type="button" variant="outline" disabled={busy} onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * Transfers to the shared deposit address that nobody claimed, from senders no customer proved
 * (decision 037): support matches one to a customer's message and assigns it; it then waits in the
 * deposit queue for approval like any other deposit.
 */
export function UnclaimedTransfersSection() {
  const transfers = useUnclaimedTransfers();
  const [assigning, setAssigning] = useState<string | null>(null);
  const items = transfers.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="unclaimed-transfers-heading" className="mb-4 flex flex-col gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4">
      <h2 id="unclaimed-transfers-heading" className="font-semibold text-amber-900">
        Unclaimed transfers ({items.length})
      </h2>
      <p className="text-sm text-amber-900">
        USDT that arrived at the deposit address from a wallet no customer verified, with no transaction hash submitted. Nothing is credited until you assign it
        and it is approved.
      </p>
      <ul className="flex flex-col gap-3">
        {items.map((transfer) => (
          <li key={transfer.id} className="flex flex-col gap-2 rounded-xl border border-amber-200 bg-white p-3 text-sm" data-testid="unclaimed-transfer">
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone="brand">{transfer.network}</Badge>
              <p className="font-medium">{usdtText(transfer.amount)}</p>
              <p className="text-xs text-slate-600">{fullDateTimeText(transfer.createdAt)}</p>
            </div>
            <CopyValue value={transfer.transactionHash} what="Transaction hash" className="text-xs" />
            <p className="break-all text-xs text-slate-600">From {transfer.fromAddress}</p>
            {assigning === transfer.id ? (
              <AssignForm transfer={transfer} onDone={() => setAssigning(null)} />
            ) : (
              <Button size="sm" variant="outline" className="self-start" onClick={() => setAssigning(transfer.id)}>
                Assign to a customer
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
