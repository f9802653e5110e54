import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatDecimal,
  formatInrForDisplay,
  formatUsdtExact,
  formatUsdtForDisplay,
  inrPaiseForUsdt,
  parseDecimal,
  parseRatePaise,
  parseUsdtMicros,
  usdtMicrosFromWire,
  usdtMicrosToWire,
} from '#shared/money';

describe('parseDecimal', () => {
  it.each([
    ['12', 2, 1200n],
    ['12.5', 2, 1250n],
    ['12.50', 2, 1250n],
    ['0.01', 2, 1n],
    ['.5', 2, 50n],
    ['7.', 2, 700n],
    ['  3.25 ', 2, 325n],
    ['1.230000', 2, 123n],
  ])('reads %j with %i decimals as %s', (input, decimals, expected) => {
    expect(parseDecimal(input, decimals)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['', 'empty'],
    ['abc', 'not-a-number'],
    ['-1', 'not-a-number'],
    ['1e5', 'not-a-number'],
    ['1.2.3', 'not-a-number'],
    ['0x10', 'not-a-number'],
    ['1.234', 'too-many-decimals'],
    ['9'.repeat(30), 'too-large'],
  ])('refuses %j (%s) rather than rounding', (input, reason) => {
    expect(parseDecimal(input, 2)).toEqual({ ok: false, reason });
  });
});

describe('USDT amounts', () => {
  it('keeps 6 decimals exactly and refuses a 7th', () => {
    expect(parseUsdtMicros('0.000001')).toEqual({ ok: true, value: 1n });
    expect(parseUsdtMicros('0.0000001')).toEqual({ ok: false, reason: 'too-many-decimals' });
  });

  it('limits withdrawals to 2 decimals while still counting in micros', () => {
    expect(parseUsdtMicros('12.34', 2)).toEqual({ ok: true, value: 12_340_000n });
    expect(parseUsdtMicros('12.345', 2)).toEqual({ ok: false, reason: 'too-many-decimals' });
  });

  it('refuses amounts above one billion USDT', () => {
    expect(parseUsdtMicros('1000000000.000001')).toEqual({ ok: false, reason: 'too-large' });
  });

  it('round-trips every amount through its wire form', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (micros) => {
        expect(usdtMicrosFromWire(usdtMicrosToWire(micros))).toBe(micros);
        const parsed = parseUsdtMicros(usdtMicrosToWire(micros));
        expect(parsed.ok && parsed.value).toBe(micros);
      }),
    );
  });

  it('formats any amount, negative ones too, as its whole part and its first decimals, truncated', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 8 }),
        (value, decimals, shownDecimals) => {
          const absolute = value < 0n ? -value : value;
          const scale = 10n ** BigInt(decimals);
          const fraction = (absolute % scale).toString().padStart(decimals, '0').slice(0, shownDecimals).padEnd(shownDecimals, '0');
          const expected = `${value < 0n ? '-' : ''}${absolute / scale}${shownDecimals > 0 ? `.${fraction}` : ''}`;
          expect(formatDecimal(value, decimals, shownDecimals)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
    expect(formatDecimal(5n, 6)).toBe('0.000005');
    expect(formatDecimal(-1_500_000n, 6, 2)).toBe('-1.50');
    expect(formatDecimal(1234n, 0)).toBe('1234');
  });

  it('shows 2 decimals, truncated, with thousands separators', () => {
    expect(formatUsdtForDisplay(1_234_567_891_000n)).toBe('1,234,567.89');
    expect(formatUsdtForDisplay(999_999n)).toBe('0.99');
  });

  it('shows every digit of an amount that is not whole cents, and 2 decimals otherwise', () => {
    expect(formatUsdtExact(1_234_567_890_000n)).toBe('1,234,567.89');
    expect(formatUsdtExact(10_555_000n)).toBe('10.555');
    expect(formatUsdtExact(999_999n)).toBe('0.999999');
    expect(formatUsdtExact(200n)).toBe('0.0002');
    expect(formatUsdtExact(5_000_000n)).toBe('5.00');
    expect(formatUsdtExact(-1_500_000n)).toBe('-1.50');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (micros) => {
        expect(usdtMicrosFromWire(formatUsdtExact(micros).replaceAll(',', ''))).toBe(micros);
      }),
    );
  });
});

describe('INR conversion', () => {
  it('floors micro-USDT times paise per USDT to whole paise', () => {
    expect(inrPaiseForUsdt(100_000_000n, 8300n)).toBe(830_000n);
    expect(inrPaiseForUsdt(1n, 8325n)).toBe(0n);
    expect(inrPaiseForUsdt(1_010_000n, 8325n)).toBe(8408n);
  });

  it('never gives more than the exact value, and never a paisa less', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10_000_000n }), (micros, rate) => {
        const paise = inrPaiseForUsdt(micros, rate);
        expect(paise * 1_000_000n <= micros * rate).toBe(true);
        expect((paise + 1n) * 1_000_000n > micros * rate).toBe(true);
      }),
    );
  });

  it('parses rates with at most 2 decimals', () => {
    expect(parseRatePaise('83.25')).toEqual({ ok: true, value: 8325n });
    expect(parseRatePaise('83.255')).toEqual({ ok: false, reason: 'too-many-decimals' });
  });

  it('shows rupees with Indian digit grouping', () => {
    expect(formatInrForDisplay(10_000_000n)).toBe('\u20b91,00,000.00');
    expect(formatInrForDisplay(123_456_789_05n)).toBe('\u20b912,34,56,789.05');
    expect(formatInrForDisplay(99_950n)).toBe('\u20b9999.50');
  });
});
