import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { type ContactStatus } from '#shared/contracts/contact-verification';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PasswordInput } from '../../components/ui/password-input.tsx';
import { ApiError } from '../../lib/api.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { changeEmail, CONTACT_STATUS_QUERY_KEY, fetchContactStatus, resendEmailLink, sendPhoneCode, verifyPhoneCode } from './api.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { localizeMessage } from '../../lib/i18n/localize-message.ts';

function VerifiedBadge({ verified }: { verified: boolean }) {
  return <Badge tone={verified ? 'success' : 'warning'}>{verified ? t('contact.verified') : t('contact.notVerified')}</Badge>;
}

/**
 * Runs one request of the card: a success toast and a refresh, or the failure said once (429s say how long to
 * wait): at a field when `onError` takes it, otherwise as the section's one `error`, until the next request.
 */
function useCardAction() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  return {
    busy,
    error,
    async run(request: () => Promise<{ message: string }>, onError?: (error: ApiError) => boolean): Promise<boolean> {
      setBusy(true);
      setError(undefined);
      try {
        const answer = await request();
        toast.success(localizeMessage(answer.message));
        await Promise.all([queryClient.invalidateQueries({ queryKey: CONTACT_STATUS_QUERY_KEY }), queryClient.invalidateQueries({ queryKey: QUERY_KEYS.me })]);
        return true;
      } catch (failure) {
        if (failure instanceof ApiError && onError?.(failure)) return false;
        setError(failure instanceof ApiError ? failure.message : t('contact.somethingWrong'));
        return false;
      } finally {
        setBusy(false);
      }
    },
  };
}

type CardAction = ReturnType<typeof useCardAction>;

/** The e-mail change's fields and their messages, kept by the section so that closing the form keeps what was typed. */
function useEmailChange(action: CardAction, onDone: () => void) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newEmail, setNewEmail] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFieldErrors({});
    const done = await action.run(
      () => changeEmail({ currentPassword, newEmail }),
      (error) => {
        if (Object.keys(error.fields).length === 0) return false;
        setFieldErrors(error.fields);
        return true;
      },
    );
    if (done) {
      onDone();
      setCurrentPassword('');
      setNewEmail('');
    }
  };
  const changeNewEmail = (value: string) => {
    setNewEmail(value);
    setFieldErrors(({ newEmail: _cleared, ...others }) => others);
  };
  const changeCurrentPassword = (value: string) => {
    setCurrentPassword(value);
    setFieldErrors(({ currentPassword: _cleared, ...others }) => others);
  };
  return { currentPassword, newEmail, fieldErrors, submit, changeNewEmail, changeCurrentPassword };
}

function EmailChangeForm({ action, change, onCancel }: { action: CardAction; change: ReturnType<typeof useEmailChange>; onCancel: () => void }) {
  return (
    <form onSubmit={(event) => void change.submit(event)} noValidate className="flex flex-col gap-3">
      <FormField label={t('contact.newEmail')} error={change.fieldErrors.newEmail}>
        <Input type="email" autoComplete="email" maxLength={254} value={change.newEmail} onChange={(event) => change.changeNewEmail(event.target.value)} />
      </FormField>
      <FormField label={t('contact.currentPassword')} error={change.fieldErrors.currentPassword}>
        <PasswordInput
          autoComplete="current-password"
          maxLength={128}
          value={change.currentPassword}
          onChange={(event) => change.changeCurrentPassword(event.target.value)}
        />
      </FormField>
      <ActionError message={action.error} />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={action.busy}>
          {t('contact.sendLink')}
        </Button>
        <Button size="sm" variant="outline" disabled={action.busy} onClick={onCancel}>
          {t('contact.cancel')}
        </Button>
      </div>
    </form>
  );
}

function EmailSection({ status }: { status: ContactStatus }) {
  const action = useCardAction();
  const [changing, setChanging] = useState(false);
  const change = useEmailChange(action, () => setChanging(false));

  return (
    <section className="flex flex-col gap-2" aria-label={t('contact.email')}>
      <p className="flex items-center justify-between gap-3 text-sm">
        <span className="min-w-0 break-all font-medium">{status.email}</span>
        <VerifiedBadge verified={status.emailVerifiedAt !== null} />
      </p>
      {status.pendingEmail && <p className="text-xs text-slate-600">{t('contact.waitingForLink', { email: status.pendingEmail })}</p>}
      <div className="flex flex-wrap gap-2">
        {status.emailVerifiedAt === null && (
          <Button size="sm" disabled={action.busy} onClick={() => void action.run(resendEmailLink)}>
            {t('contact.resend')}
          </Button>
        )}
        {!changing && (
          <Button size="sm" variant="outline" onClick={() => setChanging(true)}>
            {t('contact.changeEmail')}
          </Button>
        )}
      </div>
      {!changing && <ActionError message={action.error} />}
      {changing && <EmailChangeForm action={action} change={change} onCancel={() => setChanging(false)} />}
    </section>
  );
}

function PhoneSection({ status }: { status: ContactStatus }) {
  const action = useCardAction();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const verified = status.phoneVerifiedAt !== null;

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setCodeError(t('contact.codeShape'));
      return;
    }
    setCodeError(undefined);
    const done = await action.run(
      () => verifyPhoneCode(code),
      (error) => {
        const message = error.fields.code;
        if (message === undefined) return false;
        setCodeError(message);
        return true;
      },
    );
    if (done) setCode('');
  };

  return (
    <section className="flex flex-col gap-2" aria-label={t('contact.mobile')}>
      <p className="flex items-center justify-between gap-3 text-sm">
        <span className="font-medium">{status.phone}</span>
        <VerifiedBadge verified={verified} />
      </p>
      {!verified && (
        <>
          <div>
            <Button size="sm" disabled={action.busy} onClick={() => void action.run(sendPhoneCode)}>
              {status.codeOpen ? t('contact.sendNewCode') : t('contact.sendCode')}
            </Button>
          </div>
          <ActionError message={action.error} />
          {status.codeOpen && (
            <form onSubmit={(event) => void submitCode(event)} noValidate className="flex items-end gap-2">
              <FormField label={t('contact.code')} error={codeError}>
                <Input
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  value={code}
                  onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
                />
              </FormField>
              <Button type="submit" size="sm" disabled={action.busy}>
                {t('contact.verify')}
              </Button>
            </form>
          )}
        </>
      )}
    </section>
  );
}

/** The profile's card of the contact checks: verify or change the e-mail, and verify the mobile number by SMS code. */
export function ContactChecksCard() {
  const status = useQuery({ queryKey: CONTACT_STATUS_QUERY_KEY, queryFn: fetchContactStatus });
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('contact.cardTitle')}</CardTitle>
        <CardDescription>{t('contact.cardDescription')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {status.data ? (
          <>
            <EmailSection status={status.data} />
            <PhoneSection status={status.data} />
          </>
        ) : (
          <p className="text-sm text-slate-500">{status.isError ? t('contact.loadFailed') : t('withdraw.loading')}</p>
        )}
      </CardContent>
    </Card>
  );
}
