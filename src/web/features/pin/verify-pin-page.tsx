import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { verifyPinRequestSchema } from '#shared/contracts/pin';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { FormPinInput } from '../../components/ui/pin-input.tsx';
import { FullPageLoader } from '../../components/ui/spinner.tsx';
import { ApiError, errorReference } from '../../lib/api.ts';
import { firstErrorMessage } from '../../lib/forms.ts';
import { safeNextPath } from '../../lib/utils.ts';
import { ME_QUERY_KEY } from '../../lib/session.ts';
import { useSignOut, AuthCard, useEndOfSessionHandler } from '../auth/index.ts';
import { ConnectionErrorCard } from '../shell/index.ts';
import { verifyPin } from './api.ts';
import { useConnectionCheck } from './use-connection-check.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

export default function VerifyPinPage() {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const connection = useConnectionCheck();
  const form = useForm<VerifyPinForm>({ resolver: zodResolver(verifyPinRequestSchema), defaultValues: { pin: '' } });
  const submitting = form.formState.isSubmitting;
  const pin = useWatch({ control: form.control, name: 'pin' });
  const { onSubmit, blockedMessage, failure } = usePinVerification(form, next);
  const shownFailure = pin === '' ? failure : undefined;

  const backToLogin = async () => {
    await signOut().catch(() => undefined);
    void navigate('/login', { replace: true });
  };

  if (connection.isPending) return <FullPageLoader text={t('pin.checkingConnection')} />;
  if (connection.isError)
    return (
      <ConnectionErrorCard onRetry={() => void connection.refetch()} onBackToLogin={() => void backToLogin()} reference={errorReference(connection.error)} />
    );

  return (
    <AuthCard title={t('pin.enterTitle')} subtitle={t('pin.enterSubtitle')}>
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        {blockedMessage && <Alert variant="destructive">{blockedMessage}</Alert>}
        {shownFailure && !shownFailure.atField && <Alert variant="destructive">{shownFailure.message}</Alert>}
        <FormField label={t('pin.label')} error={shownFailure?.atField ? shownFailure.message : undefined}>
          <FormPinInput control={form.control} name="pin" autoFocus />
        </FormField>
        <Button type="submit" disabled={pin.length !== 4 || submitting}>
          {submitting ? t('pin.verifying') : t('pin.verify')}
        </Button>
        <div className="flex justify-between text-sm">
          <Link className="inline-block py-1 text-brand-700 hover:underline" to="/reset-pin">
            {t('pin.forgot')}
          </Link>
          <button type="button" className="py-1 text-slate-600 hover:underline" onClick={() => void backToLogin()}>
            {t('pin.backToLogin')}
          </button>
        </div>
      </form>
    </AuthCard>
  );
}

type VerifyPinForm = z.input<typeof verifyPinRequestSchema>;

/** Checks the PIN and goes on to the page asked for; a refusal empties the PIN and is said once (at the field or in a banner). */
function usePinVerification(form: UseFormReturn<VerifyPinForm>, next: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const [blockedMessage, setBlockedMessage] = useState<string>();
  // A wrong PIN is said at the PIN field, once (DESIGN.md: errors at their field; decision 055 departs from SPEC.md's toast);
  // a failure of the check itself once, in a banner. A failure empties the PIN; typing a new one hides either.
  const [failure, setFailure] = useState<{ atField: boolean; message: string }>();

  const onSubmit = form.handleSubmit(
    async (values) => {
      try {
        await verifyPin(values.pin);
        await queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
        toast.success(t('pin.verified'), { description: t('auth.welcomeBackToast') });
        void navigate(next, { replace: true });
      } catch (error) {
        form.setValue('pin', '');
        if (endOfSession(error)) return;
        if (error instanceof ApiError && error.code === 'PIN_NOT_SET') {
          toast.info(t('pin.setupRequired'));
          void navigate(`/pin-setup?next=${encodeURIComponent(next)}`, { replace: true });
        } else if (error instanceof ApiError && error.code === 'PIN_INCORRECT') {
          setFailure({ atField: true, message: `${t('pin.incorrect')}: ${localizeMessage(error.message)}` });
        } else if (error instanceof ApiError && error.code === 'PIN_BLOCKED') {
          // The block lasts hours: it stays on the page, with its end, not only in a toast.
          setBlockedMessage(localizeMessage(error.message));
        } else {
          setFailure({ atField: false, message: `${t('pin.verificationError')}: ${t('pin.verificationErrorDescription')}` });
        }
      }
    },
    (errors) => {
      form.setValue('pin', '');
      setFailure({ atField: true, message: `${t('pin.invalid')}: ${localizeMessage(firstErrorMessage(errors) ?? '')}` });
    },
  );

  return { onSubmit, blockedMessage, failure };
}
