import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { setupPinFormSchema } from '#shared/contracts/pin';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { FormPinInput } from '../../components/ui/pin-input.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { firstErrorMessage } from '../../lib/forms.ts';
import { safeNextPath } from '../../lib/utils.ts';
import { ME_QUERY_KEY } from '../auth/api.ts';
import { AuthCard } from '../auth/auth-card.tsx';
import { useLeaveEndedSession } from '../auth/use-end-of-session.ts';
import { setUpPin } from './api.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

export default function PinSetupPage() {
  const navigate = useNavigate();
  const leaveEndedSession = useLeaveEndedSession();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const [error, setError] = useState<string>();
  const form = useForm<z.input<typeof setupPinFormSchema>>({ resolver: zodResolver(setupPinFormSchema), defaultValues: { pin: '', confirmPin: '' } });
  const submitting = form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(
    async (values) => {
      setError(undefined);
      try {
        await setUpPin(values.pin);
        await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
        toast.success(t('pin.setSuccess'));
        void navigate(next, { replace: true });
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 401) {
          leaveEndedSession('session-needed');
          return;
        }
        toast.error(t('pin.setUpFailed'), { description: localizeMessage(errorMessage(failure, t('pin.pleaseTryAgain'))) });
      }
    },
    (errors) => setError(firstErrorMessage(errors)),
  );

  return (
    <AuthCard title={t('pin.setupTitle')} subtitle={t('pin.setupSubtitle')}>
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        <Alert variant="info">{t('pin.setupInfo')}</Alert>
        {error && <Alert variant="destructive">{localizeMessage(error)}</Alert>}
        <FormField label={t('pin.new')}>
          <FormPinInput control={form.control} name="pin" autoFocus />
        </FormField>
        <FormField label={t('pin.confirm')}>
          <FormPinInput control={form.control} name="confirmPin" />
        </FormField>
        <Button type="submit" disabled={submitting}>
          {submitting ? t('pin.saving') : t('pin.set')}
        </Button>
      </form>
    </AuthCard>
  );
}
