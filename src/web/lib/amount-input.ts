import type { UseFormRegisterReturn } from 'react-hook-form';
import { sanitizeUsdtInput } from '../features/rates/usdt-input.ts';

/**
 * A registered amount field that keeps only digits and one decimal point, as
 * the converter does: a pasted "1,000.50" becomes "1000.50". Extra decimals
 * are kept for the form's rule to refuse with its message, never cut silently.
 */
export function amountField<Name extends string>(field: UseFormRegisterReturn<Name>): UseFormRegisterReturn<Name> {
  return {
    ...field,
    onChange: (event: { target: unknown; type?: unknown }) => {
      const input = event.target;
      if (input instanceof HTMLInputElement) {
        const cleaned = sanitizeUsdtInput(input.value);
        if (cleaned !== input.value) input.value = cleaned;
      }
      return field.onChange(event);
    },
  };
}
