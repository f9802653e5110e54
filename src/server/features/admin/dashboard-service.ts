import type { AdminDashboard } from '../../../shared/contracts/admin.ts';
import { inrPaiseToWire, usdtMicrosToWire } from '../../../shared/money.ts';
import type { Database } from '../../db/client.ts';
import type { SessionRecord } from '../../platform/sessions/repository.ts';
import { loadDashboardFigures } from './dashboard-repository.ts';

export async function getDashboard(db: Database, viewer: Pick<SessionRecord, 'role'>): Promise<AdminDashboard> {
  const figures = await loadDashboardFigures(db);
  return {
    pendingDeposits: { count: Number(figures.pendingDepositCount), totalUsdt: usdtMicrosToWire(BigInt(figures.pendingDepositUsdtMicros)) },
    pendingWithdrawals: {
      count: Number(figures.pendingWithdrawalCount),
      totalUsdt: usdtMicrosToWire(BigInt(figures.pendingWithdrawalUsdtMicros)),
      totalInr: inrPaiseToWire(BigInt(figures.pendingWithdrawalInrPaise)),
    },
    pendingTransfers: { count: Number(figures.pendingTransferCount), totalUsdt: usdtMicrosToWire(BigInt(figures.pendingTransferUsdtMicros)) },
    customerBalancesUsdt: usdtMicrosToWire(BigInt(figures.customerBalancesUsdtMicros)),
    userCount: Number(figures.userCount),
    canManage: viewer.role === 'admin',
  };
}
