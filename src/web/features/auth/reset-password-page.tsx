import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { resetPasswordFormSchema } from '#shared/contracts/auth';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FullPageLoader } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { firstErrorMessage } from '../../lib/forms.ts';
import { resetPassword } from './api.ts';
import { AuthCard } from './auth-card.tsx';
import { BackToLoginLink, ExpiredResetLink } from './expired-reset-link.tsx';
import { useResetLinkCheck } from './reset-link-check.ts';

export default function ResetPasswordPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const link = useResetLinkCheck('password', token);
  const [failure, setFailure] = useState<string>();
  const form = useForm<z.input<typeof resetPasswordFormSchema>, unknown, z.output<typeof resetPasswordFormSchema>>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const submitting = form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(
    async (values) => {
      setFailure(undefined);
      try {
        await resetPassword(token, values.password);
        // Earlier attempts' error toasts would otherwise follow the customer to the login page.
        toast.dismiss();
        toast.success('Password Reset Successful', { description: 'Log in with your new password.' });
        void navigate('/login', { replace: true });
      } catch (error) {
        const message = errorMessage(error, 'Failed to reset password. Please try again.');
        setFailure(message);
        toast.error('Password Error', { description: message });
      }
    },
    (errors) => {
      const message = firstErrorMessage(errors) ?? 'Please enter both password fields';
      toast.error(message === 'Passwords do not match' ? 'Password Error' : 'Validation Error', { description: message });
    },
  );

  if (link.valid === undefined) return <FullPageLoader text="Checking your link" />;

  if (!link.valid) {
    return <ExpiredResetLink title="Reset Password" message="This password reset link is invalid or has expired. Please request a new one." requestPath="/forgot-password" />;
  }

  return (
    <AuthCard title="Reset Password" subtitle="Choose a new password for your account" footer={<BackToLoginLink />}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        {failure && (
          <Alert variant="destructive">
            {failure}{' '}
            <Link className="underline" to="/forgot-password">
              Request a new link
            </Link>
          </Alert>
        )}
        <FormField label="New Password">
          <Input type="password" autoComplete="new-password" maxLength={128} {...form.register('password')} />
        </FormField>
        <FormField label="Confirm New Password">
          <Input type="password" autoComplete="new-password" maxLength={128} {...form.register('confirmPassword')} />
        </FormField>
        <Button type="submit" disabled={submitting}>
          {submitting ? 'Resetting...' : 'Reset Password'}
        </Button>
      </form>
    </AuthCard>
  );
}
