import { formatUsdtExact, usdtMicrosFromWire } from '#shared/money';

/** Rewards are 0.1 % and 0.02 % of deposits, often less than a cent: every digit is shown. */
export function displayRewardUsdt(wire: string): string {
  return `${formatUsdtExact(usdtMicrosFromWire(wire))} USDT`;
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
