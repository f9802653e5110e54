import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { changePinFormSchema } from '../../../shared/contracts/pin.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { PinInput } from '../../components/ui/pin-input.tsx';
import { ApiError } from '../../lib/api.ts';
import { useEndOfSessionHandler } from '../auth/use-end-of-session.ts';
import { changePin } from './api.ts';

/** Change PIN on the profile page: current, new and confirmation. */
export function ChangePinForm({ onDone }: { onDone: () => void }) {
  const endOfSession = useEndOfSessionHandler();
  const [currentPin, setCurrentPin] = useState('');
  const [newPin, setNewPin] = useState('');
  const [confirmPin, setConfirmPin] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = changePinFormSchema.safeParse({ currentPin, newPin, confirmPin });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    try {
      await changePin(currentPin, newPin);
      toast.success('PIN updated successfully');
      onDone();
    } catch (failure) {
      if (endOfSession(failure)) return;
      const message = failure instanceof ApiError && failure.code === 'PIN_INCORRECT' ? 'Current PIN is incorrect' : 'Failed to update PIN';
      setError(message);
      toast.error(message);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
      {error && <Alert variant="destructive">{error}</Alert>}
      <FormField label="Current PIN">
        <PinInput value={currentPin} onValueChange={setCurrentPin} />
      </FormField>
      <FormField label="New PIN">
        <PinInput value={newPin} onValueChange={setNewPin} />
      </FormField>
      <FormField label="Confirm New PIN">
        <PinInput value={confirmPin} onValueChange={setConfirmPin} />
      </FormField>
      <Button type="submit" disabled={submitting}>
        {submitting ? 'Saving...' : 'Update PIN'}
      </Button>
    </form>
  );
}
