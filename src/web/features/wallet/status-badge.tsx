import { CheckCircle2, Clock, Loader, XCircle } from 'lucide-react';
import { Badge } from '../../components/ui/badge.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** The spec's status colours: approved green with a check, rejected red, anything else pending amber. */
export function StatusBadge({ status }: { status: string }) {
  if (status === 'approved') {
    return (
      <Badge tone="success" className="px-2">
        <CheckCircle2 className="size-3.5" aria-hidden />
        {t('status.approved')}
      </Badge>
    );
  }
  if (status === 'rejected') {
    return (
      <Badge tone="danger" className="px-2">
        <XCircle className="size-3.5" aria-hidden />
        {t('status.rejected')}
      </Badge>
    );
  }
  if (status === 'cancelled') {
    return (
      <Badge className="px-2">
        <XCircle className="size-3.5" aria-hidden />
        {t('status.cancelled')}
      </Badge>
    );
  }
  if (status === 'processing') {
    return (
      <Badge tone="brand" className="px-2">
        <Loader className="size-3.5" aria-hidden />
        {t('status.processing')}
      </Badge>
    );
  }
  return (
    <Badge tone="warning" className="px-2">
      <Clock className="size-3.5" aria-hidden />
      {t('status.pending')}
    </Badge>
  );
}
