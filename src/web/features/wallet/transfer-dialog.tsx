import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { LIMITS } from '#shared/limits';
import { TRANSFER_MESSAGES, transferRequestSchema } from '#shared/contracts/transfers';
import { parseUsdtMicros, usdtMicrosFromWire } from '#shared/money';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PinInput } from '../../components/ui/pin-input.tsx';
import { ApiError } from '../../lib/api.ts';
import { amountField } from '../../lib/amount-input.ts';
import { applySubmissionFailure, useActionError } from '../../lib/form-errors.ts';
import { requestTransfer, useIdempotencyKeys, useRefreshMoney } from './api.ts';
import { useSecurityPauses } from '../security/index.ts';
import { displayDateTime } from '../../lib/date-format.ts';
import { displayUsdt } from './format.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { KycGateNotice } from '../kyc/index.ts';
import { OfflineActionNote, useMoneyActionsOffline } from '../../components/ui/offline-action-note.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

const FIELDS = ['recipientEmail', 'amount', 'pin'] as const;
type TransferForm = z.input<typeof transferRequestSchema>;

/** Send USDT to another customer by e-mail; held from the balance at once, credited when an admin approves. */
export function TransferDialog({ open, onOpenChange, balanceUsdt }: { open: boolean; onOpenChange: (open: boolean) => void; balanceUsdt: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent title={t('transfer.title')} description={t('transfer.description')}>
        <KycGateNotice leaving="transfers" />
        <TransferForm balanceUsdt={balanceUsdt} onBusyChange={setBusy} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function TransferForm({ balanceUsdt, onBusyChange, onDone }: { balanceUsdt: string; onBusyChange: (busy: boolean) => void; onDone: () => void }) {
  const pause = useSecurityPauses().data?.transfers ?? undefined;
  const balanceMicros = usdtMicrosFromWire(balanceUsdt);
  const schema = transferRequestSchema.superRefine((values, context) => {
    const amount = parseUsdtMicros(values.amount);
    if (amount.ok && amount.value > balanceMicros) context.addIssue({ code: 'custom', path: ['amount'], message: TRANSFER_MESSAGES.insufficientBalance });
  });
  const form = useForm<TransferForm>({ resolver: zodResolver(schema), defaultValues: { recipientEmail: '', amount: '', pin: '' } });
  const offline = useMoneyActionsOffline();
  const { errors, isSubmitting } = form.formState;
  const pin = useWatch({ control: form.control, name: 'pin' }) ?? '';
  const { onSubmit, submitError } = useTransferSubmission(form, onBusyChange, onDone);

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {pause && (
        <Alert variant="destructive" data-testid="transfer-pause">
          {localizeMessage(pause.message, { until: displayDateTime(pause.until) })}
        </Alert>
      )}
      <FormField label={t('transfer.recipientEmail')} error={errors.recipientEmail?.message}>
        <Input type="email" autoComplete="off" maxLength={LIMITS.emailLength} disabled={isSubmitting} {...form.register('recipientEmail')} />
      </FormField>
      <FormField label={t('deposit.amountUsdt')} error={errors.amount?.message} help={t('transfer.available', { amount: displayUsdt(balanceUsdt) })}>
        <Input inputMode="decimal" autoComplete="off" maxLength={24} placeholder="0.00" disabled={isSubmitting} {...amountField(form.register('amount'))} />
      </FormField>
      <FormField label={t('withdraw.transactionPin')} error={errors.pin?.message}>
        <PinInput
          value={pin}
          disabled={isSubmitting}
          onValueChange={(value) => {
            form.setValue('pin', value);
            if (errors.pin) form.clearErrors('pin');
          }}
        />
      </FormField>
      <ActionError message={submitError} />
      <OfflineActionNote />
      <Button type="submit" disabled={isSubmitting || pause !== undefined || offline} aria-busy={isSubmitting}>
        {isSubmitting ? t('transfer.sending') : t('transfer.send')}
      </Button>
    </form>
  );
}

/** Sends the transfer once per intent; a wrong PIN is asked again at its field, any other refusal is said once near the button. */
function useTransferSubmission(form: UseFormReturn<TransferForm>, onBusyChange: (busy: boolean) => void, onDone: () => void) {
  const refreshMoney = useRefreshMoney();
  const endOfSession = useEndOfSessionHandler();
  const idempotencyKeys = useIdempotencyKeys();
  const [submitError, setSubmitError] = useActionError(form);

  const onSubmit = form.handleSubmit(async (values) => {
    setSubmitError(undefined);
    onBusyChange(true);
    try {
      const request = { recipientEmail: values.recipientEmail, amount: values.amount };
      const answer = await requestTransfer({ ...request, pin: values.pin }, idempotencyKeys.keyFor(request));
      idempotencyKeys.forget();
      toast.success(localizeMessage(answer.message || TRANSFER_MESSAGES.submitted));
      void refreshMoney();
      onDone();
    } catch (error) {
      if (endOfSession(error)) return;
      const failure = applySubmissionFailure(form, error, FIELDS, t('transfer.failed'));
      if (failure.aboutPin) {
        // The PIN is asked again only when it was the problem; anything else keeps what was typed.
        form.setValue('pin', '');
        form.setError('pin', {
          message:
            failure.fieldErrors.find(({ field }) => field === 'pin')?.message ?? (error instanceof ApiError ? error.message : TRANSFER_MESSAGES.incorrectPin),
        });
        return;
      }
      setSubmitError(failure.actionError);
    } finally {
      onBusyChange(false);
    }
  });

  return { onSubmit, submitError };
}
