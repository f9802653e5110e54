import { formatInrForDisplay, formatUsdtExact, inrPaiseFromWire, usdtMicrosFromWire } from '#shared/money';

/**
 * Display helpers for amounts as the API sends them (decimal strings); the conversion stays in src/shared/money.ts.
 * USDT shows every digit that is there, so the amount shown is always the amount stored.
 */
export const displayUsdtAmount = (wire: string) => formatUsdtExact(usdtMicrosFromWire(wire));
export const displayUsdt = (wire: string) => `${displayUsdtAmount(wire)} USDT`;
export const displayInr = (wire: string) => formatInrForDisplay(inrPaiseFromWire(wire));

const dateTimeFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export function displayDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

const dateFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });
const dateThisYearFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short' });
const timeFormat = new Intl.DateTimeFormat('en-IN', { hour: '2-digit', minute: '2-digit' });

/** Short date for narrow tables: the year only when it is not the current one. */
export function displayDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.getFullYear() === new Date().getFullYear() ? dateThisYearFormat.format(date) : dateFormat.format(date);
}

export function displayTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date);
}
