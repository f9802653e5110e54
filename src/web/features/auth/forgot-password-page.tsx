import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { forgotPasswordRequestSchema } from '../../../shared/contracts/auth.ts';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { requestPasswordReset } from './api.ts';
import { AuthCard } from './auth-card.tsx';

export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string>();
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = forgotPasswordRequestSchema.safeParse({ email });
    if (!parsed.success) {
      toast.error('Validation Error', { description: parsed.error.issues[0]?.message });
      return;
    }
    setSubmitting(true);
    try {
      await requestPasswordReset(parsed.data.email);
      setSentTo(parsed.data.email);
      toast.success('Reset Email Sent', { description: 'Check your inbox for the reset link.' });
    } catch (error) {
      toast.error('Error', { description: errorMessage(error, 'Failed to send reset instructions. Please try again.') });
    } finally {
      setSubmitting(false);
    }
  };

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
      subtitle="Enter your email and we will send you a reset link"
      footer={
        <Link className="font-medium text-brand-700 hover:underline" to="/login">
          Back to Login
        </Link>
      }
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        <FormField label="Email">
          <Input type="email" autoComplete="email" maxLength={254} value={email} onChange={(event) => setEmail(event.target.value)} />
        </FormField>
        <Button type="submit" disabled={submitting}>
          {submitting ? 'Sending...' : 'Send Reset Link'}
        </Button>
      </form>
    </AuthCard>
  );
}
