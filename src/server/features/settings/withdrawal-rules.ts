import {
  parseTdsPercent,
  tdsPercentToWire,
  WITHDRAWAL_LIMIT_DECIMALS,
  WITHDRAWAL_RULE_MESSAGES,
  type LimitTier,
  type WithdrawalRulesFormOutput,
} from '#shared/contracts/withdrawal-rules';
import { parseUsdtMicros, usdtMicrosToWire } from '#shared/money';
import { AppError } from '../../errors.ts';
import type { SettingsRow } from './settings-row.ts';

/** The settings columns of the withdrawal rules (docs/decisions/018). */
export type WithdrawalRuleColumns = Pick<
  SettingsRow,
  | 'withdrawalDailyLimitNormalUsdtMicros'
  | 'withdrawalMonthlyLimitNormalUsdtMicros'
  | 'withdrawalDailyLimitVipUsdtMicros'
  | 'withdrawalMonthlyLimitVipUsdtMicros'
  | 'withdrawalMinUsdtMicros'
  | 'withdrawalMaxUsdtMicros'
  | 'tdsBasisPoints'
>;

function limitMicros(value: string): bigint | null {
  if (value === '') return null;
  const parsed = parseUsdtMicros(value, WITHDRAWAL_LIMIT_DECIMALS);
  // The contract has already checked the value; a failure here would be a bug.
  if (!parsed.ok) throw new Error(`withdrawal limit passed validation but did not parse: ${parsed.reason}`);
  return parsed.value;
}

const limitWire = (value: bigint | null): string | null => (value === null ? null : usdtMicrosToWire(value));

/** The columns a save changes; a field the request left out keeps its value. */
export function desiredWithdrawalRules(input: WithdrawalRulesFormOutput): Partial<WithdrawalRuleColumns> {
  const desired: Partial<WithdrawalRuleColumns> = {};
  if (input.withdrawalLimits) {
    desired.withdrawalDailyLimitNormalUsdtMicros = limitMicros(input.withdrawalLimits.normal.dailyUsdt);
    desired.withdrawalMonthlyLimitNormalUsdtMicros = limitMicros(input.withdrawalLimits.normal.monthlyUsdt);
    desired.withdrawalDailyLimitVipUsdtMicros = limitMicros(input.withdrawalLimits.vip.dailyUsdt);
    desired.withdrawalMonthlyLimitVipUsdtMicros = limitMicros(input.withdrawalLimits.vip.monthlyUsdt);
  }
  if (input.withdrawalMinUsdt !== undefined) desired.withdrawalMinUsdtMicros = limitMicros(input.withdrawalMinUsdt);
  if (input.withdrawalMaxUsdt !== undefined) desired.withdrawalMaxUsdtMicros = limitMicros(input.withdrawalMaxUsdt);
  if (input.tdsPercent !== undefined) {
    const basisPoints = parseTdsPercent(input.tdsPercent);
    if (basisPoints === undefined) throw new Error('TDS percent passed validation but did not parse');
    desired.tdsBasisPoints = Number(basisPoints);
  }
  return desired;
}

/** A minimum above the maximum would refuse every withdrawal: checked against the values the save would leave. */
export function assertMinimumNotAboveMaximum(current: WithdrawalRuleColumns, desired: Partial<WithdrawalRuleColumns>): void {
  const minimum = desired.withdrawalMinUsdtMicros === undefined ? current.withdrawalMinUsdtMicros : desired.withdrawalMinUsdtMicros;
  const maximum = desired.withdrawalMaxUsdtMicros === undefined ? current.withdrawalMaxUsdtMicros : desired.withdrawalMaxUsdtMicros;
  if (minimum !== null && maximum !== null && minimum > maximum) {
    throw AppError.fieldError('withdrawalMinUsdt', WITHDRAWAL_RULE_MESSAGES.minimumAboveMaximum);
  }
}

export function withdrawalRulesView(row: WithdrawalRuleColumns) {
  return {
    withdrawalLimits: {
      normal: { dailyUsdt: limitWire(row.withdrawalDailyLimitNormalUsdtMicros), monthlyUsdt: limitWire(row.withdrawalMonthlyLimitNormalUsdtMicros) },
      vip: { dailyUsdt: limitWire(row.withdrawalDailyLimitVipUsdtMicros), monthlyUsdt: limitWire(row.withdrawalMonthlyLimitVipUsdtMicros) },
    },
    withdrawalMinUsdt: limitWire(row.withdrawalMinUsdtMicros),
    withdrawalMaxUsdt: limitWire(row.withdrawalMaxUsdtMicros),
    tdsPercent: tdsPercentToWire(row.tdsBasisPoints),
  };
}

/** The rules as the settings history and the audit log keep them: one flat entry per value. */
export function withdrawalRulesSnapshot(row: WithdrawalRuleColumns): Record<string, string | null> {
  return {
    withdrawalDailyLimitNormal: limitWire(row.withdrawalDailyLimitNormalUsdtMicros),
    withdrawalMonthlyLimitNormal: limitWire(row.withdrawalMonthlyLimitNormalUsdtMicros),
    withdrawalDailyLimitVip: limitWire(row.withdrawalDailyLimitVipUsdtMicros),
    withdrawalMonthlyLimitVip: limitWire(row.withdrawalMonthlyLimitVipUsdtMicros),
    withdrawalMin: limitWire(row.withdrawalMinUsdtMicros),
    withdrawalMax: limitWire(row.withdrawalMaxUsdtMicros),
    tdsPercent: tdsPercentToWire(row.tdsBasisPoints),
  };
}

/** A tier's daily and monthly limits in micro-USDT (null: none). */
export function tierLimits(row: WithdrawalRuleColumns, tier: LimitTier): { dailyUsdtMicros: bigint | null; monthlyUsdtMicros: bigint | null } {
  return tier === 'normal'
    ? { dailyUsdtMicros: row.withdrawalDailyLimitNormalUsdtMicros, monthlyUsdtMicros: row.withdrawalMonthlyLimitNormalUsdtMicros }
    : { dailyUsdtMicros: row.withdrawalDailyLimitVipUsdtMicros, monthlyUsdtMicros: row.withdrawalMonthlyLimitVipUsdtMicros };
}
