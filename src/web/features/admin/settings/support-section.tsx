import { SETTINGS_LIMITS } from '#shared/contracts/settings';
import { EXAMPLE_PHONE } from '#shared/limits';
import { MAX_DECIMAL_STRING_LENGTH } from '#shared/money';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import type { SettingsSectionProps } from './settings-form-values.ts';

/** The Support tab's own fields: the WhatsApp number, the website and the minimum deposit. */
export function SupportSection({ register, errors, disabled }: SettingsSectionProps) {
  return (
    <fieldset disabled={disabled} className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5">
      <legend className="sr-only">Support</legend>
      <FormField
        label="WhatsApp Support Number"
        error={errors.whatsappSupportNumber?.message}
        help={`Start with + and the country code, for example ${EXAMPLE_PHONE}. The Support button opens a chat with this number.`}
      >
        <Input type="tel" autoComplete="off" maxLength={40} {...register('whatsappSupportNumber')} />
      </FormField>
      <FormField label="Website URL" error={errors.websiteUrl?.message} help="A full address, for example https://example.com">
        <Input type="url" autoComplete="off" maxLength={SETTINGS_LIMITS.websiteUrlLength} {...register('websiteUrl')} />
      </FormField>
      <FormField label="Minimum Deposit (USDT)" error={errors.minDeposit?.message} help="Deposits below this amount are refused.">
        <Input inputMode="decimal" autoComplete="off" maxLength={MAX_DECIMAL_STRING_LENGTH} {...register('minDeposit')} />
      </FormField>
    </fieldset>
  );
}
