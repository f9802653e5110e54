import { describe, expect, it } from 'vitest';
import { tdsInrPaiseFor, type WithdrawalLimits } from '#shared/contracts/withdrawal-rules';
import { quoteWithdrawal, usdtMicrosForNetInr } from '#shared/contracts/withdrawals';
import type { WalletSummary } from '#shared/contracts/wallet';
import { MICROS_PER_USDT, parseUsdtMicros } from '#shared/money';
import { requestedUsdtMicros, withdrawFormSchema, type WithdrawForm } from '../../src/web/features/wallet/withdraw-form-rules.ts';

// Issue 31, section 5: the customer types the rupees to receive after TDS; the USDT needed is the fewest
// whole cents whose withdrawal, priced by quoteWithdrawal and the server's TDS rule, pays at least that.

const RATES = { rateNormalInrPaise: 8_300n, rateVipInrPaise: 8_325n };
const CENT = MICROS_PER_USDT / 100n;

function usdt(text: string): bigint {
  const parsed = parseUsdtMicros(text);
  if (!parsed.ok) throw new Error(text);
  return parsed.value;
}

function netPaid(amountUsdtMicros: bigint, vipLevel: string, tdsBasisPoints: bigint, rates = RATES): bigint {
  const gross = quoteWithdrawal(amountUsdtMicros, rates, vipLevel).amountInrPaise;
  return gross - tdsInrPaiseFor(gross, tdsBasisPoints);
}

/** The amount pays the rupees asked for, and one cent less would not. */
function expectFewestCentsPaying(netInrPaise: bigint, vipLevel: string, tdsBasisPoints: bigint, rates = RATES): bigint {
  const amount = usdtMicrosForNetInr(netInrPaise, rates, vipLevel, tdsBasisPoints);
  if (amount === undefined) throw new Error('no amount');
  expect(amount % CENT).toBe(0n);
  expect(netPaid(amount, vipLevel, tdsBasisPoints, rates)).toBeGreaterThanOrEqual(netInrPaise);
  expect(netPaid(amount - CENT, vipLevel, tdsBasisPoints, rates)).toBeLessThan(netInrPaise);
  return amount;
}

describe('the USDT needed for rupees typed', () => {
  it('rounds up to the cent so the customer never receives less than typed', () => {
    // ₹1,000 at 83.00: 12.04 USDT pays ₹999.32, 12.05 USDT pays ₹1,000.15.
    expect(expectFewestCentsPaying(100_000n, 'normal', 0n)).toBe(usdt('12.05'));
    // An exact multiple needs no rounding: ₹830 is 10.00 USDT.
    expect(expectFewestCentsPaying(83_000n, 'normal', 0n)).toBe(usdt('10'));
    // One paisa: one cent.
    expect(expectFewestCentsPaying(1n, 'normal', 0n)).toBe(usdt('0.01'));
  });

  it('counts the TDS withheld, rounded as the server rounds it', () => {
    // ₹1,000 net at 1% TDS needs a gross of ₹1,010.11 (TDS ₹10.10): 12.17 USDT pays ₹1,010.11.
    const amount = expectFewestCentsPaying(100_000n, 'normal', 100n);
    expect(amount).toBe(usdt('12.17'));
    for (const netInrPaise of [1n, 99n, 12_345n, 164_340n, 2_500_001n, 9_999_999n]) {
      for (const tdsBasisPoints of [0n, 1n, 100n, 150n, 3_000n]) expectFewestCentsPaying(netInrPaise, 'normal', tdsBasisPoints);
    }
  });

  it('prices a VIP customer at the VIP rate', () => {
    const vip = expectFewestCentsPaying(100_000n, 'vip', 0n);
    // ₹1,000 at 83.25: 12.02 USDT pays ₹1,000.66 (12.01 pays ₹999.83).
    expect(vip).toBe(usdt('12.02'));
    expect(vip).toBeLessThan(usdtMicrosForNetInr(100_000n, RATES, 'normal', 0n) ?? 0n);
  });

  it('gives a normal customer the VIP rate from 1 Lakh at the normal rate, as quoteWithdrawal does', () => {
    // ₹1,00,050 needs 1,201.81 USDT at the VIP rate, but that much is only ₹99,750.23 at the normal rate (no VIP rate);
    // the first amount worth 1 Lakh at the normal rate, 1,204.82 USDT, gets the VIP rate and pays ₹1,00,301.26.
    const amount = expectFewestCentsPaying(10_005_000n, 'normal', 0n);
    expect(amount).toBe(usdt('1204.82'));
    expect(quoteWithdrawal(amount, RATES, 'normal').rateTier).toBe('vip');
    // Below the step the normal rate prices it.
    const below = expectFewestCentsPaying(9_990_000n, 'normal', 0n);
    expect(quoteWithdrawal(below, RATES, 'normal').rateTier).toBe('normal');
  });

  it('has no amount for nothing, or without a rate', () => {
    expect(usdtMicrosForNetInr(0n, RATES, 'normal', 0n)).toBeUndefined();
    expect(usdtMicrosForNetInr(100n, { rateNormalInrPaise: 0n, rateVipInrPaise: 0n }, 'normal', 0n)).toBeUndefined();
  });
});

