import { PAYOUT_FILE_FORMATS, PAYOUT_FILE_FORMAT_LABELS, PAYOUT_FILE_LIMITS } from '#shared/contracts/payout-file-formats';
import type { AdminSettings } from '#shared/contracts/settings';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Select } from '../../../components/ui/select.tsx';
import type { SettingsSectionProps } from './settings-form-values.ts';

/**
 * The layout of payout batches' bank files (decision 064). A batch keeps the layout it was first downloaded in;
 * the choice applies to files not yet downloaded. One admin saves it: a layout does not decide who is paid or how much.
 */

export function payoutFileFormValues(settings: AdminSettings) {
  return { payoutFile: { ...settings.payoutFile } };
}

export function PayoutFileSection({ register, errors, disabled }: SettingsSectionProps) {
  const fieldErrors = errors.payoutFile;
  return (
    <fieldset disabled={disabled} className="flex flex-col gap-4 rounded-2xl border border-slate-200 bg-white p-5" data-testid="payout-file-settings">
      <legend className="text-base font-semibold">Bank file layout</legend>
      <p className="text-sm text-slate-600">
        The layout of a payout batch’s file, for the bank or payout provider it is uploaded to. A batch already downloaded keeps the layout it was issued in.
      </p>
      <FormField label="Layout" error={fieldErrors?.format?.message}>
        <Select {...register('payoutFile.format')}>
          {PAYOUT_FILE_FORMATS.map((format) => (
            <option key={format} value={format}>
              {PAYOUT_FILE_FORMAT_LABELS[format]}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField
        label="Debit account number"
        error={fieldErrors?.debitAccountNumber?.message}
        help="The RazorpayX account number (or customer identifier) the payouts are paid from; needed for the RazorpayX layout."
      >
        <Input autoComplete="off" maxLength={PAYOUT_FILE_LIMITS.debitAccountNumberLength} {...register('payoutFile.debitAccountNumber')} />
      </FormField>
    </fieldset>
  );
}
