import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { closeAccountRequestSchema, closeAccountResponseSchema, type CloseAccountRequest } from '#shared/contracts/account-closing';
import { LIMITS } from '#shared/limits';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { apiRequest, errorMessage } from '../../lib/api.ts';
import { showServerFieldErrors } from '../../lib/forms.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';
import { useEndOfSessionHandler, useLeaveEndedSession } from '../auth/index.ts';

const FIELDS = ['currentPassword'] as const;

/** The current password, then the close; a refusal of the close itself (money left, something in progress) in one banner. */
function CloseAccountForm({ onCancel }: { onCancel: () => void }) {
  const endOfSession = useEndOfSessionHandler();
  const leave = useLeaveEndedSession();
  const [error, setError] = useState<string>();
  const form = useForm<CloseAccountRequest>({ resolver: zodResolver(closeAccountRequestSchema), defaultValues: { currentPassword: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setError(undefined);
    try {
      await apiRequest('/api/auth/close-account', closeAccountResponseSchema, { method: 'POST', body: values });
      leave('account-closed');
    } catch (failure) {
      if (endOfSession(failure)) return;
      if (!showServerFieldErrors(form.setError, FIELDS, failure).fullyShownAtFields) setError(errorMessage(failure, t('profile.closeAccountFailed')));
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
      {error && <Alert variant="destructive">{localizeMessage(error)}</Alert>}
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>{t('profile.closeAccountBalanceRule')}</li>
        <li>{t('profile.closeAccountSignInRule')}</li>
        <li>{t('profile.closeAccountRecordsRule')}</li>
      </ul>
      <FormField label={t('profile.currentPassword')} error={errors.currentPassword?.message}>
        <PasswordInput autoComplete="current-password" maxLength={LIMITS.passwordMaxLength} {...form.register('currentPassword')} />
      </FormField>
      <div className="grid grid-cols-2 gap-3">
        <Button type="button" variant="outline" onClick={onCancel}>
          {t('profile.cancel')}
        </Button>
        <Button type="submit" variant="destructive" disabled={isSubmitting} aria-busy={isSubmitting}>
          {isSubmitting ? t('profile.closingAccount') : t('profile.closeAccount')}
        </Button>
      </div>
    </form>
  );
}

/** Closing the account, at the foot of the profile (decision 060): a customer can leave as easily as they joined. */
export function CloseAccountCard() {
  const [open, setOpen] = useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.closeAccount')}</CardTitle>
        <CardDescription>{t('profile.closeAccountIntro')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button type="button" variant="outline" className="border-red-200 text-red-700" onClick={() => setOpen(true)}>
          {t('profile.closeAccount')}
        </Button>
      </CardContent>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title={t('profile.closeAccountTitle')} description={t('profile.closeAccountDescription')}>
          <CloseAccountForm onCancel={() => setOpen(false)} />
        </DialogContent>
      </Dialog>
    </Card>
  );
}
