import { useId, useState } from 'react';
import { formatInrForDisplay, inrPaiseForUsdt, parseUsdtMicros } from '#shared/money';
import { useTranslation } from '../../lib/i18n/i18n.ts';
import { useDisplayRates } from './api.ts';
import { sanitizeUsdtInput, USDT_INPUT_MAX_LENGTH } from './usdt-input.ts';

export const CONVERTER_DEFAULT_USDT = '100';

function ConversionResult({
  label,
  amountUsdtMicros,
  ratePaise,
  testId,
}: {
  label: string;
  amountUsdtMicros: bigint | undefined;
  ratePaise: bigint | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  const known = amountUsdtMicros !== undefined && ratePaise !== undefined;
  return (
    <div className="rounded-xl bg-slate-50 p-3">
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="break-all text-xl font-bold tabular-nums text-slate-900" data-testid={testId}>
        {known ? formatInrForDisplay(inrPaiseForUsdt(amountUsdtMicros, ratePaise)) : '\u2026'}
      </p>
      <p className="text-xs text-slate-500" data-testid={`${testId}-rate`}>
        {ratePaise === undefined ? '\u00a0' : t('rates.perUsdt', { rate: formatInrForDisplay(ratePaise) })}
      </p>
    </div>
  );
}

/** USDT to INR at the Standard and VIP rates, computed in integers (micro-USDT x paise). */
export function Converter({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const inputId = useId();
  const { rates } = useDisplayRates();
  const [typed, setTyped] = useState(CONVERTER_DEFAULT_USDT);
  const parsed = parseUsdtMicros(typed === '' || typed === '.' ? '0' : typed);
  const amountUsdtMicros = parsed.ok ? parsed.value : undefined;

  return (
    <section aria-labelledby={`${inputId}-title`} className={`rounded-2xl border border-slate-200 bg-white p-5 shadow-sm ${className}`}>
      <h2 id={`${inputId}-title`} className="text-lg font-semibold">
        {t('rates.converterTitle')}
      </h2>
      <label htmlFor={inputId} className="mt-3 block text-sm font-medium text-slate-700">
        {t('rates.usdtAmount')}
      </label>
      <input
        id={inputId}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        maxLength={USDT_INPUT_MAX_LENGTH}
        value={typed}
        onChange={(event) => setTyped(sanitizeUsdtInput(event.target.value))}
        className="mt-1 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base tabular-nums"
        aria-describedby={parsed.ok ? undefined : `${inputId}-error`}
      />
      {!parsed.ok && (
        <p id={`${inputId}-error`} className="mt-1 text-sm text-red-600">
          {t('rates.amountTooLarge')}
        </p>
      )}
      <div className="mt-4 grid grid-cols-2 gap-3">
        <ConversionResult label={t('home.standardRate')} amountUsdtMicros={amountUsdtMicros} ratePaise={rates?.normalRatePaise} testId="converter-standard" />
        <ConversionResult label={t('home.vipRate')} amountUsdtMicros={amountUsdtMicros} ratePaise={rates?.vipRatePaise} testId="converter-vip" />
      </div>
    </section>
  );
}
