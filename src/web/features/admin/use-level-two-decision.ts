import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import type { RequestableItem } from '#shared/contracts/kyc-documents';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { adminKeys } from './api.ts';
import { approveLevelTwo, rejectLevelTwo, requestLevelTwoAgain } from './kyc-api.ts';

export type LevelTwoDecision = 'approve' | 'reject' | 'request-again';

/**
 * The level 2 case's decisions: which one is open in the dialog, the item asked for again, and the
 * sending. A field error keeps the dialog open beside the reason; any other failure closes it with a
 * toast. Either way the admin's lists are read again.
 */
export function useLevelTwoDecision(id: string) {
  const queryClient = useQueryClient();
  const [decision, setDecision] = useState<LevelTwoDecision | null>(null);
  const [item, setItem] = useState<RequestableItem>('document_front');
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | undefined>();

  const decide = async (chosen: LevelTwoDecision, note: string) => {
    setBusy(true);
    setServerError(undefined);
    try {
      const answer =
        chosen === 'approve'
          ? await approveLevelTwo(id)
          : chosen === 'reject'
            ? await rejectLevelTwo(id, { reason: note })
            : await requestLevelTwoAgain(id, { item, reason: note });
      toast.success(answer.message);
      setDecision(null);
    } catch (error) {
      const fieldMessage = error instanceof ApiError ? (error.fields.reason ?? error.fields.item) : undefined;
      if (fieldMessage) {
        setServerError(fieldMessage);
        return;
      }
      toast.error('The decision was not saved', { description: errorMessage(error, 'Please try again.') });
      setDecision(null);
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    }
  };

  return { decision, setDecision, item, setItem, busy, serverError, decide };
}
