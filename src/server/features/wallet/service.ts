import { MIN_WITHDRAWAL_USDT_MICROS, VIP_THRESHOLD_INR_PAISE } from '#shared/contracts/withdrawals';
import type { WalletSummary } from '#shared/contracts/wallet';
import { inrPaiseForUsdt, inrPaiseToWire, ratePaiseToWire, usdtMicrosToWire } from '#shared/money';
import type { Database } from '../../db/client.ts';
import type { RateTier } from '#shared/contracts/enums';
import { loadWalletFigures } from './repository.ts';

/** Balance, real pending sums and the stored rates, read in one statement so the figures agree with each other. */
export async function getWalletSummary(database: Database, userId: string): Promise<WalletSummary> {
  const figures = await loadWalletFigures(database, userId);
  const rateTier: RateTier = figures.vipLevel !== null && figures.vipLevel !== 'normal' ? 'vip' : 'normal';
  return {
    balanceUsdt: usdtMicrosToWire(figures.balanceUsdtMicros),
    balanceInrEstimate: inrPaiseToWire(inrPaiseForUsdt(figures.balanceUsdtMicros, figures.rateNormalInrPaise)),
    pendingDepositsUsdt: usdtMicrosToWire(figures.pendingDepositsUsdtMicros),
    pendingWithdrawalsUsdt: usdtMicrosToWire(figures.pendingWithdrawalsUsdtMicros),
    pendingWithdrawalsInr: inrPaiseToWire(figures.pendingWithdrawalsInrPaise),
    pendingTransfersOutUsdt: usdtMicrosToWire(figures.pendingTransfersUsdtMicros),
    rates: { normalInr: ratePaiseToWire(figures.rateNormalInrPaise), vipInr: ratePaiseToWire(figures.rateVipInrPaise) },
    rateTier,
    vipThresholdInr: inrPaiseToWire(VIP_THRESHOLD_INR_PAISE),
    minDepositUsdt: usdtMicrosToWire(figures.minDepositUsdtMicros),
    minWithdrawalUsdt: usdtMicrosToWire(MIN_WITHDRAWAL_USDT_MICROS),
    depositAddresses: { TRC20: figures.trc20Address, ERC20: figures.erc20Address },
  };
}
