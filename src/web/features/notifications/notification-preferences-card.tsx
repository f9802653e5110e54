import { useState } from 'react';
import { toast } from 'sonner';
import type { NotificationPreferences } from '#shared/contracts/notifications';
import { ActionError } from '../../components/ui/action-error.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { describeSubmissionFailure } from '../../lib/form-errors.ts';
import { saveNotificationPreferences, useNotificationPreferences } from './api.ts';
import { translate as t, type MessageKey } from '../../lib/i18n/i18n.ts';

const CHOICES: { key: keyof NotificationPreferences; label: MessageKey }[] = [
  { key: 'emailDeposits', label: 'notifications.emailDeposits' },
  { key: 'emailWithdrawals', label: 'notifications.emailWithdrawals' },
  { key: 'emailTransfers', label: 'notifications.emailTransfers' },
];

/** Per-kind e-mail switches; in-app notifications and security e-mails always stay on. */
export function NotificationPreferencesCard() {
  const saved = useNotificationPreferences();
  // What the customer has ticked since loading; until then, what is saved.
  const [edited, setEdited] = useState<NotificationPreferences>();
  const choices = edited ?? saved.data?.preferences;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const save = async () => {
    if (!choices) return;
    setBusy(true);
    setError(undefined);
    try {
      await saveNotificationPreferences(choices);
      toast.success(t('notifications.preferencesSaved'));
      void saved.refetch();
    } catch (failure) {
      setError(describeSubmissionFailure(failure, [], t('notifications.preferencesFailed')).actionError);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('notifications.preferencesTitle')}</CardTitle>
        <CardDescription>{t('notifications.preferencesDescription')}</CardDescription>
      </CardHeader>
      <CardContent>
        {saved.isPending || !choices ? (
          saved.isError ? (
            <LoadFailed message={t('notifications.preferencesLoadFailed')} onRetry={() => void saved.refetch()} />
          ) : (
            <Spinner label={t('notifications.loadingPreferences')} />
          )
        ) : (
          <form
            className="flex flex-col gap-3"
            onSubmit={(event) => {
              event.preventDefault();
              void save();
            }}
          >
            {CHOICES.map(({ key, label }) => (
              <label key={key} className="flex items-center gap-3 text-sm">
                <input
                  type="checkbox"
                  className="size-5 accent-brand-700"
                  checked={choices[key]}
                  onChange={(event) => {
                    setError(undefined);
                    setEdited({ ...choices, [key]: event.target.checked });
                  }}
                />
                {t(label)}
              </label>
            ))}
            <ActionError message={error} />
            <Button type="submit" variant="outline" className="self-start" disabled={busy} aria-busy={busy}>
              {busy ? t('notifications.saving') : t('notifications.savePreferences')}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
