import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { PROFILE_UPDATED_MESSAGE, updateProfileRequestSchema, updateProfileResponseSchema, type Me } from '#shared/contracts/auth';
import { EXAMPLE_PHONE, LIMITS } from '#shared/limits';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { apiRequest, errorMessage } from '../../lib/api.ts';
import { showServerFieldErrors } from '../../lib/forms.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

type Values = z.input<typeof updateProfileRequestSchema>;
const FIELDS = ['fullName', 'phone'] as const;

function Detail({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="break-all font-medium text-slate-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The account's name, e-mail and phone; name and phone can be edited (a phone change is e-mailed to the owner). */
export function AccountDetailsCard({ user }: { user: Pick<Me, 'name' | 'email' | 'phone'> }) {
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();
  const form = useForm<Values, unknown, z.output<typeof updateProfileRequestSchema>>({
    resolver: zodResolver(updateProfileRequestSchema),
    defaultValues: { fullName: user.name, phone: user.phone },
  });
  const { errors, isSubmitting } = form.formState;

  const startEditing = () => {
    form.reset({ fullName: user.name, phone: user.phone });
    setError(undefined);
    setEditing(true);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setError(undefined);
    try {
      const answer = await apiRequest('/api/me', updateProfileResponseSchema, { method: 'PATCH', body: values });
      queryClient.setQueryData(QUERY_KEYS.me, answer.user);
      toast.success(localizeMessage(answer.message || PROFILE_UPDATED_MESSAGE));
      setEditing(false);
    } catch (failure) {
      if (endOfSession(failure)) return;
      if (!showServerFieldErrors(form.setError, FIELDS, failure).fullyShownAtFields) setError(errorMessage(failure, t('profile.updateFailed')));
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.accountDetails')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {editing ? (
          <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
            {error && <Alert variant="destructive">{localizeMessage(error)}</Alert>}
            <FormField label={t('profile.fullName')} error={errors.fullName?.message}>
              <Input autoComplete="name" maxLength={LIMITS.nameLength} {...form.register('fullName')} />
            </FormField>
            <FormField label={t('profile.phoneNumber')} error={errors.phone?.message} help={t('profile.phoneHelp', { example: EXAMPLE_PHONE })}>
              <Input type="tel" autoComplete="tel" maxLength={40} {...form.register('phone')} />
            </FormField>
            <div className="flex gap-2">
              <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting}>
                {isSubmitting ? t('profile.saving') : t('profile.save')}
              </Button>
              <Button variant="outline" disabled={isSubmitting} onClick={() => setEditing(false)}>
                {t('profile.cancel')}
              </Button>
            </div>
          </form>
        ) : (
          <>
            <dl className="flex flex-col gap-3">
              <Detail label={t('profile.fullName')} value={user.name} testId="profile-name" />
              <Detail label={t('profile.email')} value={user.email} testId="profile-email" />
              <Detail label={t('profile.phoneNumber')} value={user.phone} testId="profile-phone" />
            </dl>
            <Button variant="outline" className="self-start" onClick={startEditing}>
              {t('profile.editDetails')}
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
