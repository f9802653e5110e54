import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm, type FieldErrors } from 'react-hook-form';
import { toast } from 'sonner';
import {
  QR_IMAGE_CONTENT_TYPES,
  QR_IMAGE_TYPE_MESSAGE,
  SETTINGS_LIMITS,
  SETTINGS_UPDATE_FAILED_MESSAGE,
  SETTINGS_UPDATED_MESSAGE,
  updateSettingsRequestSchema,
  type AdminSettings,
  type SettingsFormValues,
  type UpdateSettingsInput,
  type UpdateSettingsRequest,
} from '#shared/contracts/settings';
import { EXAMPLE_PHONE } from '#shared/limits';
import { formatUsdtShort, MAX_DECIMAL_STRING_LENGTH, usdtMicrosFromWire } from '#shared/money';
import { AdminPage } from './components/admin-page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { showServerFieldErrors } from '../../lib/forms.ts';
import { QUERY_KEYS } from '../../lib/query-keys.ts';
import { adminKeys, saveAdminSettings, useAdminSettings } from './api.ts';
import { FileUpload, type UploadRules } from './components/file-upload.tsx';
import { PendingChangesPanel } from './components/pending-changes-panel.tsx';
import { largeRateChanges, RateChangeDialog, type RateChange } from './components/rate-change-dialog.tsx';
import { useUnsavedChangesGuard } from './components/use-unsaved-changes-guard.tsx';
import { ErrorState, LoadingState } from './components/list-states.tsx';
import { fullDateTimeText } from './format.ts';
import { DEPOSIT_NETWORKS, type DepositNetwork } from '#shared/contracts/enums';
import { KycSettingsSection, kycSettingsFormValues } from './settings/kyc-settings-section.tsx';
import { WithdrawalRulesSection, withdrawalRulesFormValues } from './settings/withdrawal-rules-section.tsx';
import { OperatorIdentitySection, operatorIdentityFormValues } from './settings/operator-identity-section.tsx';
import { VipSettingsView } from './vip-settings-view.tsx';
import { useCanReadOperatorFigures } from '../shell/operator-figures.ts';

type FieldName = keyof SettingsFormValues;
type TabName = 'rates' | 'addresses' | 'support' | 'withdrawals' | 'app';

const TAB_OF_FIELD: Record<FieldName, TabName> = {
  normalRate: 'rates',
  vipRate: 'rates',
  largeWithdrawalInr: 'rates',
  trc20Address: 'addresses',
  erc20Address: 'addresses',
  whatsappSupportNumber: 'support',
  websiteUrl: 'support',
  minDeposit: 'support',
  withdrawalLimits: 'withdrawals',
  withdrawalMinUsdt: 'withdrawals',
  withdrawalMaxUsdt: 'withdrawals',
  tdsPercent: 'withdrawals',
  kycLevelLimits: 'withdrawals',
  tdsNoPanPercent: 'withdrawals',
  kycRefreshMonths: 'withdrawals',
  recordRetentionYears: 'withdrawals',
  operatorIdentity: 'support',
};
const FIELD_NAMES = Object.keys(TAB_OF_FIELD) as FieldName[];
const TAB_LABELS: Record<TabName, string> = {
  rates: 'Exchange Rates',
  addresses: 'Wallet Addresses',
  support: 'Support',
  withdrawals: 'Withdrawals & TDS',
  app: 'App Download',
};
/** Each network's deposit address field, edited the same way. */
const ADDRESS_FIELDS: Record<DepositNetwork, { field: 'trc20Address' | 'erc20Address'; help: string }> = {
  TRC20: { field: 'trc20Address', help: 'A TRON address: starts with T, 34 characters. Leave empty to pause TRC20 deposits.' },
  ERC20: { field: 'erc20Address', help: '0x followed by 40 hexadecimal characters. Leave empty to pause ERC20 deposits.' },
};
const TAB_ORDER: TabName[] = ['rates', 'addresses', 'support', 'withdrawals', 'app'];

const MEGABYTE = 1024 * 1024;

const QR_RULES: UploadRules = {
  accept: QR_IMAGE_CONTENT_TYPES.join(','),
  maxBytes: SETTINGS_LIMITS.qrImageMaxBytes,
  tooLargeMessage: `The QR image must be at most ${SETTINGS_LIMITS.qrImageMaxBytes / MEGABYTE} MB`,
  checkType: (file) => ((QR_IMAGE_CONTENT_TYPES as readonly string[]).includes(file.type) ? undefined : QR_IMAGE_TYPE_MESSAGE),
};

