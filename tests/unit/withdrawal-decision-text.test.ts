import { describe, expect, it } from 'vitest';
import type { AdminWithdrawal } from '#shared/contracts/withdrawals';
import { describeWithdrawalDecision } from '../../src/web/features/admin/withdrawal-decision-text.ts';

const withdrawal = {
  amountInr: '8300.00',
  netInr: '8300.00',
  tdsInr: '0.00',
  tdsPercent: '0.00',
  amountUsdt: '100.000000',
  user: { name: 'Asha Rao', email: 'asha@example.com' },
  bank: { accountHolderName: 'Asha Rao', bankName: 'State Bank of India', accountNumber: '123456789012', ifscCode: 'SBIN0001234' },
} as unknown as AdminWithdrawal;

describe('the withdrawal approve dialog’s text', () => {
  it('without a payout provider, asks that the payment was made by hand first', () => {
    expect(describeWithdrawalDecision(withdrawal, 'approve', false)).toBe(
      'Approve only after ₹8,300.00 has been paid to Asha Rao, State Bank of India account 123456789012 (IFSC SBIN0001234).',
    );
  });

  it('with a payout provider, says the approval sends the payout, and how a payment made by hand is recorded instead', () => {
    const text = describeWithdrawalDecision(withdrawal, 'approve', true);
    expect(text).toBe(
      'Approving sends ₹8,300.00 to Asha Rao, State Bank of India account 123456789012 (IFSC SBIN0001234) through the payout provider at once; it is marked paid when the bank confirms it with a UTR. If you already paid it by hand, enter that payment’s UTR instead.',
    );
    expect(text).not.toContain('Approve only after');
  });

  it('a reject returns the held USDT, with or without a provider', () => {
    for (const viaProvider of [false, true])
      expect(describeWithdrawalDecision(withdrawal, 'reject', viaProvider)).toBe(
        'The 100.00 USDT held for this withdrawal of ₹8,300.00 will be returned to the wallet of Asha Rao (asha@example.com).',
      );
  });
});
