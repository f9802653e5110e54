import { formatUsdtExact, usdtMicrosFromWire } from '#shared/money';
import { currentLanguage } from '../../lib/i18n/i18n.ts';

/** Rewards are 0.1 % and 0.02 % of deposits, often less than a cent: every digit is shown. */
export function displayRewardUsdt(wire: string): string {
  return `${formatUsdtExact(usdtMicrosFromWire(wire))} USDT`;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** In the screen's language, as the wallet's dates are (src/web/features/wallet/format.ts). */
function dateFormat(): Intl.DateTimeFormat {
  const language = currentLanguage();
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'hi' ? 'hi-IN' : 'en-IN', { day: 'numeric', month: 'short', year: 'numeric' });
    dateFormats.set(language, format);
  }
  return format;
}

export function displayReferralDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat().format(date);
}

/** The link a friend signs up with: this app's origin, so it works wherever the app is served. */
export function referralLink(code: string): string {
  return `${window.location.origin}/signup?ref=${encodeURIComponent(code)}`;
}
