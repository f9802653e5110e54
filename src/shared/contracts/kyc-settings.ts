import { z } from 'zod';
import { parseDecimal, parseInrPaise } from '../money.ts';
import { decimalStringSchema } from './common.ts';
import { optionalLimitField, type LimitAmount } from './limit-field.ts';
import { TDS_MAX_BASIS_POINTS, TDS_PERCENT_DECIMALS } from './withdrawal-rules.ts';

/*
 * The KYC settings an admin edits (decisions 042, 047): each level's INR withdrawal limits (empty: none
 * of the level; the tier's USDT limits apply within them), the TDS rate without an operative PAN
 * (section 206AA), how many months a KYC lasts before its refresh, per risk, and how many years a closed
 * account's records are kept (decision 060). Each is optional in a save: a save without it keeps the current value.
 */

const INR_INPUT_LENGTH = 24;
export const KYC_REFRESH_MONTHS_MESSAGE = 'Months must be a whole number from 1 to 12';
export const NO_PAN_TDS_MESSAGE = 'No-PAN TDS percent must be a number from 0 to 30';
/** FIU-IND's guidelines keep a customer's records 5 years after the account is closed: the setting cannot go below. */
export const MIN_RECORD_RETENTION_YEARS = 5;
export const MAX_RECORD_RETENTION_YEARS = 50;
export const RECORD_RETENTION_YEARS_MESSAGE = `Years must be a whole number from ${MIN_RECORD_RETENTION_YEARS} to ${MAX_RECORD_RETENTION_YEARS}`;

/** KYC levels' limits are in INR with at most 2 decimals: empty or null means none, else more than 0. */
const INR_LIMIT: LimitAmount = {
  unit: 'INR',
  parse: parseInrPaise,
  failureMessage: (label, reason) => (reason === 'too-many-decimals' ? `${label} can have at most 2 decimal places` : `${label} must be a number`),
};

const levelLimitsInputSchema = z.object({ dailyInr: optionalLimitField('Daily limit', INR_LIMIT), monthlyInr: optionalLimitField('Monthly limit', INR_LIMIT) });

const noPanPercentSchema = z
  .union([z.string(), z.number()], { error: NO_PAN_TDS_MESSAGE })
  .transform((value) => String(value).trim())
  .pipe(
    z
      .string()
      .max(INR_INPUT_LENGTH, NO_PAN_TDS_MESSAGE)
      .superRefine((value, context) => {
        const parsed = parseDecimal(value, TDS_PERCENT_DECIMALS);
        if (!parsed.ok || parsed.value > TDS_MAX_BASIS_POINTS) context.addIssue({ code: 'custom', message: NO_PAN_TDS_MESSAGE });
      }),
  );

const refreshMonthsSchema = z.coerce
  .number({ error: KYC_REFRESH_MONTHS_MESSAGE })
  .int(KYC_REFRESH_MONTHS_MESSAGE)
  .min(1, KYC_REFRESH_MONTHS_MESSAGE)
  .max(12, KYC_REFRESH_MONTHS_MESSAGE);

const recordRetentionYearsSchema = z.coerce
  .number({ error: RECORD_RETENTION_YEARS_MESSAGE })
  .int(RECORD_RETENTION_YEARS_MESSAGE)
  .min(MIN_RECORD_RETENTION_YEARS, RECORD_RETENTION_YEARS_MESSAGE)
  .max(MAX_RECORD_RETENTION_YEARS, RECORD_RETENTION_YEARS_MESSAGE);

export const kycSettingsFormShape = {
  kycLevelLimits: z.object({ level1: levelLimitsInputSchema, level2: levelLimitsInputSchema }).optional(),
  tdsNoPanPercent: noPanPercentSchema.optional(),
  kycRefreshMonths: z.object({ highRisk: refreshMonthsSchema, other: refreshMonthsSchema }).optional(),
  recordRetentionYears: recordRetentionYearsSchema.optional(),
};
export type KycSettingsFormOutput = z.output<z.ZodObject<typeof kycSettingsFormShape>>;

const levelLimitsViewSchema = z.object({ dailyInr: decimalStringSchema.nullable(), monthlyInr: decimalStringSchema.nullable() });

/** The KYC settings as GET /api/admin/settings answers them: null means no limit. */
export const kycSettingsViewShape = {
  kycLevelLimits: z.object({ level1: levelLimitsViewSchema, level2: levelLimitsViewSchema }),
  tdsNoPanPercent: decimalStringSchema,
  kycRefreshMonths: z.object({ highRisk: z.number().int(), other: z.number().int() }),
  recordRetentionYears: z.number().int(),
};