const SUMMARY = {
  balanceUsdt: '100.000000',
  balanceInrEstimate: '8300.00',
  pendingDepositsUsdt: '0.000000',
  pendingWithdrawalsUsdt: '0.000000',
  pendingWithdrawalsInr: '0.00',
  pendingTransfersOutUsdt: '0.000000',
  rates: { normalInr: '83.00', vipInr: '83.25' },
  rateTier: 'normal',
  vipThresholdInr: '100000.00',
  minDepositUsdt: '10.000000',
  minWithdrawalUsdt: '1.000000',
  depositAddresses: { TRC20: 'T', ERC20: '0x' },
} satisfies WalletSummary;

const LIMITS = {
  tier: 'normal',
  minUsdt: '5.000000',
  maxUsdt: '50.000000',
  daily: { limitUsdt: null, usedUsdt: '0.000000', leftUsdt: null },
  monthly: { limitUsdt: null, usedUsdt: '0.000000', leftUsdt: null },
  availableUsdt: '50.000000',
  tdsPercent: '1.00',
  hasPan: true,
  panRequired: false,
} satisfies WithdrawalLimits;

function refusalOf(values: Partial<WithdrawForm>, limits: WithdrawalLimits | undefined = LIMITS): Record<string, string | undefined> {
  const form: WithdrawForm = { unit: 'inr', amount: '', amountInr: '', bankAccountId: 'account', ...values };
  const result = withdrawFormSchema(100n * MICROS_PER_USDT, limits, SUMMARY, limits ? 100n : 0n).safeParse(form);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message]));
}

describe('the withdraw form in rupees', () => {
  it('computes the USDT the request carries from the rupees typed, with the TDS of the limits', () => {
    expect(requestedUsdtMicros({ unit: 'inr', amount: '', amountInr: '1000' }, SUMMARY, 100n)).toBe(usdt('12.17'));
    expect(requestedUsdtMicros({ unit: 'usdt', amount: '12.17', amountInr: '1000' }, SUMMARY, 100n)).toBe(usdt('12.17'));
    expect(requestedUsdtMicros({ unit: 'inr', amount: '', amountInr: '10.005' }, SUMMARY, 100n)).toBeUndefined();
  });

  it('says the minimum, the maximum and the balance at the rupee field', () => {
    expect(refusalOf({ amountInr: '1000' })).toEqual({});
    // ₹300 needs 3.66 USDT, under the 5.00 USDT minimum.
    expect(refusalOf({ amountInr: '300' })).toEqual({ amountInr: 'The minimum withdrawal is 5.00 USDT.' });
    // ₹5,000 needs 60.85 USDT, over the 50.00 USDT maximum.
    expect(refusalOf({ amountInr: '5000' })).toEqual({ amountInr: 'The maximum withdrawal is 50.00 USDT.' });
    // ₹9,000 needs more than the 100.00 USDT balance.
    expect(refusalOf({ amountInr: '9000' }, undefined)).toEqual({ amountInr: 'Insufficient balance' });
    expect(refusalOf({ amountInr: 'abc' })).toEqual({ amountInr: 'Please enter a valid amount' });
    expect(refusalOf({ amountInr: '0' })).toEqual({ amountInr: 'Please enter a valid amount' });
  });

  it('keeps the USDT field and its messages as they were', () => {
    expect(refusalOf({ unit: 'usdt', amount: '20' })).toEqual({});
    expect(refusalOf({ unit: 'usdt', amount: '0.5' }, undefined)).toEqual({ amount: 'Minimum withdrawal is 1.00 USDT' });
    expect(refusalOf({ unit: 'usdt', amount: '200' })).toEqual({ amount: 'Insufficient balance' });
    expect(refusalOf({ unit: 'usdt', amount: '20', bankAccountId: '' })).toEqual({ bankAccountId: 'Please select a bank account' });
  });
});
