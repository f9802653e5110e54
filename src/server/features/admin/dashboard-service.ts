import { HOUSE_ACCOUNT_KINDS, type AdminDashboard, type HouseAccountKind } from '#shared/contracts/admin';
import { inrPaiseToWire, usdtMicrosToWire } from '#shared/money';
import type { Database } from '../../db/client.ts';
import { readDashboardFigures } from './dashboard-repository.ts';

function isHouseAccountKind(kind: string): kind is HouseAccountKind {
  return (HOUSE_ACCOUNT_KINDS as readonly string[]).includes(kind);
}

const queue = (totals: { count: bigint; usdtMicros: bigint; oldestAt: Date | null }) => ({
  count: Number(totals.count),
  totalUsdt: usdtMicrosToWire(totals.usdtMicros),
  oldestAt: totals.oldestAt?.toISOString() ?? null,
});

const withdrawalQueue = (totals: { count: bigint; usdtMicros: bigint; inrPaise: bigint; oldestAt: Date | null }) =>
  Object.assign(queue(totals), { totalInr: inrPaiseToWire(totals.inrPaise) });

/** The operator's dashboard; the admin area's guard has already admitted the caller. */
export async function getDashboard(db: Database): Promise<AdminDashboard> {
  const figures = await readDashboardFigures(db);
  const houseAccounts = HOUSE_ACCOUNT_KINDS.map((kind) => ({
    kind,
    balanceUsdtMicros: figures.houseAccounts.find((account) => account.kind === kind)?.balanceUsdtMicros ?? 0n,
  }));
  const unknownHouseAccount = figures.houseAccounts.find((account) => !isHouseAccountKind(account.kind));
  if (unknownHouseAccount) throw new Error(`the dashboard does not know the house account ${unknownHouseAccount.kind}`);
  const differenceMicros = houseAccounts.reduce((sum, account) => sum + account.balanceUsdtMicros, figures.customerBalancesUsdtMicros);
  return {
    generatedAt: figures.generatedAt.toISOString(),
    pendingDeposits: queue(figures.pendingDeposits),
    pendingWithdrawals: withdrawalQueue(figures.pendingWithdrawals),
    processingWithdrawals: withdrawalQueue(figures.processingWithdrawals),
    pendingTransfers: queue(figures.pendingTransfers),
    today: {
      date: figures.today,
      paidWithdrawals: {
        count: Number(figures.paidToday.count),
        totalInr: inrPaiseToWire(figures.paidToday.inrPaise),
        totalUsdt: usdtMicrosToWire(figures.paidToday.usdtMicros),
      },
      creditedDeposits: { count: Number(figures.creditedToday.count), totalUsdt: usdtMicrosToWire(figures.creditedToday.usdtMicros) },
    },
    customerBalancesUsdt: usdtMicrosToWire(figures.customerBalancesUsdtMicros),
    books: {
      customerBalancesUsdt: usdtMicrosToWire(figures.customerBalancesUsdtMicros),
      houseAccounts: houseAccounts.map((account) => ({ kind: account.kind, balanceUsdt: usdtMicrosToWire(account.balanceUsdtMicros) })),
      differenceUsdt: usdtMicrosToWire(differenceMicros),
      balanced: differenceMicros === 0n,
    },
    openPayoutBatches: figures.openBatches.map((batch) => ({
      id: batch.id,
      createdAt: batch.createdAt.toISOString(),
      count: batch.count,
      totalInr: inrPaiseToWire(batch.totalInrPaise),
      processingCount: batch.processingCount,
      processingInr: inrPaiseToWire(batch.processingInrPaise),
    })),
    userCount: Number(figures.userCount),
  };
}
