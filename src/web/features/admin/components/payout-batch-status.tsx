import type { PayoutBatch } from '#shared/contracts/payout-batches';
import { Badge } from '../../../components/ui/badge.tsx';

/** Open (with how many wait for the bank's results), completed or cancelled. */
export function PayoutBatchStatus({ batch }: { batch: Pick<PayoutBatch, 'status' | 'processingCount' | 'count'> }) {
  if (batch.status === 'cancelled') return <Badge tone="danger">Cancelled</Badge>;
  if (batch.status === 'completed') return <Badge tone="success">Completed</Badge>;
  return (
    <Badge tone="warning">
      Open, {batch.processingCount} of {batch.count} processing
    </Badge>
  );
}
