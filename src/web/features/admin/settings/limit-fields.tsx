import type { ComponentProps } from 'react';
import type { UseFormRegister } from 'react-hook-form';
import type { UpdateSettingsRequest } from '#shared/contracts/settings';
import { MAX_DECIMAL_STRING_LENGTH } from '#shared/money';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';

type SettingsFieldName = Parameters<UseFormRegister<UpdateSettingsRequest>>[0];

/** An amount box that may stay empty (no limit); the id and aria attributes that FormField gives go through to the input. */
export function AmountInput({
  register,
  name,
  ...inputProps
}: { register: UseFormRegister<UpdateSettingsRequest>; name: SettingsFieldName } & Omit<ComponentProps<typeof Input>, 'name'>) {
  return <Input inputMode="decimal" autoComplete="off" placeholder="No limit" maxLength={MAX_DECIMAL_STRING_LENGTH} {...inputProps} {...register(name)} />;
}

/** A daily and a monthly limit side by side, as the tiers' USDT limits and the KYC levels' INR limits are edited. */
export function DailyAndMonthlyLimitFields({
  register,
  whose,
  unit,
  daily,
  monthly,
  testId,
}: {
  register: UseFormRegister<UpdateSettingsRequest>;
  /** Whose limits these are, as the labels name them ("VIP customers", "KYC level 1"). */
  whose: string;
  unit: 'INR' | 'USDT';
  daily: { name: SettingsFieldName; error: string | undefined };
  monthly: { name: SettingsFieldName; error: string | undefined };
  testId?: string | undefined;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2" data-testid={testId}>
      <FormField label={`Daily limit, ${whose} (${unit})`} error={daily.error}>
        <AmountInput register={register} name={daily.name} />
      </FormField>
      <FormField label={`Monthly limit, ${whose} (${unit})`} error={monthly.error}>
        <AmountInput register={register} name={monthly.name} />
      </FormField>
    </div>
  );
}