const APK_RULES: UploadRules = {
  accept: '.apk,application/vnd.android.package-archive',
  maxBytes: SETTINGS_LIMITS.apkMaxBytes,
  tooLargeMessage: `The app file must be at most ${SETTINGS_LIMITS.apkMaxBytes / MEGABYTE} MB`,
  checkType: (file) => (file.name.toLowerCase().endsWith('.apk') ? undefined : 'The app file must be an Android APK (.apk)'),
};

/** The form's values, with the version they are (expectedUpdatedAt): a reset always replaces both together. */
function formValuesOf(settings: AdminSettings): UpdateSettingsRequest {
  return {
    expectedUpdatedAt: settings.updatedAt,
    normalRate: settings.normalRate,
    vipRate: settings.vipRate,
    largeWithdrawalInr: settings.largeWithdrawalInr,
    trc20Address: settings.trc20Address,
    erc20Address: settings.erc20Address,
    whatsappSupportNumber: settings.whatsappSupportNumber,
    websiteUrl: settings.websiteUrl,
    // The wire form has 6 decimals ("10.000000"); the form shows "10".
    minDeposit: formatUsdtShort(usdtMicrosFromWire(settings.minDeposit)),
    ...withdrawalRulesFormValues(settings),
    ...kycSettingsFormValues(settings),
    ...operatorIdentityFormValues(settings),
  };
}

function firstTabWithError(errors: FieldErrors<UpdateSettingsRequest>): TabName | undefined {
  return TAB_ORDER.find((tab) => FIELD_NAMES.some((name) => TAB_OF_FIELD[name] === tab && errors[name]));
}

