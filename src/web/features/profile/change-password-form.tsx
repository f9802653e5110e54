import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { changePasswordFormSchema, changePasswordResponseSchema, PASSWORD_CHANGED_MESSAGE } from '#shared/contracts/auth';
import { LIMITS } from '#shared/limits';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { apiRequest, errorMessage } from '../../lib/api.ts';
import { showServerFieldErrors } from '../../lib/forms.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

type Values = z.input<typeof changePasswordFormSchema>;
const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/** Change Password on the profile page: the current password, then the new one twice. Errors show at their fields. */
export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const endOfSession = useEndOfSessionHandler();
  const [error, setError] = useState<string>();
  const form = useForm<Values>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setError(undefined);
    try {
      const answer = await apiRequest('/api/auth/change-password', changePasswordResponseSchema, {
        method: 'POST',
        body: { currentPassword: values.currentPassword, newPassword: values.newPassword },
      });
      toast.success(localizeMessage(answer.message || PASSWORD_CHANGED_MESSAGE));
      onDone();
    } catch (failure) {
      if (endOfSession(failure)) return;
      // A refusal that names a field is said there, once; anything else in one banner.
      if (!showServerFieldErrors(form.setError, FIELDS, failure).fullyShownAtFields) setError(errorMessage(failure, t('profile.changePasswordFailed')));
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
      {error && <Alert variant="destructive">{localizeMessage(error)}</Alert>}
      <FormField label={t('profile.currentPassword')} error={errors.currentPassword?.message}>
        <PasswordInput autoComplete="current-password" maxLength={LIMITS.passwordMaxLength} {...form.register('currentPassword')} />
      </FormField>
      <FormField label={t('profile.newPassword')} error={errors.newPassword?.message} help={t('profile.passwordLength', { count: LIMITS.passwordMinLength })}>
        <PasswordInput autoComplete="new-password" maxLength={LIMITS.passwordMaxLength} {...form.register('newPassword')} />
      </FormField>
      <FormField label={t('profile.confirmNewPassword')} error={errors.confirmPassword?.message}>
        <PasswordInput autoComplete="new-password" maxLength={LIMITS.passwordMaxLength} {...form.register('confirmPassword')} />
      </FormField>
      <p className="text-xs text-slate-500">{t('profile.passwordChangeNote')}</p>
      <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting ? t('profile.saving') : t('profile.changePassword')}
      </Button>
    </form>
  );
}
