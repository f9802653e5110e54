import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { changePinFormSchema } from '#shared/contracts/pin';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { FormPinInput } from '../../components/ui/pin-input.tsx';
import { ApiError } from '../../lib/api.ts';
import { applySubmissionFailure, useActionError } from '../../lib/form-errors.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { changePin } from './api.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

type Values = z.input<typeof changePinFormSchema>;
const FIELDS = ['currentPin', 'newPin', 'confirmPin'] as const;

/**
 * Change PIN on the profile page: current, new and confirmation. Each problem is said once, at its PIN
 * field (a wrong current PIN at the current PIN, a PIN too easy to guess at the new one); a failure of
 * the whole change once, above the button.
 */
export function ChangePinForm({ onDone }: { onDone: () => void }) {
  const endOfSession = useEndOfSessionHandler();
  const form = useForm<Values>({
    resolver: zodResolver(changePinFormSchema),
    defaultValues: { currentPin: '', newPin: '', confirmPin: '' },
  });
  const [actionError, setActionError] = useActionError(form);
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setActionError(undefined);
    try {
      await changePin(values.currentPin, values.newPin);
      toast.success(t('pin.updated'));
      onDone();
    } catch (failure) {
      if (endOfSession(failure)) return;
      if (failure instanceof ApiError && failure.code === 'PIN_INCORRECT') {
        // The wrong PIN is thrown away, and said where the next one is typed.
        form.setValue('currentPin', '');
        form.setError('currentPin', { type: 'server', message: t('pin.currentIncorrect') });
        return;
      }
      setActionError(applySubmissionFailure(form, failure, FIELDS, t('pin.updateFailed')).actionError);
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
      <FormField label={t('pin.current')} error={errors.currentPin?.message}>
        <FormPinInput control={form.control} name="currentPin" />
      </FormField>
      <FormField label={t('pin.new')} error={errors.newPin?.message}>
        <FormPinInput control={form.control} name="newPin" />
      </FormField>
      <FormField label={t('pin.confirmNew')} error={errors.confirmPin?.message}>
        <FormPinInput control={form.control} name="confirmPin" />
      </FormField>
      <ActionError message={actionError} />
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? t('pin.saving') : t('pin.update')}
      </Button>
    </form>
  );
}
