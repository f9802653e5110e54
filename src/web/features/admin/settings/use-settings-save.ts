import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldErrors, UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import {
  SETTINGS_UPDATE_FAILED_MESSAGE,
  SETTINGS_UPDATED_MESSAGE,
  type AdminSettings,
  type UpdateSettingsInput,
  type UpdateSettingsRequest,
} from '#shared/contracts/settings';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { showServerFieldErrors } from '../../../lib/forms.ts';
import { QUERY_KEYS } from '../../../lib/query-keys.ts';
import { adminKeys, saveAdminSettings } from '../api.ts';
import { largeRateChanges, type RateChange } from '../components/rate-change-dialog.tsx';
import { formValuesOf } from './settings-form-values.ts';
import { FIELD_NAMES, firstTabOfFields, firstTabWithError, type TabName } from './settings-tabs.tsx';

/**
 * Saving the settings form: a large rate change waits for the admin's confirmation, a refusal opens the tab
 * of its first field, and a stale save (409) reloads the current settings into the form.
 */
export function useSettingsSave({
  form,
  settings,
  showTab,
}: {
  form: UseFormReturn<UpdateSettingsRequest, unknown, UpdateSettingsInput>;
  settings: AdminSettings;
  showTab: (tab: TabName) => void;
}) {
  const queryClient = useQueryClient();
  const [rateConfirmation, setRateConfirmation] = useState<{ values: UpdateSettingsInput; changes: RateChange[] } | null>(null);
  const [confirming, setConfirming] = useState(false);

  const onInvalid = (invalid: FieldErrors<UpdateSettingsRequest>) => {
    const errorTab = firstTabWithError(invalid);
    if (errorTab) showTab(errorTab);
    toast.error(SETTINGS_UPDATE_FAILED_MESSAGE, { description: 'Please correct the highlighted fields.' });
  };

  /** After a refused stale save: the current settings replace the form (and its version), so the admin can apply the change again. */
  const reloadSettings = async () => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.settings() });
    const current = queryClient.getQueryData<AdminSettings>(adminKeys.settings());
    if (!current) return;
    form.reset(formValuesOf(current));
  };

  const save = async (values: UpdateSettingsInput) => {
    try {
      const answer = await saveAdminSettings(values);
      form.reset(formValuesOf(answer.settings));
      queryClient.setQueryData(adminKeys.settings(), answer.settings);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.all }),
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.rates }),
        queryClient.invalidateQueries({ queryKey: QUERY_KEYS.publicSettings }),
      ]);
      // 202: saved, except the deposit address change, which waits for a second admin (shown above the form).
      if ('pendingChange' in answer) {
        const title = answer.pendingChanges.every((change) => change.kind === 'deposit_address')
          ? 'Address change awaits a second admin'
          : 'Changes await a second admin';
        toast.info(title, { description: answer.message, duration: 10_000 });
      } else {
        toast.success(answer.message || SETTINGS_UPDATED_MESSAGE);
      }
    } catch (error) {
      const { shownFields } = showServerFieldErrors(form.setError, FIELD_NAMES, error);
      const errorTab = firstTabOfFields(shownFields);
      if (errorTab) showTab(errorTab);
      toast.error(SETTINGS_UPDATE_FAILED_MESSAGE, { description: errorMessage(error, 'Please try again.') });
      if (error instanceof ApiError && error.status === 409 && error.code === 'CONFLICT') await reloadSettings();
    }
  };

  // A rate change of more than 5% is shown with old, new and percentage and saved only once confirmed.
  const onSubmit = form.handleSubmit(async (values) => {
    const changes = largeRateChanges(settings, values);
    if (changes.length > 0) {
      setRateConfirmation({ values, changes });
      return;
    }
    await save(values);
  }, onInvalid);

  const confirmRateChange = async () => {
    if (!rateConfirmation) return;
    setConfirming(true);
    try {
      await save({ ...rateConfirmation.values, confirmedLargeRateChange: true });
    } finally {
      setConfirming(false);
      setRateConfirmation(null);
    }
  };

  return { onSubmit, rateConfirmation, confirming, confirmRateChange, cancelRateChange: () => setRateConfirmation(null) };
}