function SettingsForm({ settings }: { settings: AdminSettings }) {
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TabName>('rates');
  const form = useForm<UpdateSettingsRequest, unknown, UpdateSettingsInput>({
    resolver: zodResolver(updateSettingsRequestSchema),
    defaultValues: formValuesOf(settings),
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  // The form carries the version (updatedAt) its values came from as expectedUpdatedAt,
  // which has no input. The save sends it, and the server refuses the save when another
  // admin saved (or a file was uploaded) since, instead of silently overwriting that.
  // A refetch (live event, upload) shows newer settings in an untouched form; a form
  // with unsaved edits keeps them, and its version, so saving it is refused.
  useEffect(() => {
    if (isDirty || settings.updatedAt === form.getValues('expectedUpdatedAt')) return;
    form.reset(formValuesOf(settings));
  }, [settings, isDirty, form]);
  // An upload made from this page changes the settings version; when it was the only change since the
  // form loaded, the form moves to the new version so that its unsaved edits can still be saved.
  const adoptUploadVersion = ({ before, after }: { before: string; after: string }) => {
    if (form.getValues('expectedUpdatedAt') === before) form.setValue('expectedUpdatedAt', after, { shouldDirty: false });
  };
  const tabHasError = (name: TabName) => FIELD_NAMES.some((field) => TAB_OF_FIELD[field] === name && errors[field]);

  const onInvalid = (invalid: FieldErrors<UpdateSettingsRequest>) => {
    const errorTab = firstTabWithError(invalid);
    if (errorTab) setTab(errorTab);
    toast.error(SETTINGS_UPDATE_FAILED_MESSAGE, { description: 'Please correct the highlighted fields.' });
  };

  /** After a refused stale save: the current settings replace the form (and its version), so the admin can apply the change again. */
  const reloadSettings = async () => {
    await queryClient.invalidateQueries({ queryKey: adminKeys.settings() });
    const current = queryClient.getQueryData<AdminSettings>(adminKeys.settings());
    if (!current) return;
    form.reset(formValuesOf(current));
  };

  const [rateConfirmation, setRateConfirmation] = useState<{ values: UpdateSettingsInput; changes: RateChange[] } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const guard = useUnsavedChangesGuard(isDirty);

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
      const errorTab = TAB_ORDER.find((name) => shownFields.some((field) => TAB_OF_FIELD[field as FieldName] === name));
      if (errorTab) setTab(errorTab);
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

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
      {guard.dialog}
      {rateConfirmation && (
        <RateChangeDialog
          changes={rateConfirmation.changes}
          busy={confirming}
          onConfirm={() => void confirmRateChange()}
          onCancel={() => setRateConfirmation(null)}
        />
      )}

      <Tabs value={tab} onValueChange={(value) => setTab(value as TabName)}>
        <TabsList className="grid h-auto grid-cols-2 gap-1 sm:inline-flex">
          {TAB_ORDER.map((name) => (
            <TabsTrigger key={name} value={name}>
              {TAB_LABELS[name]}
              {tabHasError(name) && (
                <>
                  <span className="ml-1 inline-block size-2 rounded-full bg-red-500" aria-hidden />
                  <span className="sr-only"> (has errors)</span>
                </>
              )}
            </TabsTrigger>
          ))}
        </TabsList>

        {/* Every tab stays mounted, so a field's error survives switching tabs. */}
        <TabsContent value="rates" forceMount className="data-[state=inactive]:hidden">
          <fieldset disabled={isSubmitting} className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5">
            <legend className="sr-only">Exchange Rates</legend>
            <FormField label="Normal Rate (INR per USDT)" error={errors.normalRate?.message} help="The rate for normal customers' withdrawals.">
              <Input type="number" inputMode="decimal" step="0.01" min="0.01" {...form.register('normalRate')} />
            </FormField>
            <FormField label="VIP Rate (INR per USDT)" error={errors.vipRate?.message} help="VIP members and withdrawals of ₹1,00,000 or more get this rate.">
              <Input type="number" inputMode="decimal" step="0.01" min="0.01" {...form.register('vipRate')} />
            </FormField>
            <FormField
              label="Large withdrawal (INR)"
              error={errors.largeWithdrawalInr?.message}
              help="With two or more admins, approving a withdrawal worth more than this needs a second admin."
            >
              <Input inputMode="decimal" autoComplete="off" maxLength={MAX_DECIMAL_STRING_LENGTH} {...form.register('largeWithdrawalInr')} />
            </FormField>
          </fieldset>
        </TabsContent>

        <TabsContent value="addresses" forceMount className="data-[state=inactive]:hidden">
          <div className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5">
            <fieldset disabled={isSubmitting} className="flex flex-col gap-4">
              <legend className="sr-only">Wallet Addresses</legend>
              {DEPOSIT_NETWORKS.map((network) => {
                const { field, help } = ADDRESS_FIELDS[network];
                return (
                  <FormField key={network} label={`${network} Wallet Address`} error={errors[field]?.message} help={help}>
                    <Input
                      className="font-mono text-sm"
                      autoComplete="off"
                      spellCheck={false}
                      maxLength={SETTINGS_LIMITS.addressLength}
                      {...form.register(field)}
                    />
                  </FormField>
                );
              })}
            </fieldset>
            {DEPOSIT_NETWORKS.map((network) => (
              <FileUpload
                key={network}
                onUploaded={adoptUploadVersion}
                label={`${network} QR code image`}
                help={`A picture of the saved ${network} address (PNG or JPEG). It is read on upload, and set aside when the address changes; until one is uploaded, customers see a QR code drawn from the address.`}
                target={{ kind: 'qr', network }}
                rules={QR_RULES}
                current={network === 'TRC20' ? settings.files.trc20Qr : settings.files.erc20Qr}
                kind="image"
              />
            ))}
          </div>
        </TabsContent>

        <TabsContent value="support" forceMount className="data-[state=inactive]:hidden">
          <div className="flex flex-col gap-5">
            <fieldset disabled={isSubmitting} className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5">
              <legend className="sr-only">Support</legend>
              <FormField
                label="WhatsApp Support Number"
                error={errors.whatsappSupportNumber?.message}
                help={`Start with + and the country code, for example ${EXAMPLE_PHONE}. The Support button opens a chat with this number.`}
              >
                <Input type="tel" autoComplete="off" maxLength={40} {...form.register('whatsappSupportNumber')} />
              </FormField>
              <FormField label="Website URL" error={errors.websiteUrl?.message} help="A full address, for example https://example.com">
                <Input type="url" autoComplete="off" maxLength={SETTINGS_LIMITS.websiteUrlLength} {...form.register('websiteUrl')} />
              </FormField>
              <FormField label="Minimum Deposit (USDT)" error={errors.minDeposit?.message} help="Deposits below this amount are refused.">
                <Input inputMode="decimal" autoComplete="off" maxLength={MAX_DECIMAL_STRING_LENGTH} {...form.register('minDeposit')} />
              </FormField>
            </fieldset>
            <OperatorIdentitySection register={form.register} errors={errors} disabled={isSubmitting} />
          </div>
        </TabsContent>

        <TabsContent value="withdrawals" forceMount className="data-[state=inactive]:hidden">
          <div className="flex flex-col gap-5">
            <WithdrawalRulesSection register={form.register} errors={errors} disabled={isSubmitting} />
            <KycSettingsSection register={form.register} errors={errors} disabled={isSubmitting} />
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
