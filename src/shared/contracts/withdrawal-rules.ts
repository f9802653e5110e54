import { z } from 'zod';
import { formatDecimal, formatInrForDisplay, formatUsdtForDisplay, parseDecimal, parseUsdtMicros } from '../money.ts';
import { PAN_MESSAGES, maskPan, personPanSchema } from './kyc.ts';
import { decimalStringSchema } from './common.ts';
import { optionalLimitField, type LimitAmount } from './limit-field.ts';

/**
 * Withdrawal limits by tier and TDS (section 194S), see docs/decisions/018:
 * the settings fields, the customer's read of what is left, the PAN, the
 * refusal messages and the one TDS formula that the server and the preview share.
 */

/** Limits are whole cents of USDT, like withdrawals themselves. */
export const WITHDRAWAL_LIMIT_DECIMALS = 2;
/** TDS is a percentage with at most 2 decimals, kept as basis points (1 % = 100). */
export const TDS_PERCENT_DECIMALS = 2;
export const TDS_MAX_BASIS_POINTS = 3000n;
export const BASIS_POINTS_PER_WHOLE = 10_000n;

export const LIMIT_TIERS = ['normal', 'vip'] as const;
export type LimitTier = (typeof LIMIT_TIERS)[number];

/** The limits tier of a customer: every VIP level counts as VIP. */
export function limitTierOf(vipLevel: string): LimitTier {
  return vipLevel === 'normal' ? 'normal' : 'vip';
}

function usdtText(amountUsdtMicros: bigint): string {
  return formatUsdtForDisplay(amountUsdtMicros);
}

export const WITHDRAWAL_RULE_MESSAGES = {
  daily: (limitUsdtMicros: bigint, leftUsdtMicros: bigint) =>
    `Daily withdrawal limit of ${usdtText(limitUsdtMicros)} USDT reached: ${usdtText(leftUsdtMicros)} USDT left today.`,
  monthly: (limitUsdtMicros: bigint, leftUsdtMicros: bigint) =>
    `Monthly withdrawal limit of ${usdtText(limitUsdtMicros)} USDT reached: ${usdtText(leftUsdtMicros)} USDT left this month.`,
  levelDaily: (limitInrPaise: bigint, leftInrPaise: bigint) =>
    `Your KYC level allows ${formatInrForDisplay(limitInrPaise)} of withdrawals a day: ${formatInrForDisplay(leftInrPaise)} left today.`,
  levelMonthly: (limitInrPaise: bigint, leftInrPaise: bigint) =>
    `Your KYC level allows ${formatInrForDisplay(limitInrPaise)} of withdrawals a month: ${formatInrForDisplay(leftInrPaise)} left this month.`,
  minimum: (minimumUsdtMicros: bigint) => `The minimum withdrawal is ${usdtText(minimumUsdtMicros)} USDT.`,
  maximum: (maximumUsdtMicros: bigint) => `The maximum withdrawal is ${usdtText(maximumUsdtMicros)} USDT.`,
  panRequired: 'Add your PAN in your profile before withdrawing: TDS applies to withdrawals.',
  invalidPan: PAN_MESSAGES.invalid,
  panSaved: 'PAN saved',
  minimumAboveMaximum: 'The minimum withdrawal cannot be more than the maximum withdrawal.',
} as const;

/* ---------- TDS ---------- */

/**
 * TDS withheld from a gross INR amount: floor(gross paise x basis points / 10,000),
 * so the deduction is never more than the rate asks, to the paisa, in bigint.
 */
export function tdsInrPaiseFor(grossInrPaise: bigint, tdsBasisPoints: bigint): bigint {
  if (grossInrPaise < 0n || tdsBasisPoints < 0n) throw new Error('TDS needs a non-negative amount and rate');
  return (grossInrPaise * tdsBasisPoints) / BASIS_POINTS_PER_WHOLE;
}

export function tdsPercentToWire(tdsBasisPoints: bigint | number): string {
  return formatDecimal(BigInt(tdsBasisPoints), TDS_PERCENT_DECIMALS);
}

/** "1", "1.5", "0.25" -> basis points; undefined when not a percentage from 0 to 30 with at most 2 decimals. */
export function parseTdsPercent(input: string): bigint | undefined {
  const parsed = parseDecimal(input, TDS_PERCENT_DECIMALS, TDS_MAX_BASIS_POINTS);
  return parsed.ok ? parsed.value : undefined;
}

/* ---------- PAN ---------- */

/** The PAN rules live with KYC (src/shared/contracts/kyc.ts): a person's PAN, ASCII only, never folded. */
export { maskPan };
export const panSchema = personPanSchema;

export const setPanRequestSchema = z.object({ pan: panSchema });
export type SetPanRequest = z.input<typeof setPanRequestSchema>;
export const setPanResponseSchema = z.object({ message: z.string(), pan: z.string() });

/* ---------- settings ---------- */

const LIMIT_INPUT_LENGTH = 24;

