import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import type { PanReview } from '#shared/contracts/kyc';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { adminKeys } from './api.ts';
import { approvePan, rejectPan, requestPanCard } from './kyc-api.ts';

export type ReviewDecision = { review: PanReview; decision: 'approve' | 'reject' | 'request_card' };

const FAILURE_TITLES: Record<ReviewDecision['decision'], string> = {
  approve: 'Could not approve the PAN',
  reject: 'Could not reject the PAN',
  request_card: 'Could not ask for the PAN card',
};

/**
 * The KYC desk's PAN decisions: the one open in the dialog and its sending. A field error keeps the
 * dialog open beside the note; any other failure closes it with a toast. Either way the admin's lists
 * are read again.
 */
export function usePanReviewDecision() {
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<ReviewDecision | null>(null);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | undefined>();

  const confirm = async (current: ReviewDecision, note: string) => {
    setBusy(true);
    setServerError(undefined);
    try {
      const answer =
        current.decision === 'approve'
          ? await approvePan(current.review.userId, { registeredName: note })
          : current.decision === 'reject'
            ? await rejectPan(current.review.userId, { reason: note })
            : await requestPanCard(current.review.userId, note);
      toast.success(answer.message, { description: current.review.name });
      setTarget(null);
    } catch (error) {
      const fieldMessage = error instanceof ApiError ? (error.fields.registeredName ?? error.fields.reason) : undefined;
      if (fieldMessage) {
        setServerError(fieldMessage);
        return;
      }
      toast.error(FAILURE_TITLES[current.decision], {
        description: errorMessage(error, 'Please try again.'),
      });
      setTarget(null);
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    }
  };

  return { target, setTarget, busy, serverError, confirm };
}
