/**
 * The core of src/shared/money.ts, which re-exports all of it: decimal text to integers and back,
 * and what the landing page's rate card needs (a rate read from the wire, rupees shown). Kept apart
 * so that the landing page's first JavaScript (tests/bundle) carries only these, not every
 * conversion the signed-in pages use. Import from '#shared/money' elsewhere.
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

/** Largest rate accepted: 100,000 INR per USDT. */
export const MAX_RATE_PAISE = 100_000n * PAISE_PER_RUPEE;

export function parseRatePaise(input: string): DecimalParseResult {
  return parseDecimal(input, INR_DECIMALS, MAX_RATE_PAISE);
}

/** Display form of INR with the rupee sign and Indian digit grouping: ₹1,00,000.00. */
export function formatInrForDisplay(amountInrPaise: bigint): string {
  return `\u20b9${groupWhole(formatDecimal(amountInrPaise, INR_DECIMALS, 2), 'indian')}`;
}

export function groupWhole(decimalText: string, style: 'indian' | 'international'): string {
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
