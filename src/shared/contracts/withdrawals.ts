import { z } from 'zod';
import { inrPaiseForUsdt, MAX_DECIMAL_STRING_LENGTH, MICROS_PER_USDT, parseInrPaise } from '../money.ts';
import { decimalStringSchema, pageSchema, uuidSchema } from './common.ts';
import {
  payoutReferenceSchema,
  rejectRequestSchema,
  withdrawalStatusSchema,
  statusListQuerySchema,
  transactionPinSchema,
  usdtAmountSchema,
  userSummarySchema,
} from './money-common.ts';
import { rateTierSchema, type RateTier } from './enums.ts';
import { tdsInrPaiseFor } from './withdrawal-rules.ts';

/** Withdrawals are whole cents of USDT. */
export const WITHDRAWAL_DECIMALS = 2;
export const MIN_WITHDRAWAL_USDT_MICROS = 1n * MICROS_PER_USDT;
/** 1,00,000 INR (1 Lakh) at the normal rate or more gets the VIP rate. */
export const VIP_THRESHOLD_INR_PAISE = 10_000_000n;

export const WITHDRAWAL_MESSAGES = {
  invalidAmount: 'Please enter a valid amount',
  minimum: 'Minimum withdrawal is 1.00 USDT',
  insufficientBalance: 'Insufficient balance',
  selectBankAccount: 'Please select a bank account',
  bankAccountNotFound: 'Bank account not found',
  incorrectPin: 'Incorrect PIN. Please try again.',
  notFound: 'Withdrawal not found',
  ownRequest: 'You cannot approve or reject your own withdrawal. Another admin must decide it.',
  submitted: 'Withdrawal request submitted successfully',
  approved: 'Withdrawal approved successfully',
  rejected: 'Withdrawal rejected and funds returned to user',
  estimate: 'Estimated processing time: 3-4 hours',
  invalidExpectedAmount: 'The confirmed INR amount is not valid.',
  priceChanged: 'The exchange rate has changed. Please review the new amount and confirm again.',
  inPayoutBatch: 'This withdrawal is in a payout batch. Record its result through the batch, or cancel the batch first.',
  inPayoutBatchOrWithProvider: 'This withdrawal is in a payout batch or being paid through the payout provider: its result comes from there.',
  sentToProvider: 'Withdrawal approved: it is being paid through the payout provider.',
  payoutReferenceRequired: 'Enter the UTR of the bank payment to mark this withdrawal paid.',
  cancelled: 'Withdrawal cancelled. The USDT is back in your wallet.',
  cancelConfirmation: 'Cancel this withdrawal? The USDT held for it goes back to your wallet at once.',
  cannotCancelProcessing: 'This withdrawal is already being paid to your bank and can no longer be cancelled.',
  cannotCancelApproving: 'An admin has already approved this withdrawal; it can no longer be cancelled.',
  cannotCancelDecided: 'This withdrawal has already been decided and can no longer be cancelled.',
} as const;

export const withdrawalAmountSchema = usdtAmountSchema({
  decimals: WITHDRAWAL_DECIMALS,
  invalidMessage: WITHDRAWAL_MESSAGES.invalidAmount,
  minUsdtMicros: MIN_WITHDRAWAL_USDT_MICROS,
  minMessage: WITHDRAWAL_MESSAGES.minimum,
});

/**
 * The INR amount the customer saw and confirmed: a decimal string with at most
 * 2 decimals ("3361.50"), parsed only by src/shared/money.ts. The server
 * refuses the withdrawal when the amount it computes differs.
 */
export const expectedAmountInrSchema = z
  .string({ error: WITHDRAWAL_MESSAGES.invalidExpectedAmount })
  .trim()
  .min(1, WITHDRAWAL_MESSAGES.invalidExpectedAmount)
  .max(MAX_DECIMAL_STRING_LENGTH, WITHDRAWAL_MESSAGES.invalidExpectedAmount)
  .refine((value) => parseInrPaise(value).ok, WITHDRAWAL_MESSAGES.invalidExpectedAmount);

