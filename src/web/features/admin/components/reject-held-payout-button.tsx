import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { rejectHeldPayoutRequestSchema } from '#shared/contracts/payouts';
import { LIMITS } from '#shared/limits';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { adminKeys, rejectHeldPayout } from '../api.ts';
import { DecisionDialog, type NoteField } from './decision-dialog.tsx';

const REASON_FIELD: NoteField = {
  label: 'Reason',
  help: 'The customer is told this reason with the rejection.',
  maxLength: LIMITS.reasonLength,
  multiline: true,
  schema: rejectHeldPayoutRequestSchema.shape.reason,
};

/**
 * The reject of a withdrawal whose provider payout is held by a freeze or a chain incident before its first send
 * (decision 053): a confirmation that asks the reason, as the other rejects do; the admin session's PIN is the
 * server's check, as for every admin write.
 */
export function RejectHeldPayoutButton({ withdrawalId, description }: { withdrawalId: string; description: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [serverError, setServerError] = useState<string | undefined>();
  const mutation = useMutation({ mutationFn: (reason: string) => rejectHeldPayout(withdrawalId, reason) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.all });

  const confirm = (reason: string) => {
    setServerError(undefined);
    mutation.mutate(reason, {
      onSuccess: () => {
        toast.success('Withdrawal rejected', { description: 'Funds returned to user; the payout is never sent.' });
        setOpen(false);
        void refresh();
      },
      onError: (error) => {
        const fieldMessage = error instanceof ApiError ? error.fields.reason : undefined;
        if (fieldMessage) {
          setServerError(fieldMessage);
          return;
        }
        toast.error('Could not reject the held payout', { description: errorMessage(error, 'Please try again.') });
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
          setOpen(false);
          void refresh();
        }
      },
    });
  };

  return (
    <>
      <Button variant="destructive" size="sm" className="mt-2" data-testid={`reject-held-payout-${withdrawalId}`} onClick={() => setOpen(true)}>
        Reject held payout
      </Button>
      {open && (
        <DecisionDialog
          title="Reject held payout?"
          description={description}
          confirmLabel="Reject withdrawal"
          destructive
          field={REASON_FIELD}
          busy={mutation.isPending}
          serverError={serverError}
          onCancel={() => setOpen(false)}
          onConfirm={confirm}
        />
      )}
    </>
  );
}
