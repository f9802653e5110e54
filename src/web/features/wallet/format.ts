import { formatInrForDisplay, formatUsdtExact, inrPaiseFromWire, usdtMicrosFromWire } from '#shared/money';

/**
 * Display helpers for amounts as the API sends them (decimal strings); the conversion stays in src/shared/money.ts.
 * USDT shows every digit that is there, so the amount shown is always the amount stored.
 */
export const displayUsdtAmount = (wire: string) => formatUsdtExact(usdtMicrosFromWire(wire));
export const displayUsdt = (wire: string) => `${displayUsdtAmount(wire)} USDT`;
export const displayInr = (wire: string) => formatInrForDisplay(inrPaiseFromWire(wire));
