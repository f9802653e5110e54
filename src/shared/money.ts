/**
 * The only module that converts money between decimal strings and integers.
 * USDT is held as micro-USDT (6 decimals, the token's on-chain precision),
 * INR as paise, and rates as paise per 1 USDT. Every value is a bigint.
 */

export * from './money-core.ts';
import { formatDecimal, groupWhole, INR_DECIMALS, MICROS_PER_USDT, parseDecimal, USDT_DECIMALS, type DecimalParseResult } from './money-core.ts';

/** Largest USDT amount any single operation may carry: 1,000,000,000 USDT. */
export const MAX_USDT_MICROS = 1_000_000_000n * MICROS_PER_USDT;
export function parseUsdtMicros(input: string, maxDecimals: number = USDT_DECIMALS): DecimalParseResult {
  const parsed = parseDecimal(input, maxDecimals, MAX_USDT_MICROS / 10n ** BigInt(USDT_DECIMALS - maxDecimals));
  if (!parsed.ok) return parsed;
  return { ok: true, value: parsed.value * 10n ** BigInt(USDT_DECIMALS - maxDecimals) };
}

export function parseInrPaise(input: string): DecimalParseResult {
  return parseDecimal(input, INR_DECIMALS);
}

/** Full-precision wire form of a USDT amount ("12.5" stays exact: "12.500000"). */
export function usdtMicrosToWire(amountUsdtMicros: bigint): string {
  return formatDecimal(amountUsdtMicros, USDT_DECIMALS);
}

export function inrPaiseToWire(amountInrPaise: bigint): string {
  return formatDecimal(amountInrPaise, INR_DECIMALS);
}

export function ratePaiseToWire(ratePaise: bigint): string {
  return formatDecimal(ratePaise, INR_DECIMALS);
}

/** INR for a USDT amount at a rate: floor(micros x rate / 1e6), never in the customer's disfavour by more than a paisa. */
export function inrPaiseForUsdt(amountUsdtMicros: bigint, rateInrPaise: bigint): bigint {
  return (amountUsdtMicros * rateInrPaise) / MICROS_PER_USDT;
}

/** Display form of USDT: 2 decimals, truncated, with thousands separators. */
export function formatUsdtForDisplay(amountUsdtMicros: bigint): string {
  return groupWhole(formatDecimal(amountUsdtMicros, USDT_DECIMALS, 2), 'international');
}

/**
 * Display form of USDT that never hides money: 2 decimals for whole cents, and
 * every further digit when there is one ("10.555", "0.0002"), with thousands separators.
 */
export function formatUsdtExact(amountUsdtMicros: bigint): string {
  const full = formatDecimal(amountUsdtMicros, USDT_DECIMALS);
  const [whole = '0', fraction = ''] = full.split('.');
  const shownFraction = fraction.replace(/0+$/, '').padEnd(2, '0');
  return groupWhole(`${whole}.${shownFraction}`, 'international');
}

/** USDT to the micro (all 6 of the token's decimals) with Indian digit grouping, as statements show it: 1,00,000.500000. */
export function formatUsdtIndian(amountUsdtMicros: bigint): string {
  return groupWhole(formatDecimal(amountUsdtMicros, USDT_DECIMALS), 'indian');
}

/** Reads a wire amount that the server produced; a malformed one is a bug, so it throws. */
export function usdtMicrosFromWire(wire: string): bigint {
  const parsed = parseDecimal(wire.startsWith('-') ? wire.slice(1) : wire, USDT_DECIMALS);
  if (!parsed.ok) throw new Error(`Malformed USDT amount from server: ${wire}`);
  return wire.startsWith('-') ? -parsed.value : parsed.value;
}

export function inrPaiseFromWire(wire: string): bigint {
  const parsed = parseDecimal(wire.startsWith('-') ? wire.slice(1) : wire, INR_DECIMALS);
  if (!parsed.ok) throw new Error(`Malformed INR amount from server: ${wire}`);
  return wire.startsWith('-') ? -parsed.value : parsed.value;
}

/** Shortest exact form of an amount for messages ("10", "10.5"): no trailing zeros. */
export function formatDecimalShort(value: bigint, decimals: number): string {
  const full = formatDecimal(value, decimals);
  return full.includes('.') ? full.replace(/\.?0+$/, '') : full;
}

export function formatUsdtShort(amountUsdtMicros: bigint): string {
  return formatDecimalShort(amountUsdtMicros, USDT_DECIMALS);
}

/** Part of an amount in basis points (1 bp = 0.01 %), rounded down: rewards never pay more than their rate. */
export function basisPointsOf(amount: bigint, basisPoints: bigint): bigint {
  return (amount * basisPoints) / 10_000n;
}
