import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import type { PayoutResult, PayoutResultsPreview } from '#shared/contracts/payout-batches';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { adminKeys, cancelPayoutBatch, postPayoutResults, postPayoutResultsCsv, previewPayoutResultsCsv } from './api.ts';

const RESULTS_FILE_MAX_BYTES = 1024 * 1024;

/**
 * What the payout batch page does: results sent row by row or as a file (previewed first, then
 * applied on confirm) and the batch's cancel. Each ends by reading the admin's lists again; while
 * one is under way (`sending`) the others wait.
 */
export function usePayoutBatchActions(batchId: string) {
  const queryClient = useQueryClient();
  const [results, setResults] = useState<PayoutResult[] | null>(null);
  const [preview, setPreview] = useState<{ csv: string; answer: PayoutResultsPreview } | null>(null);
  const [sending, setSending] = useState(false);
  const [uploadError, setUploadError] = useState<string | undefined>();
  // A new key empties the file input after each upload, so that the same file can be chosen again.
  const [inputKey, setInputKey] = useState(0);

  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.all });
  const cancel = useBatchCancel(batchId, refresh);

  const send = async (request: () => ReturnType<typeof postPayoutResults>) => {
    setSending(true);
    setUploadError(undefined);
    try {
      const answer = await request();
      setResults(answer.results);
      const awaiting = answer.awaitingSecondApproval > 0 ? `, ${answer.awaitingSecondApproval} awaiting a second admin` : '';
      const summary = `${answer.applied} applied, ${answer.alreadyApplied} already applied, ${answer.refused} refused${awaiting}`;
      if (answer.refused > 0) toast.warning('Some results were refused', { description: summary });
      else toast.success('Results applied', { description: summary });
    } catch (error) {
      const message = errorMessage(error, 'The results could not be sent. Please try again.');
      setUploadError(error instanceof ApiError ? (error.fields.body ?? error.fields.rows ?? message) : message);
    } finally {
      setSending(false);
      setInputKey((key) => key + 1);
      await refresh();
    }
  };

  const uploadFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > RESULTS_FILE_MAX_BYTES) {
      setUploadError('The results file is too large (at most 1 MB).');
      return;
    }
    const text = await file.text();
    setSending(true);
    setUploadError(undefined);
    setResults(null);
    try {
      setPreview({ csv: text, answer: await previewPayoutResultsCsv(batchId, text) });
    } catch (error) {
      const message = errorMessage(error, 'The results could not be read. Please try again.');
      setUploadError(error instanceof ApiError ? (error.fields.body ?? message) : message);
    } finally {
      setSending(false);
      setInputKey((key) => key + 1);
    }
  };

  const applyPreviewed = async () => {
    if (!preview) return;
    const { csv } = preview;
    setPreview(null);
    await send(() => postPayoutResultsCsv(batchId, csv));
  };

  const sendRow = (row: Parameters<typeof postPayoutResults>[1][number]) => send(() => postPayoutResults(batchId, [row]));

  return {
    results,
    closeResults: () => setResults(null),
    preview,
    discardPreview: () => setPreview(null),
    sending: sending || cancel.cancelling,
    uploadError,
    inputKey,
    uploadFile,
    applyPreviewed,
    sendRow,
    cancel,
  };
}

/** The batch's cancel: asked in a dialog, answered by a toast (a second admin may have to confirm it). */
function useBatchCancel(batchId: string, refresh: () => Promise<void>) {
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const confirm = async () => {
    setCancelling(true);
    try {
      const answer = await cancelPayoutBatch(batchId);
      if ('pendingChange' in answer) toast.info(answer.message);
      else toast.success(answer.message);
    } catch (error) {
      toast.error('The batch could not be cancelled', { description: errorMessage(error, 'Please try again.') });
    } finally {
      setConfirming(false);
      setCancelling(false);
      await refresh();
    }
  };
  return { confirming, setConfirming, cancelling, confirm };
}
