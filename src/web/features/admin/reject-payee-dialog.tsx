import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { PAYEE_REJECTION_REASON_MAX_LENGTH, rejectPayeeRequestSchema, type AdminPayee } from '#shared/contracts/bank-accounts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { rejectPayee } from './api.ts';
import { DecisionDialog, type NoteField } from './components/decision-dialog.tsx';
import { PayeeHeading } from './payee-facts.tsx';

const REASON_FIELD: NoteField = {
  label: 'Reason',
  help: 'Kept for admins and the audit log. The customer is told only that the account was not accepted, since a reason may name the bank’s account holder.',
  maxLength: PAYEE_REJECTION_REASON_MAX_LENGTH,
  multiline: true,
  schema: rejectPayeeRequestSchema.shape.reason,
};

/**
 * The confirmation of an admin's reject of a payee the bank did not confirm (decision 057), with the reason. A refusal
 * of the reason stays under the field; any other answer closes the dialog, then `afterAnswer` refreshes the lists.
 */
export function RejectPayeeDialog({ payee, onClose, afterAnswer }: { payee: AdminPayee; onClose: () => void; afterAnswer: () => Promise<unknown> }) {
  const [serverError, setServerError] = useState<string | undefined>();
  const mutation = useMutation({ mutationFn: (reason: string) => rejectPayee(payee.id, reason) });

  const confirm = (reason: string) => {
    setServerError(undefined);
    mutation.mutate(reason, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onClose();
        void afterAnswer();
      },
      onError: (error) => {
        const fieldMessage = error instanceof ApiError ? error.fields.reason : undefined;
        if (fieldMessage) {
          setServerError(fieldMessage);
          return;
        }
        toast.error('Could not reject the bank account', { description: errorMessage(error, 'Please try again.') });
        onClose();
        void afterAnswer();
      },
    });
  };

  return (
    <DecisionDialog
      title="Reject this bank account?"
      description={`${payee.customerName} will not be able to withdraw to it until they edit its details (which checks it with the bank again) or delete it. They are told in the app and by e-mail. With two admins, a second admin confirms it.`}
      confirmLabel="Reject"
      destructive
      field={REASON_FIELD}
      busy={mutation.isPending}
      serverError={serverError}
      onCancel={onClose}
      onConfirm={confirm}
    >
      <PayeeHeading payee={payee} />
    </DecisionDialog>
  );
}
