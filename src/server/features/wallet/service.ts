import { MIN_WITHDRAWAL_USDT_MICROS, VIP_THRESHOLD_INR_PAISE, type RateTier } from '../../../shared/contracts/withdrawals.ts';
import type { WalletSummary } from '../../../shared/contracts/wallet.ts';
import { inrPaiseForUsdt, inrPaiseToWire, ratePaiseToWire, usdtMicrosToWire } from '../../../shared/money.ts';
import type { Database } from '../../db/client.ts';
import { sumPendingDepositsForUser } from '../deposits/service.ts';
import { walletBalance } from '../../platform/ledger/ledger.ts';
import { getSettings } from '../settings/service.ts';
import { sumPendingTransfersSentByUser } from '../transfers/service.ts';
import { findVipLevel, sumPendingWithdrawalsForUser } from '../withdrawals/service.ts';

/** Balance, real pending sums and the stored rates, read on one snapshot so the figures agree with each other. */
export async function getWalletSummary(database: Database, userId: string): Promise<WalletSummary> {
  return database.transaction(
    async (db) => {
      // One after another: the queries share the transaction's single connection.
      const balanceUsdtMicros = await walletBalance(db, userId);
      const pendingDepositsUsdtMicros = await sumPendingDepositsForUser(db, userId);
      const pendingWithdrawals = await sumPendingWithdrawalsForUser(db, userId);
      const pendingTransfersUsdtMicros = await sumPendingTransfersSentByUser(db, userId);
      const settings = await getSettings(db);
      const vipLevel = await findVipLevel(db, userId);
      const rateTier: RateTier = vipLevel !== undefined && vipLevel !== 'normal' ? 'vip' : 'normal';
      return {
        balanceUsdt: usdtMicrosToWire(balanceUsdtMicros),
        balanceInrEstimate: inrPaiseToWire(inrPaiseForUsdt(balanceUsdtMicros, settings.rateNormalInrPaise)),
        pendingDepositsUsdt: usdtMicrosToWire(pendingDepositsUsdtMicros),
        pendingWithdrawalsUsdt: usdtMicrosToWire(pendingWithdrawals.amountUsdtMicros),
        pendingWithdrawalsInr: inrPaiseToWire(pendingWithdrawals.amountInrPaise),
        pendingTransfersOutUsdt: usdtMicrosToWire(pendingTransfersUsdtMicros),
        rates: { normalInr: ratePaiseToWire(settings.rateNormalInrPaise), vipInr: ratePaiseToWire(settings.rateVipInrPaise) },
        rateTier,
        vipThresholdInr: inrPaiseToWire(VIP_THRESHOLD_INR_PAISE),
        minDepositUsdt: usdtMicrosToWire(settings.minDepositUsdtMicros),
        minWithdrawalUsdt: usdtMicrosToWire(MIN_WITHDRAWAL_USDT_MICROS),
        depositAddresses: { TRC20: settings.trc20Address, ERC20: settings.erc20Address },
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
