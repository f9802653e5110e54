import { describe, expect, it } from 'vitest';
import { accountFailureOf } from '../../src/server/features/bank-accounts/payee-flags.ts';

describe('the account reasons a payout failure can name (decision 044)', () => {
  it.each([
    ['Payout failed as the beneficiary account is closed.', 'Account closed'],
    ['account_closed', 'Account closed'],
    ['Invalid beneficiary account number', 'Account number invalid or not found'],
    ['The beneficiary account is frozen', 'Account frozen or blocked'],
    ['A/C dormant', 'Account dormant or inoperative'],
    ['Invalid IFSC code', 'IFSC invalid'],
    ['Payout failed: invalid VPA', 'UPI ID invalid'],
    ['invalid_vpa', 'UPI ID invalid'],
    ['Beneficiary name mismatch', 'Account holder name does not match'],
  ])('%s is about the account: %s', (reason, label) => {
    expect(accountFailureOf(reason)).toBe(label);
  });

  it.each(['Beneficiary bank systems are offline', 'Cancelled: insufficient balance.', 'IMPS timeout', '', null, undefined])(
    '%s says nothing about the account',
    (reason) => {
      expect(accountFailureOf(reason)).toBeUndefined();
    },
  );
});
