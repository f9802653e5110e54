import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { AdminSettings, UpdateSettingsRequest } from '#shared/contracts/settings';
import { formatUsdtShort, usdtMicrosFromWire } from '#shared/money';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { AmountInput, DailyAndMonthlyLimitFields } from './limit-fields.tsx';

/**
 * The settings tab for withdrawal limits by tier, the per-withdrawal minimum
 * and maximum, and the TDS percent (docs/decisions/018). Empty limit fields
 * mean no limit.
 */

const shortUsdt = (wire: string | null): string => (wire === null ? '' : formatUsdtShort(usdtMicrosFromWire(wire)));

/** The form's values of this tab, from the saved settings ("50.000000" shows as "50", none as empty). */
export function withdrawalRulesFormValues(settings: AdminSettings) {
  return {
    withdrawalLimits: {
      normal: { dailyUsdt: shortUsdt(settings.withdrawalLimits.normal.dailyUsdt), monthlyUsdt: shortUsdt(settings.withdrawalLimits.normal.monthlyUsdt) },
      vip: { dailyUsdt: shortUsdt(settings.withdrawalLimits.vip.dailyUsdt), monthlyUsdt: shortUsdt(settings.withdrawalLimits.vip.monthlyUsdt) },
    },
    withdrawalMinUsdt: shortUsdt(settings.withdrawalMinUsdt),
    withdrawalMaxUsdt: shortUsdt(settings.withdrawalMaxUsdt),
    tdsPercent: settings.tdsPercent,
  };
}

export function WithdrawalRulesSection({
  register,
  errors,
  disabled,
}: {
  register: UseFormRegister<UpdateSettingsRequest>;
  errors: FieldErrors<UpdateSettingsRequest>;
  disabled: boolean;
}) {
  const limitErrors = errors.withdrawalLimits;
  return (
    <fieldset disabled={disabled} className="flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-5">
      <legend className="sr-only">Withdrawals and TDS</legend>
      <p className="text-sm text-slate-600">
        Limits are in USDT per customer; leave a field empty for no limit. Days and months are India time; pending, processing and paid withdrawals count,
        rejected ones do not.
      </p>
      {(['normal', 'vip'] as const).map((tier) => (
        <DailyAndMonthlyLimitFields
          key={tier}
          register={register}
          whose={tier === 'vip' ? 'VIP customers' : 'normal customers'}
          unit="USDT"
          daily={{ name: `withdrawalLimits.${tier}.dailyUsdt`, error: limitErrors?.[tier]?.dailyUsdt?.message }}
          monthly={{ name: `withdrawalLimits.${tier}.monthlyUsdt`, error: limitErrors?.[tier]?.monthlyUsdt?.message }}
          testId={`withdrawal-limits-${tier}`}
        />
      ))}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Minimum per withdrawal (USDT)" error={errors.withdrawalMinUsdt?.message} help="Never below 1.00 USDT.">
          <AmountInput register={register} name="withdrawalMinUsdt" />
        </FormField>
        <FormField label="Maximum per withdrawal (USDT)" error={errors.withdrawalMaxUsdt?.message}>
          <AmountInput register={register} name="withdrawalMaxUsdt" />
        </FormField>
      </div>
      <FormField
        label="TDS (%)"
        error={errors.tdsPercent?.message}
        help="Tax deducted at source under section 194S, from 0 (off) to 30, at most 2 decimals. While it is above 0, customers must add their PAN before withdrawing, and they are paid the INR amount less the TDS."
      >
        <Input inputMode="decimal" autoComplete="off" maxLength={6} {...register('tdsPercent')} />
      </FormField>
    </fieldset>
  );
}
