import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { PinInput } from '../../components/ui/pin-input.tsx';
import { FullPageLoader } from '../../components/ui/spinner.tsx';
import { ApiError, errorReference } from '../../lib/api.ts';
import { safeNextPath } from '../../lib/utils.ts';
import { ME_QUERY_KEY, useSignOut } from '../auth/api.ts';
import { AuthCard } from '../auth/auth-card.tsx';
import { useEndOfSessionHandler } from '../auth/use-end-of-session.ts';
import { ConnectionErrorCard } from '../shell/connection-error.tsx';
import { verifyPin } from './api.ts';
import { useConnectionCheck } from './use-connection-check.ts';

export default function VerifyPinPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const endOfSession = useEndOfSessionHandler();
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const connection = useConnectionCheck();
  const [pin, setPin] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const backToLogin = async () => {
    await signOut().catch(() => undefined);
    navigate('/login', { replace: true });
  };

  if (connection.isPending) return <FullPageLoader text="Checking Connection" />;
  if (connection.isError) return <ConnectionErrorCard onRetry={() => void connection.refetch()} onBackToLogin={() => void backToLogin()} reference={errorReference(connection.error)} />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{4}$/.test(pin)) {
      toast.error('Invalid PIN', { description: 'PIN must be exactly 4 digits' });
      return;
    }
    setSubmitting(true);
    try {
      await verifyPin(pin);
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      toast.success('PIN verified', { description: 'Welcome back!' });
      navigate(next, { replace: true });
    } catch (error) {
      setPin('');
      if (endOfSession(error)) return;
      if (error instanceof ApiError && error.code === 'PIN_NOT_SET') {
        toast.info('PIN setup required');
        navigate(`/pin-setup?next=${encodeURIComponent(next)}`, { replace: true });
      } else if (error instanceof ApiError && error.code === 'PIN_INCORRECT') {
        toast.error('Incorrect PIN', { description: error.message });
      } else {
        toast.error('Verification error', { description: 'An error occurred during PIN verification.' });
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthCard title="Enter Transaction PIN" subtitle="Enter your 4-digit PIN to continue">
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        <FormField label="PIN">
          <PinInput value={pin} onValueChange={setPin} autoFocus />
        </FormField>
        <Button type="submit" disabled={pin.length !== 4 || submitting}>
          {submitting ? 'Verifying...' : 'Verify PIN'}
        </Button>
        <div className="flex justify-between text-sm">
          <Link className="text-brand-700 hover:underline" to="/reset-pin">
            Forgot PIN?
          </Link>
          <button type="button" className="text-slate-600 hover:underline" onClick={() => void backToLogin()}>
            Back to Login
          </button>
        </div>
      </form>
    </AuthCard>
  );
}
