/**
 * The only module that converts money between decimal strings and integers.
 * USDT is held as micro-USDT (6 decimals, the token's on-chain precision),
 * INR as paise, and rates as paise per 1 USDT. Every value is a bigint.
 */

export const USDT_DECIMALS = 6;
export const INR_DECIMALS = 2;
export const MICROS_PER_USDT = 1_000_000n;
export const PAISE_PER_RUPEE = 100n;

/** Longest decimal string we accept, so a huge input cannot cost much to parse. */
export const MAX_DECIMAL_STRING_LENGTH = 24;

export type DecimalParseFailure = 'empty' | 'not-a-number' | 'too-many-decimals' | 'too-large';
export type DecimalParseResult = { ok: true; value: bigint } | { ok: false; reason: DecimalParseFailure };

const DECIMAL_PATTERN = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

/**
 * Parses a non-negative decimal string such as "12.5" into an integer of the
 * given number of decimals ("12.5" with 2 decimals is 1250n). It never rounds:
 * more decimals than allowed is a failure, not a silent loss of money.
 */
export function parseDecimal(input: string, decimals: number, maxValue?: bigint): DecimalParseResult {
  const text = input.trim();
  if (text === '') return { ok: false, reason: 'empty' };
  if (text.length > MAX_DECIMAL_STRING_LENGTH) return { ok: false, reason: 'too-large' };
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return { ok: false, reason: 'not-a-number' };
  const wholePart = match[1] ?? '0';
  const fractionPart = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  if (fractionPart.length > decimals) return { ok: false, reason: 'too-many-decimals' };
  const value = BigInt(wholePart) * 10n ** BigInt(decimals) + BigInt(fractionPart.padEnd(decimals, '0') || '0');
  if (maxValue !== undefined && value > maxValue) return { ok: false, reason: 'too-large' };
  return { ok: true, value };
}

/** Formats an integer amount with the given number of stored decimals, truncating to `shownDecimals`. */
export function formatDecimal(value: bigint, decimals: number, shownDecimals: number = decimals): string {
  const negative = value < 0n;
  // The digits, padded to at least one whole digit, are cut into whole and fraction as text: exact,
  // and cheaper than dividing a bigint (lists format dozens of amounts per answer).
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0');
  const wholeLength = digits.length - decimals;
  const whole = digits.slice(0, wholeLength);
  const body = shownDecimals > 0 ? `${whole}.${digits.slice(wholeLength, wholeLength + shownDecimals).padEnd(shownDecimals, '0')}` : whole;
  return negative ? `-${body}` : body;
}

/** Largest USDT amount any single operation may carry: 1,000,000,000 USDT. */
export const MAX_USDT_MICROS = 1_000_000_000n * MICROS_PER_USDT;
/** Largest rate accepted: 100,000 INR per USDT. */
export const MAX_RATE_PAISE = 100_000n * PAISE_PER_RUPEE;

export function parseUsdtMicros(input: string, maxDecimals: number = USDT_DECIMALS): DecimalParseResult {
  const parsed = parseDecimal(input, maxDecimals, MAX_USDT_MICROS / 10n ** BigInt(USDT_DECIMALS - maxDecimals));
  if (!parsed.ok) return parsed;
  return { ok: true, value: parsed.value * 10n ** BigInt(USDT_DECIMALS - maxDecimals) };
}

export function parseRatePaise(input: string): DecimalParseResult {
  return parseDecimal(input, INR_DECIMALS, MAX_RATE_PAISE);
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

/** Display form of INR with the rupee sign and Indian digit grouping: ₹1,00,000.00. */
export function formatInrForDisplay(amountInrPaise: bigint): string {
  return `\u20b9${groupWhole(formatDecimal(amountInrPaise, INR_DECIMALS, 2), 'indian')}`;
}

/** USDT to the micro (all 6 of the token's decimals) with Indian digit grouping, as statements show it: 1,00,000.500000. */
export function formatUsdtIndian(amountUsdtMicros: bigint): string {
  return groupWhole(formatDecimal(amountUsdtMicros, USDT_DECIMALS), 'indian');
}

function groupWhole(decimalText: string, style: 'indian' | 'international'): string {
  const negative = decimalText.startsWith('-');
  const [whole = '0', fraction] = (negative ? decimalText.slice(1) : decimalText).split('.');
  let grouped: string;
  if (style === 'international' || whole.length <= 3) {
    grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  } else {
    const lastThree = whole.slice(-3);
    const rest = whole.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
    grouped = `${rest},${lastThree}`;
  }
  return `${negative ? '-' : ''}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
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
