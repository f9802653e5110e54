import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ApiError } from '../../lib/api.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { useEndOfSessionHandler } from '../auth/index.ts';
import { acceptConsent, CONSENT_QUERY_KEY, OPERATOR_IDENTITY_QUERY_KEY, useConsentStatus } from './api.ts';
import { OperatorIdentityDetails } from './operator-identity.tsx';

/** The notice itself: what KYC collects and why, how long it is kept, who runs the app and its grievance officer. */
function ConsentNoticeForm({ noticeVersion }: { noticeVersion: string }) {
  const queryClient = useQueryClient();
  const endOfSession = useEndOfSessionHandler();
  const [agreed, setAgreed] = useState(false);
  const [agreeError, setAgreeError] = useState<string>();
  const [actionError, setActionError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setActionError(undefined);
    if (!agreed) {
      setAgreeError(t('consent.mustAgree'));
      return;
    }
    setBusy(true);
    try {
      queryClient.setQueryData(CONSENT_QUERY_KEY, await acceptConsent(noticeVersion));
    } catch (error) {
      if (endOfSession(error)) return;
      // A newer notice than the one shown: load it, so the customer reads the current text before accepting.
      if (error instanceof ApiError && error.status === 409) await queryClient.invalidateQueries({ queryKey: OPERATOR_IDENTITY_QUERY_KEY });
      setActionError(error instanceof ApiError ? error.message : t('consent.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="consent-notice">
      <CardHeader>
        <CardTitle>{t('consent.title')}</CardTitle>
        <CardDescription>{t('consent.intro')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm leading-6 text-slate-700">
        <p>{t('consent.collect')}</p>
        <p>{t('consent.use')}</p>
        <p>{t('consent.retention')}</p>
        <p>{t('consent.rights')}</p>
        <OperatorIdentityDetails />
        <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-3">
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-1"
              checked={agreed}
              aria-invalid={agreeError ? true : undefined}
              aria-describedby={agreeError ? 'consent-agree-error' : undefined}
              onChange={(event) => {
                setAgreed(event.target.checked);
                setAgreeError(undefined);
              }}
            />
            <span>{t('consent.agree')}</span>
          </label>
          {agreeError && (
            <p id="consent-agree-error" className="text-sm text-red-700">
              {agreeError}
            </p>
          )}
          <ActionError message={actionError} />
          <Button type="submit" disabled={busy} aria-busy={busy}>
            {busy ? t('consent.saving') : t('consent.accept')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** The KYC page's first step: the notice until it is accepted, nothing after. */
export default function ConsentStep() {
  const consent = useConsentStatus();
  if (consent.isPending) return <Spinner label={t('consent.loading')} />;
  if (consent.isError) return <LoadFailed message={t('consent.loadFailed')} onRetry={() => void consent.refetch()} />;
  if (consent.data.acceptedAt !== null) return null;
  return <ConsentNoticeForm noticeVersion={consent.data.noticeVersion} />;
}
