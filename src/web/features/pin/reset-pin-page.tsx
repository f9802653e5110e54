import { useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { INVALID_PIN_RESET_LINK_MESSAGE, pinResetLinkFormSchema, resetPinFormSchema } from '#shared/contracts/pin';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FormPinInput } from '../../components/ui/pin-input.tsx';
import { FullPageLoader } from '../../components/ui/spinner.tsx';
import { ApiError, errorMessage, errorReference } from '../../lib/api.ts';
import { showServerFieldErrors } from '../../lib/forms.ts';
import { ME_QUERY_KEY } from '../auth/api.ts';
import { AuthCard } from '../auth/auth-card.tsx';
import { BackToLoginLink, ExpiredResetLink } from '../auth/expired-reset-link.tsx';
import { useResetLinkCheck } from '../auth/reset-link-check.ts';
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
  if (connection.isError) return <ConnectionErrorCard onRetry={() => void connection.refetch()} reference={errorReference(connection.error)} />;
  if (token !== null) return <ChooseNewPin token={token} />;
  return (
    <RequireSession>
      <RequestResetLink />
    </RequireSession>
  );
}

function RequestResetLink() {
  const leaveEndedSession = useLeaveEndedSession();
  const [failure, setFailure] = useState<string>();
  const [sentMessage, setSentMessage] = useState<string>();
  const form = useForm<z.input<typeof pinResetLinkFormSchema>>({ resolver: zodResolver(pinResetLinkFormSchema), defaultValues: { password: '' } });
  const submitting = form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const answer = await requestPinResetLink(values.password);
      setSentMessage(answer.message);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        toast.error('User not found', { description: 'Please log in again.' });
        leaveEndedSession();
        return;
      }
      // A wrong password is said at its field; anything else once, above the button.
      if (!showServerFieldErrors(form.setError, ['password'], error).fullyShownAtFields) setFailure(errorMessage(error, 'Please try again.'));
    }
  });

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
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        <FormField label="Account Password" error={form.formState.errors.password?.message}>
          <Input type="password" autoComplete="current-password" autoFocus maxLength={128} {...form.register('password')} />
        </FormField>
        {failure && <Alert variant="destructive">{failure}</Alert>}
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
  const link = useResetLinkCheck('pin', token);
  const [failure, setFailure] = useState<string>();
  const form = useForm<z.input<typeof resetPinFormSchema>>({ resolver: zodResolver(resetPinFormSchema), defaultValues: { pin: '', confirmPin: '' } });
  const submitting = form.formState.isSubmitting;
  const [pin, confirmPin] = useWatch({ control: form.control, name: ['pin', 'confirmPin'] });

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const answer = await resetPin(token, values.pin);
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      toast.success('PIN reset successful', { description: 'Your PIN has been updated.' });
      void navigate(answer.signedIn ? '/dashboard' : '/login', { replace: true });
    } catch (error) {
      if (!showServerFieldErrors(form.setError, ['pin'], error).fullyShownAtFields) setFailure(errorMessage(error, 'Please try again.'));
    }
  });

  if (link.valid === undefined) return <FullPageLoader text="Checking your link" />;
  if (!link.valid) return <ExpiredResetLink title="Reset Your PIN" message={INVALID_PIN_RESET_LINK_MESSAGE} requestPath="/reset-pin" />;

  return (
    <AuthCard title="Reset Your PIN" subtitle="Choose a new 4-digit transaction PIN" footer={<BackToLoginLink />}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        <FormField label="New PIN" error={form.formState.errors.pin?.message}>
          <FormPinInput control={form.control} name="pin" autoFocus />
        </FormField>
        <FormField label="Confirm New PIN" error={form.formState.errors.confirmPin?.message}>
          <FormPinInput control={form.control} name="confirmPin" />
        </FormField>
        <p className="text-xs text-slate-500">For your safety, withdrawals and transfers pause for a while after a PIN reset, and your other sessions end.</p>
        {failure && <Alert variant="destructive">{failure}</Alert>}
        <Button type="submit" disabled={submitting || pin.length !== 4 || confirmPin.length !== 4}>
          {submitting ? 'Resetting...' : 'Reset PIN'}
        </Button>
      </form>
    </AuthCard>
  );
}
