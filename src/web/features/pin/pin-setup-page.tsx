import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { setupPinFormSchema } from '#shared/contracts/pin';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { FormPinInput } from '../../components/ui/pin-input.tsx';
import { ApiError } from '../../lib/api.ts';
import { applySubmissionFailure, useActionError } from '../../lib/form-errors.ts';
import { safeNextPath } from '../../lib/utils.ts';
import { ME_QUERY_KEY } from '../../lib/session.ts';
import { AuthCard, useLeaveEndedSession } from '../auth/index.ts';
import { setUpPin } from './api.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';

const FIELDS = ['pin', 'confirmPin'] as const;

/** The first PIN of an account. Each problem is said once: a PIN's at its field, a failure of the set-up in one banner above the button. */
export default function PinSetupPage() {
  const navigate = useNavigate();
  const leaveEndedSession = useLeaveEndedSession();
  const queryClient = useQueryClient();
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const form = useForm<z.input<typeof setupPinFormSchema>>({ resolver: zodResolver(setupPinFormSchema), defaultValues: { pin: '', confirmPin: '' } });
  const [actionError, setActionError] = useActionError(form);
  const { errors, isSubmitting: submitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setActionError(undefined);
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
      setActionError(applySubmissionFailure(form, failure, FIELDS, t('pin.pleaseTryAgain')).actionError);
    }
  });

  return (
    <AuthCard title={t('pin.setupTitle')} subtitle={t('pin.setupSubtitle')}>
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        <Alert variant="info">{t('pin.setupInfo')}</Alert>
        <FormField label={t('pin.new')} error={errors.pin?.message}>
          <FormPinInput control={form.control} name="pin" autoFocus />
        </FormField>
        <FormField label={t('pin.confirm')} error={errors.confirmPin?.message}>
          <FormPinInput control={form.control} name="confirmPin" />
        </FormField>
        <ActionError heading={t('pin.setUpFailed')} message={actionError} />
        <Button type="submit" disabled={submitting}>
          {submitting ? t('pin.saving') : t('pin.set')}
        </Button>
      </form>
    </AuthCard>
  );
}