export const withdrawalRequestSchema = z.object({
  amount: withdrawalAmountSchema,
  bankAccountId: z.uuid({ error: WITHDRAWAL_MESSAGES.selectBankAccount }),
  pin: transactionPinSchema,
  /** Optional for older clients: without it the withdrawal is priced at the stored rate, whatever it is. */
  expectedAmountInr: expectedAmountInrSchema.optional(),
  /** The net INR (after TDS) the customer saw; refused like expectedAmountInr when the TDS rate changed meanwhile. */
  expectedNetInr: expectedAmountInrSchema.optional(),
});
export type WithdrawalRequest = z.input<typeof withdrawalRequestSchema>;

export interface WithdrawalQuote {
  rateTier: RateTier;
  rateInrPaise: bigint;
  amountInrPaise: bigint;
}

/**
 * The rate and INR amount of a withdrawal, the one rule for the preview and the
 * server: VIP-level customers, and any withdrawal worth 1 Lakh or more at the
 * normal rate, get the VIP rate.
 */
export function quoteWithdrawal(amountUsdtMicros: bigint, rates: { rateNormalInrPaise: bigint; rateVipInrPaise: bigint }, vipLevel: string): WithdrawalQuote {
  const atNormalRate = inrPaiseForUsdt(amountUsdtMicros, rates.rateNormalInrPaise);
  if (vipLevel !== 'normal' || atNormalRate >= VIP_THRESHOLD_INR_PAISE) {
    return { rateTier: 'vip', rateInrPaise: rates.rateVipInrPaise, amountInrPaise: inrPaiseForUsdt(amountUsdtMicros, rates.rateVipInrPaise) };
  }
  return { rateTier: 'normal', rateInrPaise: rates.rateNormalInrPaise, amountInrPaise: atNormalRate };
}

/** Withdrawals are whole cents: a cent of USDT in micro-USDT. */
const USDT_MICROS_PER_CENT = MICROS_PER_USDT / 10n ** BigInt(WITHDRAWAL_DECIMALS);

/**
 * The fewest USDT (whole cents) whose withdrawal pays at least `netInrPaise` after TDS, priced by
 * quoteWithdrawal itself: the customer who types rupees never receives less than typed (issue 31, section 5).
 * Exact integers only. The VIP rate of a large withdrawal is a step in the price, so the cheapest amount at
 * each rate the customer could get is tried and the smallest that really pays enough wins.
 */
export function usdtMicrosForNetInr(
  netInrPaise: bigint,
  rates: { rateNormalInrPaise: bigint; rateVipInrPaise: bigint },
  vipLevel: string,
  tdsBasisPoints: bigint,
): bigint | undefined {
  if (netInrPaise <= 0n || rates.rateNormalInrPaise <= 0n || rates.rateVipInrPaise <= 0n) return undefined;
  const grossInrPaise = smallestGrossForNet(netInrPaise, tdsBasisPoints);
  const atNormalRate = centsForGross(grossInrPaise, rates.rateNormalInrPaise);
  const atVipRate = centsForGross(grossInrPaise, rates.rateVipInrPaise);
  // The first amount a normal customer gets the VIP rate for, however little it needs at that rate.
  const vipFromThreshold = centsForGross(VIP_THRESHOLD_INR_PAISE, rates.rateNormalInrPaise);
  const candidates = [atNormalRate, atVipRate, atVipRate > vipFromThreshold ? atVipRate : vipFromThreshold];
  const paying = candidates.filter((amountUsdtMicros) => {
    const gross = quoteWithdrawal(amountUsdtMicros, rates, vipLevel).amountInrPaise;
    return gross - tdsInrPaiseFor(gross, tdsBasisPoints) >= netInrPaise;
  });
  return paying.reduce<bigint | undefined>((least, amount) => (least === undefined || amount < least ? amount : least), undefined);
}

