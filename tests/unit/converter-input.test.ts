import { describe, expect, it } from 'vitest';
import { formatInrForDisplay, inrPaiseForUsdt, parseUsdtMicros } from '#shared/money';
import { sanitizeUsdtInput, USDT_INPUT_MAX_LENGTH } from '../../src/web/features/rates/usdt-input.ts';

describe('sanitizeUsdtInput', () => {
  it('keeps digits and the first decimal point only', () => {
    expect(sanitizeUsdtInput('a1.2.3')).toBe('1.23');
    expect(sanitizeUsdtInput('1,000.50 USDT')).toBe('1000.50');
    expect(sanitizeUsdtInput('-5e3')).toBe('53');
    expect(sanitizeUsdtInput('..5')).toBe('.5');
    expect(sanitizeUsdtInput('')).toBe('');
  });

  it('allows at most 6 decimals and a bounded length', () => {
    expect(sanitizeUsdtInput('0.12345678')).toBe('0.123456');
    expect(sanitizeUsdtInput('9'.repeat(40))).toHaveLength(USDT_INPUT_MAX_LENGTH);
  });

  it('typed key by key gives the same result as pasted at once', () => {
    let value = '';
    for (const key of 'a1.2.3') value = sanitizeUsdtInput(value + key);
    expect(value).toBe('1.23');
  });
});

describe('converter arithmetic', () => {
  const convert = (usdt: string, ratePaise: bigint) => {
    const parsed = parseUsdtMicros(usdt);
    if (!parsed.ok) throw new Error(parsed.reason);
    return formatInrForDisplay(inrPaiseForUsdt(parsed.value, ratePaise));
  };

  it('converts with Indian grouping and 2 decimals, never rounding up', () => {
    expect(convert('100', 8300n)).toBe('\u20b98,300.00');
    expect(convert('100', 8325n)).toBe('\u20b98,325.00');
    expect(convert('1.23', 8300n)).toBe('\u20b9102.09');
    expect(convert('1234.5678', 8650n)).toBe('\u20b91,06,790.11');
    expect(convert('0.000001', 8300n)).toBe('\u20b90.00');
  });
});
