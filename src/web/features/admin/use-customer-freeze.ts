import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { adminKeys } from './api.ts';
import { freezeCustomer, unfreezeCustomer } from './kyc-api.ts';

export type FreezeAction = 'freeze' | 'unfreeze';

/**
 * A customer's freeze and its lifting from the admin user page: the dialog open and the sending. A
 * reason refused by the server stays in the dialog; any other failure closes it with a toast. Either
 * way the admin's lists are read again.
 */
export function useCustomerFreeze(userId: string) {
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<FreezeAction | null>(null);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | undefined>();

  const act = async (action: FreezeAction, reason: string) => {
    setBusy(true);
    setServerError(undefined);
    try {
      const answer = action === 'freeze' ? await freezeCustomer(userId, reason) : await unfreezeCustomer(userId, reason);
      toast.success(answer.message);
      setDialog(null);
    } catch (error) {
      if (error instanceof ApiError && error.fields.reason) {
        setServerError(error.fields.reason);
        return;
      }
      toast.error(action === 'freeze' ? 'The account could not be frozen' : 'The freeze could not be lifted', {
        description: errorMessage(error, 'Please try again.'),
      });
      setDialog(null);
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    }
  };

  return { dialog, setDialog, busy, serverError, act };
}
