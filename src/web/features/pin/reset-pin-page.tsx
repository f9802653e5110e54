import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { resetPinFormSchema } from '../../../shared/contracts/pin.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PinInput } from '../../components/ui/pin-input.tsx';
import { FullPageLoader } from '../../components/ui/spinner.tsx';
import { ApiError, errorMessage, errorReference } from '../../lib/api.ts';
import { ME_QUERY_KEY } from '../auth/api.ts';
import { AuthCard } from '../auth/auth-card.tsx';
import { useLeaveEndedSession } from '../auth/use-end-of-session.ts';
import { ConnectionErrorCard } from '../shell/connection-error.tsx';
import { resetPin } from './api.ts';
import { useConnectionCheck } from './use-connection-check.ts';

export default function ResetPinPage() {
  const navigate = useNavigate();
  const leaveEndedSession = useLeaveEndedSession();
  const queryClient = useQueryClient();
  const connection = useConnectionCheck();
  const [password, setPassword] = useState('');
  const [pin, setPin] = useState('');
  const [confirmPin, setConfirmPin] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  if (connection.isPending) return <FullPageLoader text="Checking Connection" />;
  if (connection.isError) return <ConnectionErrorCard onRetry={() => void connection.refetch()} reference={errorReference(connection.error)} />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = resetPinFormSchema.safeParse({ password, pin, confirmPin });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    try {
      await resetPin(password, pin);
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      toast.success('PIN reset successful', { description: 'Your PIN has been updated.' });
      navigate('/dashboard', { replace: true });
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) {
        toast.error('User not found', { description: 'Please log in again.' });
        leaveEndedSession();
        return;
      }
      const message = errorMessage(failure, 'Please try again.');
      setError(message);
      toast.error('Failed to reset PIN', { description: message });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthCard
      title="Reset Your PIN"
      subtitle="Confirm your account password, then choose a new PIN"
      footer={
        <Link className="font-medium text-brand-700 hover:underline" to="/verify-pin">
          Back to PIN verification
        </Link>
      }
    >
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        {error && <Alert variant="destructive">{error}</Alert>}
        <FormField label="Account Password">
          <Input type="password" autoComplete="current-password" maxLength={128} value={password} onChange={(event) => setPassword(event.target.value)} />
        </FormField>
        <FormField label="New PIN">
          <PinInput value={pin} onValueChange={setPin} />
        </FormField>
        <FormField label="Confirm New PIN">
          <PinInput value={confirmPin} onValueChange={setConfirmPin} />
        </FormField>
        <Button type="submit" disabled={submitting || pin.length !== 4 || confirmPin.length !== 4}>
          {submitting ? 'Resetting...' : 'Reset PIN'}
        </Button>
      </form>
    </AuthCard>
  );
}
