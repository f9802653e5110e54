import { z } from 'zod';
import { WITHDRAWAL_DECIMALS, WITHDRAWAL_MESSAGES, quoteWithdrawal, withdrawalAmountSchema, type WithdrawalQuote } from '#shared/contracts/withdrawals';
import { WITHDRAWAL_RULE_MESSAGES, type WithdrawalLimits } from '#shared/contracts/withdrawal-rules';
import type { WalletSummary } from '#shared/contracts/wallet';
import { formatUsdtExact, inrPaiseFromWire, parseUsdtMicros, usdtMicrosFromWire } from '#shared/money';
import { breakdownOf, type InrBreakdown } from './withdrawal-rules.tsx';

export type WithdrawForm = { amount: string; bankAccountId: string };

/** What the form shows in rupees for an amount: the quote, and the TDS breakdown when TDS applies. */
export type WithdrawPreview = { quote: WithdrawalQuote | undefined; breakdown: InrBreakdown | undefined };

/** The form's rules: the shared amount rule, a chosen account, the balance and the limits the server will apply. */
export function withdrawFormSchema(balanceMicros: bigint, limits: WithdrawalLimits | undefined) {
  return z
    .object({ amount: withdrawalAmountSchema, bankAccountId: z.string().min(1, WITHDRAWAL_MESSAGES.selectBankAccount) })
    .superRefine((values, context) => {
      const amount = parseUsdtMicros(values.amount, WITHDRAWAL_DECIMALS);
      if (amount.ok && amount.value > balanceMicros) context.addIssue({ code: 'custom', path: ['amount'], message: WITHDRAWAL_MESSAGES.insufficientBalance });
      else if (amount.ok && limits) {
        const refusal = limitRefusal(amount.value, limits);
        if (refusal) context.addIssue({ code: 'custom', path: ['amount'], message: refusal });
      }
    });
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
    { rateNormalInrPaise: inrPaiseFromWire(summary.rates.normalInr), rateVipInrPaise: inrPaiseFromWire(summary.rates.vipInr) },
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
