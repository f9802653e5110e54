import { CheckCircle2, Clock, Loader, XCircle } from 'lucide-react';
import type { WithdrawalStatus } from '#shared/contracts/enums';
import { Badge } from '../../../components/ui/badge.tsx';

const STATUS_LOOK = {
  approved: { tone: 'success', label: 'Approved', Icon: CheckCircle2 },
  rejected: { tone: 'danger', label: 'Rejected', Icon: XCircle },
  pending: { tone: 'warning', label: 'Pending', Icon: Clock },
  processing: { tone: 'brand', label: 'Processing', Icon: Loader },
  cancelled: { tone: 'default', label: 'Cancelled by customer', Icon: XCircle },
} as const;

/** Approved green with a check, rejected red, anything else pending amber (SPEC.md). */
export function StatusBadge({ status }: { status: WithdrawalStatus }) {
  const { tone, label, Icon } = STATUS_LOOK[status];
  return (
    <Badge tone={tone}>
      <Icon className="size-3.5" aria-hidden />
      {label}
    </Badge>
  );
}
