import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { loginRequestSchema, type LoginRequest } from '../../../shared/contracts/auth.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { safeNextPath } from '../../lib/utils.ts';
import { login, ME_QUERY_KEY } from './api.ts';
import { AuthCard } from './auth-card.tsx';

export default function LoginPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const next = safeNextPath(searchParams.get('next'));
  const form = useForm<LoginRequest>({ resolver: zodResolver(loginRequestSchema), defaultValues: { email: '', password: '' } });
  const formError = form.formState.errors.email?.message ?? form.formState.errors.password?.message;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { user } = await login(values);
      queryClient.clear();
      queryClient.setQueryData(ME_QUERY_KEY, user);
      toast.success('Login successful', { description: 'Welcome back!', duration: 3000 });
      void navigate(next, { replace: true });
    } catch (error) {
      toast.error('Login failed', { description: errorMessage(error, 'Invalid credentials. Please try again.'), duration: 5000 });
    }
  });

  return (
    <AuthCard
      title="Welcome Back"
      subtitle="Sign in to your account to continue"
      footer={
        <>
          Don&apos;t have an account?{' '}
          <Link className="font-medium text-brand-700 hover:underline" to="/signup">
            Sign Up
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {formError && <Alert variant="destructive">{formError}</Alert>}
        <FormField label="Email">
          <Input type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
        </FormField>
        <FormField label="Password">
          <Input type="password" autoComplete="current-password" {...form.register('password')} />
        </FormField>
        <div className="text-right">
          <Link className="text-sm text-brand-700 hover:underline" to="/forgot-password">
            Forgot Password?
          </Link>
        </div>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
    </AuthCard>
  );
}