/** The least gross whose net after TDS (rounded down, as the server does) is at least the net asked for. */
function smallestGrossForNet(netInrPaise: bigint, tdsBasisPoints: bigint): bigint {
  const netOf = (gross: bigint) => gross - tdsInrPaiseFor(gross, tdsBasisPoints);
  const keptBasisPoints = 10_000n - tdsBasisPoints;
  // The exact answer is within a paisa or two of the proportional one; the steps below make it exact.
  let gross = keptBasisPoints > 0n ? ceilingDivide(netInrPaise * 10_000n, keptBasisPoints) : netInrPaise;
  while (netOf(gross) < netInrPaise) gross += 1n;
  while (gross > 0n && netOf(gross - 1n) >= netInrPaise) gross -= 1n;
  return gross;
}

/** The fewest whole cents of USDT, in micros, whose rupees at the rate (rounded down) reach the gross. */
function centsForGross(grossInrPaise: bigint, rateInrPaise: bigint): bigint {
  // floor(cents x 10^4 x rate / 10^6) = floor(cents x rate / 100) >= gross exactly when cents x rate >= gross x 100.
  return ceilingDivide(grossInrPaise * 100n, rateInrPaise) * USDT_MICROS_PER_CENT;
}

function ceilingDivide(dividend: bigint, divisor: bigint): bigint {
  return (dividend + divisor - 1n) / divisor;
}

/** The bank details copied into the request when it was made, as the customer sees them. */
export const withdrawalBankSchema = z.object({
  accountHolderName: z.string(),
  bankName: z.string(),
  accountNumberLast4: z.string(),
  ifscCode: z.string(),
  upiId: z.string().nullable(),
});

export const withdrawalSchema = z.object({
  id: uuidSchema,
  amountUsdt: decimalStringSchema,
  /** Gross INR at the rate; the customer is paid netInr = amountInr - tdsInr. */
  amountInr: decimalStringSchema,
  /** TDS (section 194S) withheld; "0.00" when TDS was off. */
  tdsInr: decimalStringSchema,
  netInr: decimalStringSchema,
  /** The TDS rate applied, in percent ("1.00"); "0.00" when off. */
  tdsPercent: decimalStringSchema,
  rateInr: decimalStringSchema,
  rateTier: rateTierSchema,
  status: withdrawalStatusSchema,
  bankAccountId: uuidSchema.nullable(),
  bank: withdrawalBankSchema,
  createdAt: z.string(),
  approvedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  payoutReference: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  /** The short reference (RD and 8 letters or digits) the customer, support and the bank file use (decision 038). */
  reference: z.string(),
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;

export const withdrawalResponseSchema = z.object({ withdrawal: withdrawalSchema, message: z.string() });
/** POST /api/withdrawals/:id/cancel takes no body and answers the cancelled withdrawal (decision 044). */
export const cancelWithdrawalResponseSchema = withdrawalResponseSchema;
export const withdrawalDetailResponseSchema = z.object({ withdrawal: withdrawalSchema });
const withdrawalStatusListQuerySchema = statusListQuerySchema.extend({ status: withdrawalStatusSchema.optional() });
export const withdrawalListQuerySchema = withdrawalStatusListQuerySchema;
export const withdrawalListResponseSchema = pageSchema(withdrawalSchema);

/** Admins see everything a bank needs for the payout. */
export const adminWithdrawalSchema = withdrawalSchema.omit({ bank: true }).extend({
  user: userSummarySchema,
  bank: z.object({
    accountHolderName: z.string(),
    bankName: z.string(),
    accountNumber: z.string(),
    ifscCode: z.string(),
    upiId: z.string().nullable(),
  }),
});
export type AdminWithdrawal = z.infer<typeof adminWithdrawalSchema>;
export const adminWithdrawalListQuerySchema = withdrawalStatusListQuerySchema;
export const adminWithdrawalListResponseSchema = pageSchema(adminWithdrawalSchema);
export const adminWithdrawalDecisionResponseSchema = z.object({ withdrawal: adminWithdrawalSchema, message: z.string() });

/** A UTR is compared upper-cased, as a batch's results compare it (decision 038). */
export const approveWithdrawalRequestSchema = z.object({ payoutReference: payoutReferenceSchema.transform((value) => value?.toUpperCase()) }).optional();
export const rejectWithdrawalRequestSchema = rejectRequestSchema;
