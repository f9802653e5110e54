import { describe, expect, it } from 'vitest';
import { actionLabel, actionTone, changesOf, fieldLabel, valueText } from '../../src/web/features/admin/audit-log-format.ts';

describe('the audit log as a person reads it', () => {
  it('labels actions and fields instead of their stored names', () => {
    expect(actionLabel('withdrawal.reject')).toBe('Withdrawal rejected');
    expect(actionLabel('something.new')).toBe('something.new');
    expect(fieldLabel('amountUsdtMicros')).toBe('Amount');
    expect(fieldLabel('vipLevel')).toBe('VIP level');
    expect(fieldLabel('someNewField')).toBe('Some new field');
  });

  it('formats amounts in their units and closed sets in words', () => {
    expect(valueText('amountUsdtMicros', '12500000')).toBe('12.50 USDT');
    expect(valueText('amountUsdtMicros', '1234567')).toBe('1.234567 USDT');
    expect(valueText('amountInrPaise', '10000000')).toBe('₹1,00,000.00');
    expect(valueText('normalRate', '83.50')).toBe('₹83.50 per USDT');
    expect(valueText('minDeposit', '15.000000')).toBe('15.00 USDT');
    expect(valueText('vipLevel', 'vip2')).toBe('VIP 2');
    expect(valueText('reason', '')).toBe('—');
    expect(valueText('amountUsdtMicros', 'not digits')).toBe('not digits');
  });

  it('leaves unchanged fields out and keeps new values of a decision', () => {
    expect(changesOf({ role: 'user', vipLevel: 'normal' }, { role: 'user', vipLevel: 'vip' })).toEqual([
      { field: 'vipLevel', label: 'VIP level', before: 'Normal', after: 'VIP' },
    ]);
    expect(changesOf({ status: 'pending' }, { status: 'approved', amountUsdtMicros: '5000000' })).toEqual([
      { field: 'status', label: 'Status', before: 'Pending', after: 'Approved' },
      { field: 'amountUsdtMicros', label: 'Amount', before: undefined, after: '5.00 USDT' },
    ]);
    expect(changesOf(null, null)).toEqual([]);
  });

  it('colours rejections apart from approvals', () => {
    expect(actionTone('deposit.approve')).toBe('approval');
    expect(actionTone('transfer.reject')).toBe('rejection');
    expect(actionTone('settings.update')).toBe('neutral');
  });
});
