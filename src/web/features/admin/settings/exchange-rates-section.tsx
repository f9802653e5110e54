import { MAX_DECIMAL_STRING_LENGTH } from '#shared/money';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import type { SettingsSectionProps } from './settings-form-values.ts';

/** The Exchange Rates tab: the normal and VIP rates, and the withdrawal worth a second admin's approval. */
export function ExchangeRatesSection({ register, errors, disabled }: SettingsSectionProps) {
  return (
    <fieldset disabled={disabled} className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5">
      <legend className="sr-only">Exchange Rates</legend>
      <FormField label="Normal Rate (INR per USDT)" error={errors.normalRate?.message} help="The rate for normal customers' withdrawals.">
        <Input type="number" inputMode="decimal" step="0.01" min="0.01" {...register('normalRate')} />
      </FormField>
      <FormField label="VIP Rate (INR per USDT)" error={errors.vipRate?.message} help="VIP members and withdrawals of ₹1,00,000 or more get this rate.">
        <Input type="number" inputMode="decimal" step="0.01" min="0.01" {...register('vipRate')} />
      </FormField>
      <FormField
        label="Large withdrawal (INR)"
        error={errors.largeWithdrawalInr?.message}
        help="With two or more admins, approving a withdrawal worth more than this needs a second admin."
      >
        <Input inputMode="decimal" autoComplete="off" maxLength={MAX_DECIMAL_STRING_LENGTH} {...register('largeWithdrawalInr')} />
      </FormField>
    </fieldset>
  );
}
