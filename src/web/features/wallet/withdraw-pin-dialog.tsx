import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { verifyPinRequestSchema } from '#shared/contracts/pin';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { FormPinInput } from '../../components/ui/pin-input.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

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
  const form = useForm<z.input<typeof verifyPinRequestSchema>>({ resolver: zodResolver(verifyPinRequestSchema), defaultValues: { pin: '' } });
  const busy = form.formState.isSubmitting;
  // Only the server's refusal is shown: the button stays disabled until four digits are typed.
  const pinError = form.formState.errors.pin?.type === 'server' ? form.formState.errors.pin.message : undefined;
  const pin = useWatch({ control: form.control, name: 'pin' });

  const close = (next: boolean) => {
    if (busy) return;
    if (!next) form.reset();
    onOpenChange(next);
  };

  const submit = form.handleSubmit(async (values) => {
    const outcome = await onConfirm(values.pin);
    form.setValue('pin', '');
    if (!outcome.ok) form.setError('pin', { type: 'server', message: outcome.pinError });
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent title={t('withdraw.enterPin')} description={summary}>
        <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
          <FormField label={t('withdraw.transactionPin')} error={pinError}>
            <FormPinInput
              control={form.control}
              name="pin"
              disabled={busy}
              onInput={() => {
                if (pinError) form.clearErrors('pin');
              }}
            />
          </FormField>
          <div className="flex justify-end gap-2">
            <Button variant="outline" disabled={busy} onClick={() => close(false)}>
              {t('withdraw.cancel')}
            </Button>
            <Button type="submit" disabled={busy || pin.length !== 4} aria-busy={busy}>
              {busy ? t('withdraw.processing') : t('withdraw.confirm')}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
