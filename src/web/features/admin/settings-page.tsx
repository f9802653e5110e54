import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  SETTINGS_LIMITS,
  updateSettingsRequestSchema,
  type AdminSettings,
  type UpdateSettingsInput,
  type UpdateSettingsRequest,
} from '#shared/contracts/settings';
import { AdminPage } from './components/admin-page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Tabs, TabsContent } from '../../components/ui/tabs.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useAdminSettings } from './api.ts';
import { FileUpload, type UploadRules } from './components/file-upload.tsx';
import { PendingChangesPanel } from './components/pending-changes-panel.tsx';
import { RateChangeDialog } from './components/rate-change-dialog.tsx';
import { useUnsavedChangesGuard } from './components/use-unsaved-changes-guard.tsx';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { fullDateTimeText } from './format.ts';
import { KycSettingsSection } from './settings/kyc-settings-section.tsx';
import { PayoutFileSection } from './settings/payout-file-section.tsx';
import { WithdrawalRulesSection } from './settings/withdrawal-rules-section.tsx';
import { OperatorIdentitySection } from './settings/operator-identity-section.tsx';
import { ExchangeRatesSection } from './settings/exchange-rates-section.tsx';
import { WalletAddressesSection } from './settings/wallet-addresses-section.tsx';
import { SupportSection } from './settings/support-section.tsx';
import { formValuesOf } from './settings/settings-form-values.ts';
import { SettingsTabsList, type TabName } from './settings/settings-tabs.tsx';
import { useSettingsSave } from './settings/use-settings-save.ts';
import { useSettingsVersion } from './settings/use-settings-version.ts';
import { VipSettingsView } from './vip-settings-view.tsx';
import { useCanReadOperatorFigures } from '../shell/index.ts';

const MEGABYTE = 1024 * 1024;

const APK_RULES: UploadRules = {
  accept: '.apk,application/vnd.android.package-archive',
  maxBytes: SETTINGS_LIMITS.apkMaxBytes,
  tooLargeMessage: `The app file must be at most ${SETTINGS_LIMITS.apkMaxBytes / MEGABYTE} MB`,
  checkType: (file) => (file.name.toLowerCase().endsWith('.apk') ? undefined : 'The app file must be an Android APK (.apk)'),
};

function SettingsForm({ settings }: { settings: AdminSettings }) {
  const [tab, setTab] = useState<TabName>('rates');
  const form = useForm<UpdateSettingsRequest, unknown, UpdateSettingsInput>({
    resolver: zodResolver(updateSettingsRequestSchema),
    defaultValues: formValuesOf(settings),
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const adoptUploadVersion = useSettingsVersion(form, settings, isDirty);
  const saving = useSettingsSave({ form, settings, showTab: setTab });
  const guard = useUnsavedChangesGuard(isDirty);
  const sectionProps = { register: form.register, errors, disabled: isSubmitting };

  return (
    <form onSubmit={saving.onSubmit} noValidate className="flex flex-col gap-4">
      {guard.dialog}
      {saving.rateConfirmation && (
        <RateChangeDialog
          changes={saving.rateConfirmation.changes}
          busy={saving.confirming}
          onConfirm={() => void saving.confirmRateChange()}
          onCancel={saving.cancelRateChange}
        />
      )}

      <Tabs value={tab} onValueChange={(value) => setTab(value as TabName)}>
        <SettingsTabsList errors={errors} />

        {/* Every tab stays mounted, so a field's error survives switching tabs. */}
        <TabsContent value="rates" forceMount className="data-[state=inactive]:hidden">
          <ExchangeRatesSection {...sectionProps} />
        </TabsContent>

        <TabsContent value="addresses" forceMount className="data-[state=inactive]:hidden">
          <WalletAddressesSection {...sectionProps} settings={settings} onUploaded={adoptUploadVersion} />
        </TabsContent>

        <TabsContent value="support" forceMount className="data-[state=inactive]:hidden">
          <div className="flex flex-col gap-5">
            <SupportSection {...sectionProps} />
            <OperatorIdentitySection {...sectionProps} />
          </div>
        </TabsContent>

        <TabsContent value="withdrawals" forceMount className="data-[state=inactive]:hidden">
          <div className="flex flex-col gap-5">
            <WithdrawalRulesSection {...sectionProps} />
            <KycSettingsSection {...sectionProps} />
            <PayoutFileSection {...sectionProps} />
          </div>
        </TabsContent>

        <TabsContent value="app" forceMount className="data-[state=inactive]:hidden">
          <div className="rounded-2xl border border-slate-200 bg-white p-5">
            <FileUpload
              label="Android app (APK)"
              target={{ kind: 'apk' }}
              rules={APK_RULES}
              current={settings.files.apk}
              kind="apk"
              onUploaded={adoptUploadVersion}
            />
          </div>
        </TabsContent>
      </Tabs>

      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-slate-500">
          Last saved {fullDateTimeText(settings.updatedAt)}
          {settings.updatedBy ? ` by ${settings.updatedBy.name}` : ''}
        </p>
        <Button type="submit" disabled={isSubmitting} aria-busy={isSubmitting} className="sm:min-w-48">
          {isSubmitting ? 'Saving...' : 'Save All Settings'}
        </Button>
      </div>
    </form>
  );
}

/** The admins' settings form; only admins load it (the API refuses anyone else). */
function OperatorSettings() {
  const settings = useAdminSettings();
  return (
    <>
      {settings.isPending && <LoadingState text="Loading settings..." />}
      {settings.isError && (
        <ErrorState
          title="Failed to load settings"
          message={errorMessage(settings.error, 'Please check your connection and try again.')}
          onRetry={() => void settings.refetch()}
        />
      )}
      {/* The form starts from the first answer only, so a refetch (after an upload) never wipes unsaved edits. */}
      {settings.data && (
        <PendingChangesPanel
          kinds={['deposit_address', 'exchange_rates', 'large_withdrawal_limit', 'app_file']}
          title="Settings changes waiting for a second admin"
        />
      )}
      {settings.data && <SettingsForm settings={settings.data} />}
    </>
  );
}

export default function SettingsPage() {
  return (
    <AdminPage title="Admin Settings" backTo="/admin">
      {useCanReadOperatorFigures() ? <OperatorSettings /> : <VipSettingsView />}
    </AdminPage>
  );
}
