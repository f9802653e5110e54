import { useEffect } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { AdminSettings, UpdateSettingsInput, UpdateSettingsRequest } from '#shared/contracts/settings';
import { formValuesOf } from './settings-form-values.ts';

/**
 * Keeps the form on the settings version it can save, and returns what an upload calls with the version it made.
 *
 * The form carries the version (updatedAt) its values came from as expectedUpdatedAt,
 * which has no input. The save sends it, and the server refuses the save when another
 * admin saved (or a file was uploaded) since, instead of silently overwriting that.
 * A refetch (live event, upload) shows newer settings in an untouched form; a form
 * with unsaved edits keeps them, and its version, so saving it is refused.
 */
export function useSettingsVersion(form: UseFormReturn<UpdateSettingsRequest, unknown, UpdateSettingsInput>, settings: AdminSettings, isDirty: boolean) {
  useEffect(() => {
    if (isDirty || settings.updatedAt === form.getValues('expectedUpdatedAt')) return;
    form.reset(formValuesOf(settings));
  }, [settings, isDirty, form]);
  // An upload made from this page changes the settings version; when it was the only change since the
  // form loaded, the form moves to the new version so that its unsaved edits can still be saved.
  return ({ before, after }: { before: string; after: string }) => {
    if (form.getValues('expectedUpdatedAt') === before) form.setValue('expectedUpdatedAt', after, { shouldDirty: false });
  };
}
