import { isLargeRateChange, rateChangePercentText, RATE_CHANGE_CONFIRMATION_PERCENT, RATE_LABELS } from '#shared/contracts/settings';
import { parseRatePaise, ratePaiseToWire } from '#shared/money';
import { ConfirmDialog } from '../../../components/ui/dialog.tsx';

export interface RateChange {
  field: keyof typeof RATE_LABELS;
  from: string;
  to: string;
  percent: string;
}

/** The rates of the form that move more than RATE_CHANGE_CONFIRMATION_PERCENT from the saved ones (the server refuses those unless confirmed). */
export function largeRateChanges(saved: { normalRate: string; vipRate: string }, form: { normalRate: string; vipRate: string }): RateChange[] {
  const changes: RateChange[] = [];
  for (const field of ['normalRate', 'vipRate'] as const) {
    const before = parseRatePaise(saved[field]);
    const after = parseRatePaise(form[field].trim());
    if (!before.ok || !after.ok || !isLargeRateChange(before.value, after.value)) continue;
    changes.push({ field, from: ratePaiseToWire(before.value), to: ratePaiseToWire(after.value), percent: rateChangePercentText(before.value, after.value) });
  }
  return changes;
}

/** Asks before a rate change of more than 5% is saved, showing each rate's old and new value and the change in percent. */
export function RateChangeDialog({
  changes,
  busy,
  onConfirm,
  onCancel,
}: {
  changes: RateChange[];
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      title="Confirm a large rate change"
      description={`These rates change by more than ${RATE_CHANGE_CONFIRMATION_PERCENT}%. Customers are paid at the new rate as soon as it is saved.`}
      confirmLabel="Save the new rates"
      busy={busy}
      onConfirm={onConfirm}
    >
      <ul className="flex flex-col gap-2 text-sm" data-testid="rate-changes">
        {changes.map((change) => (
          <li key={change.field} className="rounded-xl bg-amber-50 px-3 py-2">
            <span className="font-medium">{RATE_LABELS[change.field]}</span>: {change.from} → {change.to}{' '}
            <span className="font-semibold">({change.percent})</span>
          </li>
        ))}
      </ul>
    </ConfirmDialog>
  );
}
