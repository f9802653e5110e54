import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { forgotPasswordRequestSchema } from '#shared/contracts/auth';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useActionError } from '../../lib/form-errors.ts';
import { requestPasswordReset } from './api.ts';
import { AuthCard } from './auth-card.tsx';
import { BackToLoginLink } from './expired-reset-link.tsx';
import { translate as t } from '../../lib/i18n/i18n.ts';

/** The sentence with the address in bold, wherever the language puts it. */
function EmailSentText({ email }: { email: string }) {
  const [before, after] = t('auth.ifAccountExists', { email: '\u0000' }).split('\u0000');
  return (
    <>
      {before}
      <strong className="text-slate-900">{email}</strong>
      {after}
    </>
  );
}

export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [sentTo, setSentTo] = useState<string>();
  const form = useForm<z.input<typeof forgotPasswordRequestSchema>>({ resolver: zodResolver(forgotPasswordRequestSchema), defaultValues: { email: '' } });
  const submitting = form.formState.isSubmitting;
  const [failure, setFailure] = useActionError(form);

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      await requestPasswordReset(values.email);
      setSentTo(values.email);
      toast.success(t('auth.resetEmailSent'), { description: t('auth.checkInbox') });
    } catch (error) {
      // Said once, above the button (decision 055), not as a toast.
      setFailure(errorMessage(error, t('auth.resetSendFailed')));
    }
  });

  if (sentTo) {
    return (
      <AuthCard title={t('auth.checkYourEmail')} subtitle={t('auth.resetSentSubtitle')}>
        <div className="flex flex-col gap-4 text-center">
          <p className="text-sm text-slate-600">
            <EmailSentText email={sentTo} />
          </p>
          <p className="text-xs text-slate-500">{t('auth.checkSpam')}</p>
          <Button onClick={() => navigate('/login')}>{t('auth.returnToLogin')}</Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.forgotTitle')} subtitle={t('auth.forgotSubtitle')} footer={<BackToLoginLink />}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        <FormField label={t('auth.email')} help={t('auth.forgotEmailHelp')} error={form.formState.errors.email?.message}>
          <Input type="email" autoComplete="email" autoFocus maxLength={254} {...form.register('email')} />
        </FormField>
        <ActionError message={failure} />
        <Button type="submit" disabled={submitting}>
          {submitting ? t('auth.sending') : t('auth.sendResetLink')}
        </Button>
      </form>
    </AuthCard>
  );
}
