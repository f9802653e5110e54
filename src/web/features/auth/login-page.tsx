import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { loginRequestSchema, type LoginRequest } from '#shared/contracts/auth';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { ApiError } from '../../lib/api.ts';
import { useActionError } from '../../lib/form-errors.ts';
import { safeNextPath } from '../../lib/utils.ts';
import { login } from './api.ts';
import { ME_QUERY_KEY } from '../../lib/session.ts';
import { AuthCard } from './auth-card.tsx';
import { SignedOutNotice } from './signed-out-notice.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { useHandOverPrerenderedForm } from '../../lib/prerendered-form-hand-over.ts';

export default function LoginPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const queryClient = useQueryClient();
  const next = safeNextPath(searchParams.get('next'));
  const form = useForm<LoginRequest>({ resolver: zodResolver(loginRequestSchema), defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;
  const [loginError, setLoginError] = useActionError(form);
  useHandOverPrerenderedForm();

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { user } = await login(values);
      queryClient.clear();
      queryClient.setQueryData(ME_QUERY_KEY, user);
      toast.success(t('auth.loginSuccessful'), { description: t('auth.welcomeBackToast'), duration: 3000 });
      void navigate(next, { replace: true });
    } catch (error) {
      // Said once, on the form; the password is cleared for the next try (after which the message is set, so the clearing does not hide it).
      form.setValue('password', '');
      form.setFocus('password');
      setLoginError(loginFailureMessage(error));
    }
  });

  return (
    <AuthCard
      title={t('auth.welcomeBack')}
      subtitle={t('auth.signInSubtitle')}
      footer={
        <>
          {t('auth.noAccount')}{' '}
          <Link className="font-medium text-brand-700 hover:underline" to="/signup">
            {t('home.signUp')}
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <SignedOutNotice />
        <FormField label={t('auth.email')} error={errors.email?.message}>
          <Input type="email" autoComplete="email" autoFocus placeholder="you@example.com" {...form.register('email')} />
        </FormField>
        <FormField label={t('auth.password')} error={errors.password?.message}>
          <PasswordInput autoComplete="current-password" {...form.register('password')} />
        </FormField>
        <div className="text-right">
          <Link className="inline-block py-1 text-sm text-brand-700 hover:underline" to="/forgot-password">
            {t('auth.forgotPassword')}
          </Link>
        </div>
        <ActionError message={loginError} />
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? t('auth.signingIn') : t('auth.signIn')}
        </Button>
      </form>
    </AuthCard>
  );
}

/** SPEC.md's words for wrong credentials; anything else (too many attempts, no connection) in the server's own words. */
function loginFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status !== 401 && error.message) return error.message;
  return t('auth.loginFailed');
}