/** Withdrawal limits are in USDT with at most 2 decimals: empty or null means none, else more than 0. */
const USDT_LIMIT: LimitAmount = {
  unit: 'USDT',
  parse: (text) => parseUsdtMicros(text, WITHDRAWAL_LIMIT_DECIMALS),
  failureMessage: (label, reason) =>
    ({
      empty: `${label} must be an amount in USDT or empty`,
      'not-a-number': `${label} must be a number`,
      'too-many-decimals': `${label} can have at most ${WITHDRAWAL_LIMIT_DECIMALS} decimal places`,
      'too-large': `${label} is too large`,
    })[reason],
};

export const tdsPercentSchema = z
  .union([z.string(), z.number()], { error: 'TDS percent must be a number from 0 to 30' })
  .transform((value) => String(value).trim())
  .pipe(
    z
      .string()
      .max(LIMIT_INPUT_LENGTH, 'TDS percent is too long')
      .transform((value) => (value === '' ? '0' : value))
      .superRefine((value, context) => {
        const parsed = parseDecimal(value, TDS_PERCENT_DECIMALS);
        if (!parsed.ok && parsed.reason === 'too-many-decimals') {
          context.addIssue({ code: 'custom', message: `TDS percent can have at most ${TDS_PERCENT_DECIMALS} decimal places` });
        } else if (!parsed.ok || parsed.value > TDS_MAX_BASIS_POINTS) {
          context.addIssue({ code: 'custom', message: 'TDS percent must be a number from 0 to 30' });
        }
      }),
  );

const tierLimitsInputSchema = z.object({
  dailyUsdt: optionalLimitField('Daily limit', USDT_LIMIT),
  monthlyUsdt: optionalLimitField('Monthly limit', USDT_LIMIT),
});

/**
 * The withdrawal rules in the settings form. Each field is optional in a save:
 * a save without it keeps the current value, so older clients keep working.
 */
export const withdrawalRulesFormShape = {
  withdrawalLimits: z.object({ normal: tierLimitsInputSchema, vip: tierLimitsInputSchema }).optional(),
  withdrawalMinUsdt: optionalLimitField('Minimum withdrawal', USDT_LIMIT).optional(),
  withdrawalMaxUsdt: optionalLimitField('Maximum withdrawal', USDT_LIMIT).optional(),
  tdsPercent: tdsPercentSchema.optional(),
};
export type WithdrawalRulesFormOutput = z.output<z.ZodObject<typeof withdrawalRulesFormShape>>;

const tierLimitsViewSchema = z.object({ dailyUsdt: decimalStringSchema.nullable(), monthlyUsdt: decimalStringSchema.nullable() });

/** The withdrawal rules as GET /api/admin/settings answers them: null means no limit. */
export const withdrawalRulesViewShape = {
  withdrawalLimits: z.object({ normal: tierLimitsViewSchema, vip: tierLimitsViewSchema }),
  withdrawalMinUsdt: decimalStringSchema.nullable(),
  withdrawalMaxUsdt: decimalStringSchema.nullable(),
  tdsPercent: decimalStringSchema,
};

/* ---------- the customer's read ---------- */

const periodSchema = z.object({
  /** Null: no limit for this period. */
  limitUsdt: decimalStringSchema.nullable(),
  /** Pending, processing and approved withdrawals of the period (India time). */
  usedUsdt: decimalStringSchema,
  /** Null when there is no limit; never below 0. */
  leftUsdt: decimalStringSchema.nullable(),
});

export const withdrawalLimitsResponseSchema = z.object({
  tier: z.enum(LIMIT_TIERS),
  /** The smallest withdrawal accepted: the configured minimum, and never below the app's own 1.00 USDT. */
  minUsdt: decimalStringSchema,
  maxUsdt: decimalStringSchema.nullable(),
  daily: periodSchema,
  monthly: periodSchema,
  /** The most that can be withdrawn now by the limits (not the balance); null when nothing limits it. */
  availableUsdt: decimalStringSchema.nullable(),
  tdsPercent: decimalStringSchema,
  hasPan: z.boolean(),
  /** True while TDS is on and the customer has no PAN: a withdrawal would be refused. */
  panRequired: z.boolean(),
});
export type WithdrawalLimits = z.infer<typeof withdrawalLimitsResponseSchema>;

/* ---------- the TDS report ---------- */

export const TDS_REPORT_MAX_DAYS = 400;
export const TDS_REPORT_MAX_ROWS = 100_000;

const reportDateSchema = z
  .string({ error: 'Dates must be YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be YYYY-MM-DD')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'Dates must be real calendar dates (YYYY-MM-DD)');

export const tdsReportQuerySchema = z
  .object({ from: reportDateSchema, to: reportDateSchema })
  .refine((query) => query.from <= query.to, { message: 'The start date must not be after the end date', path: ['from'] })
  .refine((query) => (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 < TDS_REPORT_MAX_DAYS, {
    message: `The report covers at most ${TDS_REPORT_MAX_DAYS} days`,
    path: ['to'],
  });
export type TdsReportQuery = z.infer<typeof tdsReportQuerySchema>;
