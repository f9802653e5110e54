import { USDT_DECIMALS } from '#shared/money';

/** Enough for 1,000,000,000 USDT with all 6 decimals; a longer entry cannot be a real amount. */
export const USDT_INPUT_MAX_LENGTH = 17;

/**
 * What the converter keeps of a typed amount: digits and the first decimal
 * point only, at most 6 decimals ('a1.2.3' becomes '1.23').
 */
export function sanitizeUsdtInput(typed: string): string {
  const kept = typed.replace(/[^\d.]/g, '');
  const point = kept.indexOf('.');
  const cleaned =
    point < 0
      ? kept
      : `${kept.slice(0, point + 1)}${kept
          .slice(point + 1)
          .replace(/\./g, '')
          .slice(0, USDT_DECIMALS)}`;
  return cleaned.slice(0, USDT_INPUT_MAX_LENGTH);
}
