import type { KycSettingsFormOutput } from '#shared/contracts/kyc-settings';
import { parseTdsPercent, tdsPercentToWire } from '#shared/contracts/withdrawal-rules';
import { inrPaiseToWire, parseInrPaise } from '#shared/money';
import type { SettingsRow } from './settings-row.ts';

/** The settings columns of KYC (decisions 042, 047, 060): the level limits, the no-PAN TDS rate, the refresh months and the records' retention. */
export type KycSettingColumns = Pick<
  SettingsRow,
  | 'kycLevel1DailyLimitInrPaise'
  | 'kycLevel1MonthlyLimitInrPaise'
  | 'kycLevel2DailyLimitInrPaise'
  | 'kycLevel2MonthlyLimitInrPaise'
  | 'tdsNoPanBasisPoints'
  | 'kycRefreshMonthsHighRisk'
  | 'kycRefreshMonthsOther'
  | 'recordRetentionYears'
>;

function limitPaise(value: string): bigint | null {
  if (value === '') return null;
  const parsed = parseInrPaise(value);
  // The contract has already checked the value; a failure here would be a bug.
  if (!parsed.ok) throw new Error(`a KYC level limit passed validation but did not parse: ${parsed.reason}`);
  return parsed.value;
}

const limitWire = (value: bigint | null): string | null => (value === null ? null : inrPaiseToWire(value));

/** The columns a save changes; a field the request left out keeps its value. */
export function desiredKycSettings(input: KycSettingsFormOutput): Partial<KycSettingColumns> {
  const desired: Partial<KycSettingColumns> = {};
  if (input.kycLevelLimits) {
    desired.kycLevel1DailyLimitInrPaise = limitPaise(input.kycLevelLimits.level1.dailyInr);
    desired.kycLevel1MonthlyLimitInrPaise = limitPaise(input.kycLevelLimits.level1.monthlyInr);
    desired.kycLevel2DailyLimitInrPaise = limitPaise(input.kycLevelLimits.level2.dailyInr);
    desired.kycLevel2MonthlyLimitInrPaise = limitPaise(input.kycLevelLimits.level2.monthlyInr);
  }
  if (input.tdsNoPanPercent !== undefined) {
    const basisPoints = parseTdsPercent(input.tdsNoPanPercent);
    if (basisPoints === undefined) throw new Error('the no-PAN TDS percent passed validation but did not parse');
    desired.tdsNoPanBasisPoints = Number(basisPoints);
  }
  if (input.kycRefreshMonths) {
    desired.kycRefreshMonthsHighRisk = input.kycRefreshMonths.highRisk;
    desired.kycRefreshMonthsOther = input.kycRefreshMonths.other;
  }
  if (input.recordRetentionYears !== undefined) desired.recordRetentionYears = input.recordRetentionYears;
  return desired;
}

export function kycSettingsView(row: KycSettingColumns) {
  return {
    kycLevelLimits: {
      level1: { dailyInr: limitWire(row.kycLevel1DailyLimitInrPaise), monthlyInr: limitWire(row.kycLevel1MonthlyLimitInrPaise) },
      level2: { dailyInr: limitWire(row.kycLevel2DailyLimitInrPaise), monthlyInr: limitWire(row.kycLevel2MonthlyLimitInrPaise) },
    },
    tdsNoPanPercent: tdsPercentToWire(row.tdsNoPanBasisPoints),
    kycRefreshMonths: { highRisk: row.kycRefreshMonthsHighRisk, other: row.kycRefreshMonthsOther },
    recordRetentionYears: row.recordRetentionYears,
  };
}

/** The KYC settings as the settings history and the audit log keep them: one flat entry per value. */
export function kycSettingsSnapshot(row: KycSettingColumns): Record<string, string | null> {
  return {
    kycLevel1DailyLimitInr: limitWire(row.kycLevel1DailyLimitInrPaise),
    kycLevel1MonthlyLimitInr: limitWire(row.kycLevel1MonthlyLimitInrPaise),
    kycLevel2DailyLimitInr: limitWire(row.kycLevel2DailyLimitInrPaise),
    kycLevel2MonthlyLimitInr: limitWire(row.kycLevel2MonthlyLimitInrPaise),
    tdsNoPanPercent: tdsPercentToWire(row.tdsNoPanBasisPoints),
    kycRefreshMonthsHighRisk: String(row.kycRefreshMonthsHighRisk),
    kycRefreshMonthsOther: String(row.kycRefreshMonthsOther),
    recordRetentionYears: String(row.recordRetentionYears),
  };
}
