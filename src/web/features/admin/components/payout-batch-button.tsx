import { useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useIdempotencyKeys } from '../../wallet/index.ts';
import { adminKeys, createPayoutBatch, fetchPayoutBatch, payoutBatchCsvUrl } from '../api.ts';

/**
 * Puts the oldest pending withdrawals into a new payout batch (they become
 * Processing, so no second file can hold them) and downloads the batch's bank file.
 */
export function PayoutBatchButton() {
  const queryClient = useQueryClient();
  const idempotencyKeys = useIdempotencyKeys();
  const [busy, setBusy] = useState(false);
  const create = async () => {
    setBusy(true);
    try {
      // The same key until it succeeds: a retry after a lost answer gets the batch already made.
      const { batch, message } = await createPayoutBatch(idempotencyKeys.keyFor({ batch: 'oldest pending' }));
      idempotencyKeys.forget();
      toast.success(message, { description: `${batch.count} withdrawals, ${batch.totalInr} INR` });
      // A layout that cannot carry a row (Plural's per-payout cap, decision 067) would refuse the download: say why instead.
      const { fileRefusal } = await fetchPayoutBatch(batch.id);
      if (fileRefusal === null) window.location.assign(payoutBatchCsvUrl(batch.id));
      else toast.error(fileRefusal);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    } catch (error) {
      toast.error(errorMessage(error, 'The payout batch could not be created.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={busy}
      onClick={() => void create()}
      title="Puts the pending withdrawals, oldest first, into a payout batch and downloads its CSV for the bank"
    >
      <Download />
      Create payout batch (CSV)
    </Button>
  );
}
