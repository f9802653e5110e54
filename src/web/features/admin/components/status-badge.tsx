import { CheckCircle2, Clock, XCircle } from 'lucide-react';
import { Badge } from '../../../components/ui/badge.tsx';
import type { RequestStatus } from '../../../../shared/contracts/enums.ts';

const STATUS_LOOK = {
  approved: { tone: 'success', label: 'Approved', Icon: CheckCircle2 },
  rejected: { tone: 'danger', label: 'Rejected', Icon: XCircle },
  pending: { tone: 'warning', label: 'Pending', Icon: Clock },
} as const;

/** Approved green with a check, rejected red, anything else pending amber (SPEC.md). */
export function StatusBadge({ status }: { status: RequestStatus }) {
  const { tone, label, Icon } = STATUS_LOOK[status];
  return (
    <Badge tone={tone}>
      <Icon className="size-3.5" aria-hidden />
      {label}
    </Badge>
  );
}
