import type { TransactionType } from '#shared/contracts/transactions';
import { formatInrForDisplay, formatUsdtForDisplay, formatUsdtShort, inrPaiseFromWire, usdtMicrosFromWire } from '#shared/money';
import type { VipLevel } from '#shared/contracts/enums';

/** "1,234.50 USDT" from a wire amount; the value stays a string or bigint all the way. */
export function usdtText(wire: string): string {
  return `${formatUsdtForDisplay(usdtMicrosFromWire(wire))} USDT`;
}

/**
 * The full amount ("42.123456 USDT") when it has more than the 2 decimals shown
 * everywhere else, so an admin can match a deposit against the chain; otherwise undefined.
 */
export function exactUsdtText(wire: string): string | undefined {
  const exact = formatUsdtShort(usdtMicrosFromWire(wire));
  const decimals = exact.split('.')[1]?.length ?? 0;
  return decimals > 2 ? `${exact} USDT` : undefined;
}

/** "₹1,00,000.00" from a wire amount. */
export function inrText(wire: string): string {
  return formatInrForDisplay(inrPaiseFromWire(wire));
}

export function amountText(wire: string, currency: 'USDT' | 'INR'): string {
  return currency === 'INR' ? `${inrText(wire)} INR` : usdtText(wire);
}

const shortDateTime = new Intl.DateTimeFormat('en-IN', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
const fullDateTime = new Intl.DateTimeFormat('en-IN', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Short month, day, hour and minute, e.g. "5 Mar, 02:30 pm". */
export function shortDateTimeText(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : shortDateTime.format(date);
}

export function fullDateTimeText(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : fullDateTime.format(date);
}

export const TRANSACTION_TYPE_LABELS: Record<TransactionType, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  transfer: 'Transfer',
  referral_bonus: 'Referral bonus',
};

export const VIP_LEVEL_LABELS: Record<VipLevel, string> = {
  normal: 'Normal',
  vip: 'VIP',
  vip1: 'VIP 1',
  vip2: 'VIP 2',
  vip3: 'VIP 3',
};

export const ROLE_LABELS = { user: 'User', admin: 'Admin' } as const;

/** How long ago `sinceIso` was at `nowIso`, in the two largest units: "45 min", "3 h 20 min", "2 d 4 h". */
export function ageText(sinceIso: string, nowIso: string): string {
  const minutes = Math.max(0, Math.floor((Date.parse(nowIso) - Date.parse(sinceIso)) / 60_000));
  if (Number.isNaN(minutes)) return '';
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}
