import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { pinResetLinkFormSchema, resetPinFormSchema } from '../../../shared/contracts/pin.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PinInput } from '../../components/ui/pin-input.tsx';
import { FullPageLoader } from '../../components/ui/spinner.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { ME_QUERY_KEY } from '../auth/api.ts';
import { AuthCard } from '../auth/auth-card.tsx';
import { useLeaveEndedSession } from '../auth/use-end-of-session.ts';
import { ConnectionErrorCard } from '../shell/connection-error.tsx';
import { RequireSession } from '../shell/guards.tsx';
import { requestPinResetLink, resetPin } from './api.ts';
import { useConnectionCheck } from './use-connection-check.ts';

/**
 * A forgotten PIN is replaced in two steps: the signed-in customer confirms the
 * account password and we e-mail a single-use link; the link opens this page
 * again with its token, where the new PIN is chosen. The password alone never
 * replaces the PIN.
 */
export default function ResetPinPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const connection = useConnectionCheck();
  if (connection.isPending) return <FullPageLoader text="Checking Connection" />;
  if (connection.isError) return <ConnectionErrorCard onRetry={() => void connection.refetch()} />;
  if (token !== null) return <ChooseNewPin token={token} />;
  return (
    <RequireSession>
      <RequestResetLink />
    </RequireSession>
  );
}

function RequestResetLink() {
  const leaveEndedSession = useLeaveEndedSession();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [sentMessage, setSentMessage] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = pinResetLinkFormSchema.safeParse({ password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    try {
      const answer = await requestPinResetLink(password);
      setSentMessage(answer.message);
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

  const footer = (
    <Link className="font-medium text-brand-700 hover:underline" to="/verify-pin">
      Back to PIN verification
    </Link>
  );

  if (sentMessage) {
    return (
      <AuthCard title="Check Your Email" footer={footer}>
        <div className="flex flex-col gap-3 text-sm text-slate-700">
          <Alert variant="info">{sentMessage}</Alert>
          <p>Open the link in the e-mail to choose a new PIN. If it does not arrive within a few minutes, check your spam folder.</p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset Your PIN" subtitle="Confirm your account password and we will e-mail you a link to choose a new PIN" footer={footer}>
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        {error && <Alert variant="destructive">{error}</Alert>}
        <FormField label="Account Password">
          <Input type="password" autoComplete="current-password" maxLength={128} value={password} onChange={(event) => setPassword(event.target.value)} />
        </FormField>
        <Button type="submit" disabled={submitting}>
          {submitting ? 'Sending...' : 'Send Reset Link'}
        </Button>
      </form>
    </AuthCard>
  );
}

function ChooseNewPin({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pin, setPin] = useState('');
  const [confirmPin, setConfirmPin] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = resetPinFormSchema.safeParse({ pin, confirmPin });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    try {
      const answer = await resetPin(token, pin);
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      toast.success('PIN reset successful', { description: 'Your PIN has been updated.' });
      void navigate(answer.signedIn ? '/dashboard' : '/login', { replace: true });
    } catch (failure) {
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
      subtitle="Choose a new 4-digit transaction PIN"
      footer={
        <Link className="font-medium text-brand-700 hover:underline" to="/login">
          Back to Login
        </Link>
      }
    >
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        {error && <Alert variant="destructive">{error}</Alert>}
        <FormField label="New PIN">
          <PinInput value={pin} onValueChange={setPin} />
        </FormField>
        <FormField label="Confirm New PIN">
          <PinInput value={confirmPin} onValueChange={setConfirmPin} />
        </FormField>
        <p className="text-xs text-slate-500">For your safety, withdrawals and transfers pause for a while after a PIN reset, and your other sessions end.</p>
        <Button type="submit" disabled={submitting || pin.length !== 4 || confirmPin.length !== 4}>
          {submitting ? 'Resetting...' : 'Reset PIN'}
        </Button>
      </form>
    </AuthCard>
  );
}
