import { formatDecimal, formatUsdtForDisplay, USDT_DECIMALS, usdtMicrosFromWire } from '../../../shared/money.ts';

/**
 * Rewards are 0.1 % and 0.02 % of deposits, often less than a cent: shown with
 * 2 decimals as every USDT amount, plus the further digits when there are any.
 */
export function displayRewardUsdt(wire: string): string {
  const amountUsdtMicros = usdtMicrosFromWire(wire);
  const furtherDigits = formatDecimal(amountUsdtMicros, USDT_DECIMALS).slice(-(USDT_DECIMALS - 2)).replace(/0+$/, '');
  return `${formatUsdtForDisplay(amountUsdtMicros)}${furtherDigits} USDT`;
}

const dateFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });

export function displayReferralDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

/** The link a friend signs up with: this app's origin, so it works wherever the app is served. */
export function referralLink(code: string): string {
  return `${window.location.origin}/signup?ref=${encodeURIComponent(code)}`;
}
