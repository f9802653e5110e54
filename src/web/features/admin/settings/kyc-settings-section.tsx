import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { AdminSettings, UpdateSettingsRequest } from '#shared/contracts/settings';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { DailyAndMonthlyLimitFields } from './limit-fields.tsx';

/**
 * The KYC settings in the Withdrawals & TDS tab (decisions 042, 047): each level's INR limits (empty:
 * none of the level), the TDS rate without an operative PAN, the months between KYC refreshes and the years a
 * closed account's records are kept (decision 060).
 */

/** The form's values of this section, from the saved settings. */
export function kycSettingsFormValues(settings: AdminSettings) {
  const { level1, level2 } = settings.kycLevelLimits;
  return {
    kycLevelLimits: {
      level1: { dailyInr: level1.dailyInr ?? '', monthlyInr: level1.monthlyInr ?? '' },
      level2: { dailyInr: level2.dailyInr ?? '', monthlyInr: level2.monthlyInr ?? '' },
    },
    tdsNoPanPercent: settings.tdsNoPanPercent,
    kycRefreshMonths: { highRisk: String(settings.kycRefreshMonths.highRisk), other: String(settings.kycRefreshMonths.other) },
    recordRetentionYears: String(settings.recordRetentionYears),
  };
}

export function KycSettingsSection({
  register,
  errors,
  disabled,
}: {
  register: UseFormRegister<UpdateSettingsRequest>;
  errors: FieldErrors<UpdateSettingsRequest>;
  disabled: boolean;
}) {
  const limitErrors = errors.kycLevelLimits;
  const monthErrors = errors.kycRefreshMonths;
  return (
    <fieldset disabled={disabled} className="flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-5" data-testid="kyc-settings">
      <legend className="text-base font-semibold">KYC</legend>
      <p className="text-sm text-slate-600">
        Each KYC level’s withdrawal limits in INR per customer; leave a field empty for no limit of the level. The tier’s USDT limits above apply within them.
      </p>
      {(['level1', 'level2'] as const).map((level) => (
        <DailyAndMonthlyLimitFields
          key={level}
          register={register}
          whose={level === 'level1' ? 'KYC level 1' : 'KYC level 2'}
          unit="INR"
          daily={{ name: `kycLevelLimits.${level}.dailyInr`, error: limitErrors?.[level]?.dailyInr?.message }}
          monthly={{ name: `kycLevelLimits.${level}.monthlyInr`, error: limitErrors?.[level]?.monthlyInr?.message }}
        />
      ))}
      <FormField
        label="TDS without an operative PAN (%)"
        error={errors.tdsNoPanPercent?.message}
        help="Section 206AA: taken instead of the TDS above, when higher, from customers whose PAN is not linked to Aadhaar, while TDS is on. From 0 to 30."
      >
        <Input inputMode="decimal" autoComplete="off" maxLength={6} {...register('tdsNoPanPercent')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="KYC refresh, high-risk customers (months)" error={monthErrors?.highRisk?.message}>
          <Input inputMode="numeric" autoComplete="off" maxLength={2} {...register('kycRefreshMonths.highRisk')} />
        </FormField>
        <FormField label="KYC refresh, other customers (months)" error={monthErrors?.other?.message}>
          <Input inputMode="numeric" autoComplete="off" maxLength={2} {...register('kycRefreshMonths.other')} />
        </FormField>
      </div>
      <FormField
        label="Records kept after an account is closed (years)"
        error={errors.recordRetentionYears?.message}
        help="KYC records, documents and the sign-up trail of a closed account. FIU-IND asks for at least 5 years; from 5 to 50."
      >
        <Input inputMode="numeric" autoComplete="off" maxLength={2} {...register('recordRetentionYears')} />
      </FormField>
    </fieldset>
  );
}
