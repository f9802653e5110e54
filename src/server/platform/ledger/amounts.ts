import { parseInrPaise, parseUsdtMicros } from '#shared/money';

/** A wire amount that a request schema already validated; failing here is a bug, not bad input. */
export function validatedUsdtMicros(amount: string, decimals?: number): bigint {
  const parsed = parseUsdtMicros(amount, decimals);
  if (!parsed.ok) throw new Error(`amount passed validation but does not parse: ${parsed.reason}`);
  return parsed.value;
}

/** A wire INR amount that a request schema already validated; failing here is a bug, not bad input. */
export function validatedInrPaise(amount: string): bigint {
  const parsed = parseInrPaise(amount);
  if (!parsed.ok) throw new Error(`INR amount passed validation but does not parse: ${parsed.reason}`);
  return parsed.value;
}
