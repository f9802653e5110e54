import { parseUsdtMicros } from '../../../shared/money.ts';

/** A wire amount that a request schema already validated; failing here is a bug, not bad input. */
export function validatedUsdtMicros(amount: string, decimals?: number): bigint {
  const parsed = parseUsdtMicros(amount, decimals);
  if (!parsed.ok) throw new Error(`amount passed validation but does not parse: ${parsed.reason}`);
  return parsed.value;
}
