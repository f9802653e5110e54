import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { resetPinFormSchema } from '../../../shared/contracts/pin.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FormPinInput } from '../../components/ui/pin-input.tsx';
import { FullPageLoader } from '../../components/ui/spinner.tsx';
import { ApiError, errorMessage, errorReference } from '../../lib/api.ts';
import { firstErrorMessage } from '../../lib/forms.ts';
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
  const [error, setError] = useState<string>();
  const form = useForm<z.input<typeof resetPinFormSchema>>({ resolver: zodResolver(resetPinFormSchema), defaultValues: { password: '', pin: '', confirmPin: '' } });
  const submitting = form.formState.isSubmitting;
  const [pin, confirmPin] = useWatch({ control: form.control, name: ['pin', 'confirmPin'] });

  if (connection.isPending) return <FullPageLoader text="Checking Connection" />;
  if (connection.isError) return <ConnectionErrorCard onRetry={() => void connection.refetch()} reference={errorReference(connection.error)} />;

  const onSubmit = form.handleSubmit(
    async (values) => {
      setError(undefined);
      try {
        await resetPin(values.password, values.pin);
        await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
        toast.success('PIN reset successful', { description: 'Your PIN has been updated.' });
        void navigate('/dashboard', { replace: true });
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 401) {
          toast.error('User not found', { description: 'Please log in again.' });
          leaveEndedSession();
          return;
        }
        const message = errorMessage(failure, 'Please try again.');
        setError(message);
        toast.error('Failed to reset PIN', { description: message });
      }
    },
    (errors) => setError(firstErrorMessage(errors)),
  );

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
          <Input type="password" autoComplete="current-password" maxLength={128} {...form.register('password')} />
        </FormField>
        <FormField label="New PIN">
          <FormPinInput control={form.control} name="pin" />
        </FormField>
        <FormField label="Confirm New PIN">
          <FormPinInput control={form.control} name="confirmPin" />
        </FormField>
        <Button type="submit" disabled={submitting || pin.length !== 4 || confirmPin.length !== 4}>
          {submitting ? 'Resetting...' : 'Reset PIN'}
        </Button>
      </form>
    </AuthCard>
  );
}
