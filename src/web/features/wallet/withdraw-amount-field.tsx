import type { ComponentProps, ReactNode } from 'react';
import { useWatch, type FieldErrors, type UseFormReturn } from 'react-hook-form';
import { WITHDRAWAL_DECIMALS } from '#shared/contracts/withdrawals';
import type { WithdrawalLimits } from '#shared/contracts/withdrawal-rules';
import type { WalletSummary } from '#shared/contracts/wallet';
import { formatDecimal, formatUsdtExact, inrPaiseToWire, USDT_DECIMALS, usdtMicrosFromWire } from '#shared/money';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { amountField } from '../../lib/amount-input.ts';
import { translate as t } from '../../lib/i18n/i18n.ts';
import { displayUsdt } from './format.ts';
import { requestedUsdtMicros, usdtRequestText, withdrawPreview, type AmountUnit, type WithdrawForm } from './withdraw-form-rules.ts';

type AmountFieldProps = {
  form: UseFormReturn<WithdrawForm>;
  limits: WithdrawalLimits | undefined;
  summary: WalletSummary;
  tdsBasisPoints: bigint;
  errors: FieldErrors<WithdrawForm>;
};

/**
 * The amount, typed in USDT or as the rupees the customer wants to receive after TDS (issue 31, section 5),
 * with Max beside it and, in rupees, the USDT needed. Either way the request is the USDT amount and its rupees.
 */
export function WithdrawAmountField({ form, limits, summary, tdsBasisPoints, errors }: AmountFieldProps) {
  const [unit, amount, amountInr] = useWatch({ control: form.control, name: ['unit', 'amount', 'amountInr'] });
  const balanceMicros = usdtMicrosFromWire(summary.balanceUsdt);
  const help = amountHelp(limits?.minUsdt ?? summary.minWithdrawalUsdt, balanceMicros);
  const neededMicros = unit === 'inr' ? requestedUsdtMicros({ unit, amount, amountInr }, summary, tdsBasisPoints) : undefined;

  /** The most that can leave now: the balance, or less when a limit leaves less today; in rupees, what it pays. */
  const fillMax = () => {
    const availableMicros = limits?.availableUsdt ? usdtMicrosFromWire(limits.availableUsdt) : undefined;
    const maxText = formatDecimal(
      availableMicros !== undefined && availableMicros < balanceMicros ? availableMicros : balanceMicros,
      USDT_DECIMALS,
      WITHDRAWAL_DECIMALS,
    );
    if (unit === 'inr') form.setValue('amountInr', rupeesPaidFor(maxText, summary, tdsBasisPoints));
    else form.setValue('amount', maxText);
    form.clearErrors(['amount', 'amountInr']);
  };

  const switchUnit = (next: AmountUnit) => {
    // What was typed carries over, so switching only changes how the same withdrawal is written.
    const typedMicros = requestedUsdtMicros(form.getValues(), summary, tdsBasisPoints);
    if (typedMicros !== undefined && next === 'inr') form.setValue('amountInr', rupeesPaidFor(usdtRequestText(typedMicros), summary, tdsBasisPoints));
    if (typedMicros !== undefined && next === 'usdt') form.setValue('amount', usdtRequestText(typedMicros));
    form.setValue('unit', next);
    form.clearErrors(['amount', 'amountInr']);
  };

  const maxButton = (
    <Button variant="outline" onClick={fillMax}>
      {t('withdraw.max')}
    </Button>
  );
  const inputProps = { inputMode: 'decimal', autoComplete: 'off', maxLength: 24, placeholder: '0.00' } as const;

  return (
    <div className="flex flex-col gap-3">
      {/* Rupees wait for the limits: without their TDS rate the USDT needed could pay less than typed. */}
      <AmountUnitSwitch unit={unit} onChange={switchUnit} rupeesReady={limits !== undefined} />
      {unit === 'inr' ? (
        <div className="flex flex-col gap-1.5">
          <FormField label={t('withdraw.amountInr')} error={errors.amountInr?.message} help={`${t('withdraw.amountInrHelp')} ${help}`}>
            <InputWithAction {...inputProps} {...amountField(form.register('amountInr'))} action={maxButton} />
          </FormField>
          <p className="text-sm font-medium text-slate-800" aria-live="polite" data-testid="usdt-needed">
            {t('withdraw.usdtNeeded', { amount: neededMicros === undefined ? '0.00' : formatUsdtExact(neededMicros) })}
          </p>
        </div>
      ) : (
        <FormField label={t('deposit.amountUsdt')} error={errors.amount?.message} help={help}>
          <InputWithAction {...inputProps} {...amountField(form.register('amount'))} action={maxButton} />
        </FormField>
      )}
    </div>
  );
}

