import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { setupPinFormSchema } from '../../../shared/contracts/pin.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { PinInput } from '../../components/ui/pin-input.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { safeNextPath } from '../../lib/utils.ts';
import { ME_QUERY_KEY } from '../auth/api.ts';
import { AuthCard } from '../auth/auth-card.tsx';
import { useLeaveEndedSession } from '../auth/use-end-of-session.ts';
import { setUpPin } from './api.ts';

export default function PinSetupPage() {
  const navigate = useNavigate();
  const leaveEndedSession = useLeaveEndedSession();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const [pin, setPin] = useState('');
  const [confirmPin, setConfirmPin] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = setupPinFormSchema.safeParse({ pin, confirmPin });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    try {
      await setUpPin(pin);
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      toast.success('PIN set successfully');
      navigate(next, { replace: true });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) {
        toast.error('You need to be logged in to set up a PIN.');
        leaveEndedSession();
        return;
      }
      toast.error('Failed to set up PIN', { description: errorMessage(failure, 'Please try again.') });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthCard title="Setup Transaction PIN" subtitle="Choose a 4-digit PIN">
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        <Alert variant="info">A transaction PIN is required to authorize withdrawals and other sensitive actions.</Alert>
        {error && <Alert variant="destructive">{error}</Alert>}
        <FormField label="New PIN">
          <PinInput value={pin} onValueChange={setPin} autoFocus />
        </FormField>
        <FormField label="Confirm PIN">
          <PinInput value={confirmPin} onValueChange={setConfirmPin} />
        </FormField>
        <Button type="submit" disabled={submitting}>
          {submitting ? 'Saving...' : 'Set PIN'}
        </Button>
      </form>
    </AuthCard>
  );
}
