import { z } from 'zod';
import {
  MIN_WITHDRAWAL_USDT_MICROS,
  WITHDRAWAL_DECIMALS,
  WITHDRAWAL_MESSAGES,
  quoteWithdrawal,
  usdtMicrosForNetInr,
  withdrawalAmountSchema,
  type WithdrawalQuote,
} from '#shared/contracts/withdrawals';
import { WITHDRAWAL_RULE_MESSAGES, type WithdrawalLimits } from '#shared/contracts/withdrawal-rules';
import type { WalletSummary } from '#shared/contracts/wallet';
import { formatDecimal, formatUsdtExact, inrPaiseFromWire, parseInrPaise, parseUsdtMicros, USDT_DECIMALS, usdtMicrosFromWire } from '#shared/money';
import { breakdownOf, type InrBreakdown } from './withdrawal-rules.tsx';

/** The amount is typed in USDT, or as the rupees the customer wants to receive after TDS (issue 31, section 5). */
export type AmountUnit = 'usdt' | 'inr';
export type WithdrawForm = { unit: AmountUnit; amount: string; amountInr: string; bankAccountId: string };
/** What the request carries: always the USDT amount, as the server takes it. */
export type WithdrawRequestValues = { amount: string; bankAccountId: string };

/** What the form shows in rupees for an amount: the quote, and the TDS breakdown when TDS applies. */
export type WithdrawPreview = { quote: WithdrawalQuote | undefined; breakdown: InrBreakdown | undefined };

/** The form's rules: the shared amount rule, a chosen account, the balance and the limits the server will apply, at the field being typed in. */
export function withdrawFormSchema(balanceMicros: bigint, limits: WithdrawalLimits | undefined, summary: WalletSummary, tdsBasisPoints: bigint) {
  return z.object({ unit: z.enum(['usdt', 'inr']), amount: z.string(), amountInr: z.string(), bankAccountId: z.string() }).superRefine((values, context) => {
    if (values.bankAccountId === '') context.addIssue({ code: 'custom', path: ['bankAccountId'], message: WITHDRAWAL_MESSAGES.selectBankAccount });
    const field = values.unit === 'inr' ? 'amountInr' : 'amount';
    const refusal = amountRefusal(values, balanceMicros, limits, summary, tdsBasisPoints);
    if (refusal) context.addIssue({ code: 'custom', path: [field], message: refusal });
  });
}

function amountRefusal(
  values: WithdrawForm,
  balanceMicros: bigint,
  limits: WithdrawalLimits | undefined,
  summary: WalletSummary,
  tdsBasisPoints: bigint,
): string | undefined {
  if (values.unit === 'usdt') {
    const shared = withdrawalAmountSchema.safeParse(values.amount);
    if (!shared.success) return shared.error.issues[0]?.message ?? WITHDRAWAL_MESSAGES.invalidAmount;
  }
  const amount = requestedUsdtMicros(values, summary, tdsBasisPoints);
  if (amount === undefined) return WITHDRAWAL_MESSAGES.invalidAmount;
  if (amount < MIN_WITHDRAWAL_USDT_MICROS) return WITHDRAWAL_MESSAGES.minimum;
  if (amount > balanceMicros) return WITHDRAWAL_MESSAGES.insufficientBalance;
  return limits ? limitRefusal(amount, limits) : undefined;
}

/**
 * The USDT the form asks for: as typed, or the fewest whole cents that pay the typed rupees after TDS at the
 * customer's rate (the shared rule); undefined while what is typed is not an amount.
 */
export function requestedUsdtMicros(
  values: Pick<WithdrawForm, 'unit' | 'amount' | 'amountInr'>,
  summary: WalletSummary,
  tdsBasisPoints: bigint,
): bigint | undefined {
  if (values.unit === 'usdt') {
    const amount = parseUsdtMicros(values.amount, WITHDRAWAL_DECIMALS);
    return amount.ok && amount.value > 0n ? amount.value : undefined;
  }
  const rupees = parseInrPaise(values.amountInr);
  if (!rupees.ok || rupees.value <= 0n) return undefined;
  return usdtMicrosForNetInr(rupees.value, ratesOf(summary), summary.rateTier, tdsBasisPoints);
}

/** The USDT amount as the request sends it ("120.48"). */
export function usdtRequestText(amountUsdtMicros: bigint): string {
  return formatDecimal(amountUsdtMicros, USDT_DECIMALS, WITHDRAWAL_DECIMALS);
}

function ratesOf(summary: WalletSummary) {
  return { rateNormalInrPaise: inrPaiseFromWire(summary.rates.normalInr), rateVipInrPaise: inrPaiseFromWire(summary.rates.vipInr) };
}

/** The amount as every other screen writes it ("100.00"), not as typed ("100"). */
export function confirmedAmountText(typed: string): string {
  const parsed = parseUsdtMicros(typed.trim());
  return parsed.ok ? formatUsdtExact(parsed.value) : typed.trim();
}

/** The quote for the amount typed and, when TDS applies, what the customer receives after it. */
export function withdrawPreview(amountText: string, summary: WalletSummary, tdsBasisPoints: bigint): WithdrawPreview {
  const quote = previewQuote(amountText, summary);
  return { quote, breakdown: quote && tdsBasisPoints > 0n ? breakdownOf(quote.amountInrPaise, tdsBasisPoints) : undefined };
}

/** The same rule as the server (shared code); the server's answer carries the rate finally used. */
function previewQuote(amountText: string, summary: WalletSummary): WithdrawalQuote | undefined {
  const amount = parseUsdtMicros(amountText, WITHDRAWAL_DECIMALS);
  if (!amount.ok || amount.value <= 0n) return undefined;
  return quoteWithdrawal(
    amount.value,
    ratesOf(summary),
    // The summary's tier comes with its rates, from the same rule as the customer's level on the server.
    summary.rateTier,
  );
}

/** The limits the server will apply, said before the request (the server's own check decides). */
function limitRefusal(amountUsdtMicros: bigint, limits: WithdrawalLimits): string | undefined {
  const minimum = usdtMicrosFromWire(limits.minUsdt);
  if (amountUsdtMicros < minimum) return WITHDRAWAL_RULE_MESSAGES.minimum(minimum);
  if (limits.maxUsdt !== null && amountUsdtMicros > usdtMicrosFromWire(limits.maxUsdt))
    return WITHDRAWAL_RULE_MESSAGES.maximum(usdtMicrosFromWire(limits.maxUsdt));
  if (limits.daily.limitUsdt !== null && limits.daily.leftUsdt !== null && amountUsdtMicros > usdtMicrosFromWire(limits.daily.leftUsdt)) {
    return WITHDRAWAL_RULE_MESSAGES.daily(usdtMicrosFromWire(limits.daily.limitUsdt), usdtMicrosFromWire(limits.daily.leftUsdt));
  }
  if (limits.monthly.limitUsdt !== null && limits.monthly.leftUsdt !== null && amountUsdtMicros > usdtMicrosFromWire(limits.monthly.leftUsdt)) {
    return WITHDRAWAL_RULE_MESSAGES.monthly(usdtMicrosFromWire(limits.monthly.limitUsdt), usdtMicrosFromWire(limits.monthly.leftUsdt));
  }
  return undefined;
}
