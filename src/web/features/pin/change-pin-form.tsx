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
        toast.success('PIN updated successfully');
        onDone();
      } catch (failure) {
        if (endOfSession(failure)) return;
        // A new PIN the server refuses (too easy, or the current one) is said in the server's words.
        const refusedNewPin = failure instanceof ApiError ? failure.fields.newPin : undefined;
        const message =
          failure instanceof ApiError && failure.code === 'PIN_INCORRECT' ? 'Current PIN is incorrect' : (refusedNewPin ?? 'Failed to update PIN');
        // Said once, in the form's alert: a toast with the same words would say it twice.
        setError(message);
      }
    },
    (errors) => setError(firstErrorMessage(errors)),
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
      {error && <Alert variant="destructive">{error}</Alert>}
      <FormField label="Current PIN">
        <FormPinInput control={form.control} name="currentPin" />
      </FormField>
      <FormField label="New PIN">
        <FormPinInput control={form.control} name="newPin" />
      </FormField>
      <FormField label="Confirm New PIN">
        <FormPinInput control={form.control} name="confirmPin" />
      </FormField>
      <Button type="submit" disabled={submitting}>
        {submitting ? 'Saving...' : 'Update PIN'}
      </Button>
    </form>
  );
}
