import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { PinInput } from '../../components/ui/pin-input.tsx';

export type PinCheckOutcome = { ok: true } | { ok: false; pinError: string };

/** Asks for the 4-digit PIN; a wrong PIN keeps the dialog open with the message and an empty box. */
export function WithdrawPinDialog({
  open,
  onOpenChange,
  summary,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  summary: string;
  onConfirm: (pin: string) => Promise<PinCheckOutcome>;
}) {
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const close = (next: boolean) => {
    if (busy) return;
    if (!next) {
      setPin('');
      setPinError(undefined);
    }
    onOpenChange(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{4}$/.test(pin) || busy) return;
    setBusy(true);
    try {
      const outcome = await onConfirm(pin);
      setPin('');
      setPinError(outcome.ok ? undefined : outcome.pinError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent title="Enter Transaction PIN" description={summary}>
        <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
          <FormField label="Transaction PIN" error={pinError}>
            <PinInput
              value={pin}
              disabled={busy}
              onValueChange={(value) => {
                setPin(value);
                if (pinError) setPinError(undefined);
              }}
            />
          </FormField>
          <div className="flex justify-end gap-2">
            <Button variant="outline" disabled={busy} onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy || pin.length !== 4} aria-busy={busy}>
              {busy ? 'Processing...' : 'Confirm Withdrawal'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
