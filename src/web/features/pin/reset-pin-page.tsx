import { useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { pinResetLinkFormSchema, resetPinFormSchema } from '#shared/contracts/pin';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { FormPinInput } from '../../components/ui/pin-input.tsx';
import { FullPageLoader } from '../../components/ui/spinner.tsx';
import { ApiError, errorMessage, errorReference } from '../../lib/api.ts';
import { showServerFieldErrors } from '../../lib/forms.ts';
import { ME_QUERY_KEY } from '../../lib/session.ts';
import { AuthCard, BackToLoginLink, ExpiredResetLink, useResetLinkCheck, useLeaveEndedSession } from '../auth/index.ts';
import { ConnectionErrorCard, RequireSession } from '../shell/index.ts';
import { requestPinResetLink, resetPin } from './api.ts';
import { useConnectionCheck } from './use-connection-check.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

/**
 * A forgotten PIN is replaced in two steps: the signed-in customer confirms the
 * account password and we e-mail a single-use link; the link opens this page
 * again with its token, where the new PIN is chosen. The password alone never
 * replaces the PIN.
 */
export default function ResetPinPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const connection = useConnectionCheck();
  if (connection.isPending) return <FullPageLoader text={t('pin.checkingConnection')} />;
  if (connection.isError) return <ConnectionErrorCard onRetry={() => void connection.refetch()} reference={errorReference(connection.error)} />;
  if (token !== null) return <ChooseNewPin token={token} />;
  return (
    <RequireSession>
      <RequestResetLink />
    </RequireSession>
  );
}

function RequestResetLink() {
  const leaveEndedSession = useLeaveEndedSession();
  const [failure, setFailure] = useState<string>();
  const [sentMessage, setSentMessage] = useState<string>();
  const form = useForm<z.input<typeof pinResetLinkFormSchema>>({ resolver: zodResolver(pinResetLinkFormSchema), defaultValues: { password: '' } });
  const submitting = form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const answer = await requestPinResetLink(values.password);
      setSentMessage(answer.message);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        leaveEndedSession('user-not-found');
        return;
      }
      // A wrong password is said at its field; anything else once, above the button.
      if (!showServerFieldErrors(form.setError, ['password'], error).fullyShownAtFields) setFailure(errorMessage(error, t('pin.pleaseTryAgain')));
    }
  });

  const footer = (
    <Link className="font-medium text-brand-700 hover:underline" to="/verify-pin">
      {t('pin.backToVerification')}
    </Link>
  );

  if (sentMessage) {
    return (
      <AuthCard title={t('pin.checkEmail')} footer={footer}>
        <div className="flex flex-col gap-3 text-sm text-slate-700">
          <Alert variant="info">{localizeMessage(sentMessage)}</Alert>
          <p>{t('pin.openLink')}</p>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('pin.resetTitle')} subtitle={t('pin.resetSubtitle')} footer={footer}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        <FormField label={t('pin.accountPassword')} error={form.formState.errors.password?.message}>
          <Input type="password" autoComplete="current-password" autoFocus maxLength={128} {...form.register('password')} />
        </FormField>
        {failure && <Alert variant="destructive">{localizeMessage(failure)}</Alert>}
        <Button type="submit" disabled={submitting}>
          {submitting ? t('pin.sending') : t('pin.sendResetLink')}
        </Button>
      </form>
    </AuthCard>
  );
}

function ChooseNewPin({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const link = useResetLinkCheck('pin', token);
  const [failure, setFailure] = useState<string>();
  const form = useForm<z.input<typeof resetPinFormSchema>>({ resolver: zodResolver(resetPinFormSchema), defaultValues: { pin: '', confirmPin: '' } });
  const submitting = form.formState.isSubmitting;
  const [pin, confirmPin] = useWatch({ control: form.control, name: ['pin', 'confirmPin'] });

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      const answer = await resetPin(token, values.pin);
      await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      toast.success(t('pin.resetSuccess'), { description: t('pin.resetSuccessDescription') });
      void navigate(answer.signedIn ? '/dashboard' : '/login', { replace: true });
    } catch (error) {
      if (!showServerFieldErrors(form.setError, ['pin'], error).fullyShownAtFields) setFailure(errorMessage(error, t('pin.pleaseTryAgain')));
    }
  });

  if (link.valid === undefined) return <FullPageLoader text={t('pin.checkingLink')} />;
  if (!link.valid) return <ExpiredResetLink title={t('pin.resetTitle')} message={t('pin.invalidLink')} requestPath="/reset-pin" />;

  return (
    <AuthCard title={t('pin.resetTitle')} subtitle={t('pin.chooseNew')} footer={<BackToLoginLink />}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        <FormField label={t('pin.new')} error={form.formState.errors.pin?.message}>
          <FormPinInput control={form.control} name="pin" autoFocus />
        </FormField>
        <FormField label={t('pin.confirmNew')} error={form.formState.errors.confirmPin?.message}>
          <FormPinInput control={form.control} name="confirmPin" />
        </FormField>
        <p className="text-xs text-slate-500">{t('pin.resetPause')}</p>
        {failure && <Alert variant="destructive">{localizeMessage(failure)}</Alert>}
        <Button type="submit" disabled={submitting || pin.length !== 4 || confirmPin.length !== 4}>
          {submitting ? t('pin.resetting') : t('pin.reset')}
        </Button>
      </form>
    </AuthCard>
  );
}
