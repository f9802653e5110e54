import { describe, expect, it } from 'vitest';
import { isLargeRateChange, largeRateChangeMessage, rateChangePercentText, updateSettingsRequestSchema } from '#shared/contracts/settings';

describe('a rate change that needs confirmation', () => {
  it('is more than 5% of the current rate, in either direction; exactly 5% is not', () => {
    expect(isLargeRateChange(8300n, 8715n)).toBe(false);
    expect(isLargeRateChange(8300n, 8716n)).toBe(true);
    expect(isLargeRateChange(8300n, 7885n)).toBe(false);
    expect(isLargeRateChange(8300n, 7884n)).toBe(true);
    expect(isLargeRateChange(8300n, 8300n)).toBe(false);
    // Large rates stay exact: bigint arithmetic.
    expect(isLargeRateChange(9_007_199_254_740_993n, 9_457_559_217_478_043n)).toBe(true);
  });

  it('reads as a signed percentage with 2 decimals, cut, not rounded', () => {
    expect(rateChangePercentText(8350n, 9000n)).toBe('+7.78%');
    expect(rateChangePercentText(8300n, 7000n)).toBe('-15.66%');
    expect(rateChangePercentText(8300n, 8300n)).toBe('+0.00%');
  });

  it('names the rate and the change', () => {
    expect(largeRateChangeMessage('normalRate', '83.50', '90.00')).toBe('Normal rate changes by more than 5% (83.50 → 90.00). Confirm to save it.');
  });
});

describe('the settings contract', () => {
  const form = {
    normalRate: '84.00',
    vipRate: '84.00',
    trc20Address: '',
    erc20Address: '',
    whatsappSupportNumber: '',
    websiteUrl: '',
    minDeposit: '10',
    expectedUpdatedAt: '2026-01-01T00:00:00.000Z',
  };

  it('puts a VIP rate below the normal rate at the vipRate field', () => {
    const result = updateSettingsRequestSchema.safeParse({ ...form, vipRate: '83.99' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['vipRate'], message: 'VIP rate cannot be lower than the normal rate' })]);
    expect(updateSettingsRequestSchema.safeParse(form).success).toBe(true);
  });
});
