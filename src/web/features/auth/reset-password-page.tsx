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
import { showServerFieldErrors } from '../../lib/forms.ts';
import { resetPassword } from './api.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { AuthCard } from './auth-card.tsx';
import { BackToLoginLink, ExpiredResetLink } from './expired-reset-link.tsx';
import { useResetLinkCheck } from './reset-link-check.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

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
  const { errors, isSubmitting: submitting } = form.formState;

  // Said once (decision 055): a problem with a password at its field, a refused reset in the banner above the fields; no toast.
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      await resetPassword(token, values.password);
      toast.success(t('auth.passwordResetSuccess'), { description: t('auth.logInWithNew') });
      void navigate('/login', { replace: true });
    } catch (error) {
      if (!showServerFieldErrors(form.setError, ['password'], error).fullyShownAtFields)
        setFailure(localizeMessage(errorMessage(error, t('auth.resetFailed'))));
    }
  });

  if (link.valid === undefined) return <FullPageLoader text={t('auth.checkingLink')} />;

  if (!link.valid) {
    return <ExpiredResetLink title={t('auth.resetPasswordTitle')} message={t('auth.passwordLinkInvalid')} requestPath="/forgot-password" />;
  }

  return (
    <AuthCard title={t('auth.resetPasswordTitle')} subtitle={t('auth.chooseNewPassword')} footer={<BackToLoginLink />}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        {failure && (
          <Alert variant="destructive">
            {failure}{' '}
            <Link className="underline" to="/forgot-password">
              {t('auth.requestNewLink')}
            </Link>
          </Alert>
        )}
        <FormField label={t('auth.newPassword')} error={errors.password?.message}>
          <Input type="password" autoComplete="new-password" maxLength={128} {...form.register('password')} />
        </FormField>
        <FormField label={t('auth.confirmNewPassword')} error={errors.confirmPassword?.message}>
          <Input type="password" autoComplete="new-password" maxLength={128} {...form.register('confirmPassword')} />
        </FormField>
        <Button type="submit" disabled={submitting}>
          {submitting ? t('auth.resetting') : t('auth.resetPasswordTitle')}
        </Button>
      </form>
    </AuthCard>
  );
}