/** USDT or rupees, as a pair of labelled radio buttons (a screen reader hears a choice of two, not a colour). */
function AmountUnitSwitch({ unit, onChange, rupeesReady }: { unit: AmountUnit; onChange: (unit: AmountUnit) => void; rupeesReady: boolean }) {
  const options: [AmountUnit, string][] = [
    ['usdt', t('withdraw.unitUsdt')],
    ['inr', t('withdraw.unitInr')],
  ];
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1.5 text-sm font-medium text-slate-700">{t('withdraw.amountIn')}</legend>
      <div className="grid grid-cols-2 gap-1 rounded-lg border border-slate-300 bg-slate-50 p-1">
        {options.map(([value, label]) => (
          <label key={value} className="relative">
            <input
              type="radio"
              name="withdraw-amount-unit"
              value={value}
              checked={unit === value}
              disabled={value === 'inr' && !rupeesReady}
              onChange={() => onChange(value)}
              className="peer absolute inset-0 z-10 m-0 cursor-pointer opacity-0"
            />
            <span className="flex h-10 cursor-pointer items-center justify-center gap-1.5 rounded-md text-sm font-medium text-slate-600 peer-checked:bg-white peer-checked:text-brand-900 peer-checked:shadow-sm peer-checked:ring-1 peer-checked:ring-brand-600 peer-focus-visible:outline-2 peer-focus-visible:outline-brand-600 peer-disabled:opacity-50">
              {unit === value && <span aria-hidden>✓</span>}
              {label}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The rupees (after TDS, as "You will receive" shows them) that a USDT amount pays, as the rupee field takes them. */
function rupeesPaidFor(usdtText: string, summary: WalletSummary, tdsBasisPoints: bigint): string {
  const preview = withdrawPreview(usdtText, summary, tdsBasisPoints);
  const netInrPaise = preview.breakdown?.netInrPaise ?? preview.quote?.amountInrPaise;
  return netInrPaise === undefined ? '' : inrPaiseToWire(netInrPaise);
}

/**
 * Withdrawals move whole cents; a balance with a smaller remainder (from a
 * deposit or a referral bonus) says so, so that Max is never a surprise.
 */
function amountHelp(minimumUsdt: string, balanceMicros: bigint): string {
  const minimum = t('withdraw.minimumHelp', { amount: displayUsdt(minimumUsdt) });
  const remainderMicros = balanceMicros % CENT_IN_MICROS;
  if (remainderMicros === 0n) return minimum;
  return t('withdraw.wholeCents', { minimum, remainder: formatUsdtExact(remainderMicros) });
}

const CENT_IN_MICROS = 10n ** BigInt(USDT_DECIMALS - WITHDRAWAL_DECIMALS);

/** An input with a button beside it; the id and aria attributes from FormField go to the input. */
function InputWithAction({ action, ...inputProps }: ComponentProps<typeof Input> & { action: ReactNode }) {
  return (
    <div className="flex gap-2">
      <Input className="min-w-0 flex-1" {...inputProps} />
      {action}
    </div>
  );
}
