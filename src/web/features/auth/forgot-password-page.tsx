import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { forgotPasswordRequestSchema } from '#shared/contracts/auth';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { requestPasswordReset } from './api.ts';
import { AuthCard } from './auth-card.tsx';
import { BackToLoginLink } from './expired-reset-link.tsx';

export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [sentTo, setSentTo] = useState<string>();
  const form = useForm<z.input<typeof forgotPasswordRequestSchema>>({ resolver: zodResolver(forgotPasswordRequestSchema), defaultValues: { email: '' } });
  const submitting = form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        await requestPasswordReset(values.email);
        setSentTo(values.email);
        toast.success('Reset Email Sent', { description: 'Check your inbox for the reset link.' });
      } catch (error) {
        toast.error('Error', { description: errorMessage(error, 'Failed to send reset instructions. Please try again.') });
      }
    },
  );

  if (sentTo) {
    return (
      <AuthCard title="Check Your Email" subtitle="We have sent password reset instructions">
        <div className="flex flex-col gap-4 text-center">
          <p className="text-sm text-slate-600">
            If an account exists for <strong className="text-slate-900">{sentTo}</strong>, you will receive an email with a link to reset your password. The
            link is valid for 30 minutes.
          </p>
          <p className="text-xs text-slate-500">Don&apos;t see it? Check your spam folder.</p>
          <Button onClick={() => navigate('/login')}>Return to Login</Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot Password"
      subtitle="Enter your account's email address and we will send you a reset link"
      footer={<BackToLoginLink />}
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        <FormField label="Email" help="The email address of your account; a phone number cannot receive the link." error={form.formState.errors.email?.message}>
          <Input type="email" autoComplete="email" autoFocus maxLength={254} {...form.register('email')} />
        </FormField>
        <Button type="submit" disabled={submitting}>
          {submitting ? 'Sending...' : 'Send Reset Link'}
        </Button>
      </form>
    </AuthCard>
  );
}
