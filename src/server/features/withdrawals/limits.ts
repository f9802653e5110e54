import { limitTierOf, tdsPercentToWire, WITHDRAWAL_RULE_MESSAGES, type LimitTier, type WithdrawalLimits } from '#shared/contracts/withdrawal-rules';
import { MIN_WITHDRAWAL_USDT_MICROS } from '#shared/contracts/withdrawals';
import { usdtMicrosToWire } from '#shared/money';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { getSettings, tierLimits } from '../settings/service.ts';
import * as withdrawalRepository from './repository.ts';

type SettingsRow = Awaited<ReturnType<typeof getSettings>>;
/** The settings a withdrawal request reads (see request-repository.ts). */
export type WithdrawalSettings = Pick<
  SettingsRow,
  | 'rateNormalInrPaise'
  | 'rateVipInrPaise'
  | 'tdsBasisPoints'
  | 'withdrawalMinUsdtMicros'
  | 'withdrawalMaxUsdtMicros'
  | 'withdrawalDailyLimitNormalUsdtMicros'
  | 'withdrawalMonthlyLimitNormalUsdtMicros'
  | 'withdrawalDailyLimitVipUsdtMicros'
  | 'withdrawalMonthlyLimitVipUsdtMicros'
>;

function limitRefusal(message: string): AppError {
  return new AppError(400, 'WITHDRAWAL_LIMIT', message, { fields: { amount: message } });
}

const atLeastZero = (value: bigint): bigint => (value > 0n ? value : 0n);

/** The per-withdrawal minimum and maximum of the settings. */
export function assertWithinWithdrawalBounds(settings: WithdrawalSettings, amountUsdtMicros: bigint): void {
  if (settings.withdrawalMinUsdtMicros !== null && amountUsdtMicros < settings.withdrawalMinUsdtMicros) {
    throw limitRefusal(WITHDRAWAL_RULE_MESSAGES.minimum(settings.withdrawalMinUsdtMicros));
  }
  if (settings.withdrawalMaxUsdtMicros !== null && amountUsdtMicros > settings.withdrawalMaxUsdtMicros) {
    throw limitRefusal(WITHDRAWAL_RULE_MESSAGES.maximum(settings.withdrawalMaxUsdtMicros));
  }
}

/**
 * The tier's daily and monthly limits (India time; pending, processing and
 * approved withdrawals count). Called with the new withdrawal already inserted
 * and the customer's wallet locked, so the sums include it; a refusal rolls
 * the whole transaction back.
 */
export async function assertWithinPeriodLimits(
  db: Executor,
  settings: WithdrawalSettings,
  tier: LimitTier,
  userId: string,
  amountUsdtMicros: bigint,
): Promise<void> {
  const limits = tierLimits(settings, tier);
  if (limits.dailyUsdtMicros === null && limits.monthlyUsdtMicros === null) return;
  const withThisOne = await withdrawalRepository.sumWithdrawnThisDayAndMonth(db, userId);
  const before = { dayUsdtMicros: withThisOne.dayUsdtMicros - amountUsdtMicros, monthUsdtMicros: withThisOne.monthUsdtMicros - amountUsdtMicros };
  if (limits.dailyUsdtMicros !== null && withThisOne.dayUsdtMicros > limits.dailyUsdtMicros) {
    throw limitRefusal(WITHDRAWAL_RULE_MESSAGES.daily(limits.dailyUsdtMicros, atLeastZero(limits.dailyUsdtMicros - before.dayUsdtMicros)));
  }
  if (limits.monthlyUsdtMicros !== null && withThisOne.monthUsdtMicros > limits.monthlyUsdtMicros) {
    throw limitRefusal(WITHDRAWAL_RULE_MESSAGES.monthly(limits.monthlyUsdtMicros, atLeastZero(limits.monthlyUsdtMicros - before.monthUsdtMicros)));
  }
}

/**
 * The KYC level's INR limits (decision 042), on top of the tier's: pending, processing and approved
 * withdrawals count, India time, with the new withdrawal already inserted and the wallet locked.
 */
export async function assertWithinLevelLimits(
  db: Executor,
  limits: { dailyInrPaise: bigint | null; monthlyInrPaise: bigint | null },
  userId: string,
  amountInrPaise: bigint,
): Promise<void> {
  if (limits.dailyInrPaise === null && limits.monthlyInrPaise === null) return;
  const withThisOne = await withdrawalRepository.sumWithdrawnThisDayAndMonth(db, userId);
  const left = (limit: bigint, used: bigint) => atLeastZero(limit - (used - amountInrPaise));
  if (limits.dailyInrPaise !== null && withThisOne.dayInrPaise > limits.dailyInrPaise) {
    throw limitRefusal(WITHDRAWAL_RULE_MESSAGES.levelDaily(limits.dailyInrPaise, left(limits.dailyInrPaise, withThisOne.dayInrPaise)));
  }
  if (limits.monthlyInrPaise !== null && withThisOne.monthInrPaise > limits.monthlyInrPaise) {
    throw limitRefusal(WITHDRAWAL_RULE_MESSAGES.levelMonthly(limits.monthlyInrPaise, left(limits.monthlyInrPaise, withThisOne.monthInrPaise)));
  }
}

/** What the withdraw page shows before the customer types: the bounds, and what is left today and this month. */
export async function getWithdrawalLimits(db: Database, userId: string): Promise<WithdrawalLimits> {
  const settings = await getSettings(db);
  const profile = await withdrawalRepository.findWithdrawerProfile(db, userId);
  if (profile === undefined) throw new Error(`user ${userId} has no profile`);
  const tier = limitTierOf(profile.vipLevel);
  const limits = tierLimits(settings, tier);
  const used = await withdrawalRepository.sumWithdrawnThisDayAndMonth(db, userId);
  const period = (limit: bigint | null, usedUsdtMicros: bigint) => ({
    limitUsdt: limit === null ? null : usdtMicrosToWire(limit),
    usedUsdt: usdtMicrosToWire(usedUsdtMicros),
    leftUsdt: limit === null ? null : usdtMicrosToWire(atLeastZero(limit - usedUsdtMicros)),
  });
  const bounds = [
    limits.dailyUsdtMicros === null ? undefined : atLeastZero(limits.dailyUsdtMicros - used.dayUsdtMicros),
    limits.monthlyUsdtMicros === null ? undefined : atLeastZero(limits.monthlyUsdtMicros - used.monthUsdtMicros),
    settings.withdrawalMaxUsdtMicros ?? undefined,
  ].filter((value): value is bigint => value !== undefined);
  const available = bounds.length === 0 ? null : bounds.reduce((smallest, value) => (value < smallest ? value : smallest));
  const minimum =
    settings.withdrawalMinUsdtMicros !== null && settings.withdrawalMinUsdtMicros > MIN_WITHDRAWAL_USDT_MICROS
      ? settings.withdrawalMinUsdtMicros
      : MIN_WITHDRAWAL_USDT_MICROS;
  return {
    tier,
    minUsdt: usdtMicrosToWire(minimum),
    maxUsdt: settings.withdrawalMaxUsdtMicros === null ? null : usdtMicrosToWire(settings.withdrawalMaxUsdtMicros),
    daily: period(limits.dailyUsdtMicros, used.dayUsdtMicros),
    monthly: period(limits.monthlyUsdtMicros, used.monthUsdtMicros),
    availableUsdt: available === null ? null : usdtMicrosToWire(available),
    tdsPercent: tdsPercentToWire(settings.tdsBasisPoints),
    hasPan: profile.pan !== null,
    panRequired: settings.tdsBasisPoints > 0 && profile.pan === null,
  };
}
