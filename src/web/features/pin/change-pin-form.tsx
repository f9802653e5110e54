import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { changePinFormSchema } from '#shared/contracts/pin';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { FormPinInput } from '../../components/ui/pin-input.tsx';
import { ApiError } from '../../lib/api.ts';
import { firstErrorMessage } from '../../lib/forms.ts';
import { useEndOfSessionHandler } from '../auth/use-end-of-session.ts';
import { changePin } from './api.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/** Change PIN on the profile page: current, new and confirmation. */
export function ChangePinForm({ onDone }: { onDone: () => void }) {
  const endOfSession = useEndOfSessionHandler();
  const [error, setError] = useState<string>();
  const form = useForm<z.input<typeof changePinFormSchema>>({
    resolver: zodResolver(changePinFormSchema),
    defaultValues: { currentPin: '', newPin: '', confirmPin: '' },
  });
  const submitting = form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(
    async (values) => {
      setError(undefined);
      try {
        await changePin(values.currentPin, values.newPin);
        toast.success(t('pin.updated'));
        onDone();
      } catch (failure) {
        if (endOfSession(failure)) return;
        // A new PIN the server refuses (too easy, or the current one) is said in the server's words.
        const refusedNewPin = failure instanceof ApiError ? failure.fields.newPin : undefined;
        const message = failure instanceof ApiError && failure.code === 'PIN_INCORRECT' ? t('pin.currentIncorrect') : (refusedNewPin ?? t('pin.updateFailed'));
        // Said once, in the form's alert: a toast with the same words would say it twice.
        setError(message);
      }
    },
    (errors) => setError(firstErrorMessage(errors)),
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
      {error && <Alert variant="destructive">{localizeMessage(error)}</Alert>}
      <FormField label={t('pin.current')}>
        <FormPinInput control={form.control} name="currentPin" />
      </FormField>
      <FormField label={t('pin.new')}>
        <FormPinInput control={form.control} name="newPin" />
      </FormField>
      <FormField label={t('pin.confirmNew')}>
        <FormPinInput control={form.control} name="confirmPin" />
      </FormField>
      <Button type="submit" disabled={submitting}>
        {submitting ? t('pin.saving') : t('pin.update')}
      </Button>
    </form>
  );
}
