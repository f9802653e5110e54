import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

export interface DashboardFigures {
  pendingDepositCount: bigint;
  pendingDepositUsdtMicros: bigint;
  pendingWithdrawalCount: bigint;
  pendingWithdrawalUsdtMicros: bigint;
  pendingWithdrawalInrPaise: bigint;
  pendingTransferCount: bigint;
  pendingTransferUsdtMicros: bigint;
  customerBalancesUsdtMicros: bigint;
  userCount: bigint;
}

/** Every figure in one statement, so they all describe the same moment. */
export async function loadDashboardFigures(db: Executor): Promise<DashboardFigures> {
  const result = await db.execute<Record<string, bigint>>(sql`
    select
      deposits.count as "pendingDepositCount",
      deposits.usdt as "pendingDepositUsdtMicros",
      withdrawals.count as "pendingWithdrawalCount",
      withdrawals.usdt as "pendingWithdrawalUsdtMicros",
      withdrawals.inr as "pendingWithdrawalInrPaise",
      transfers.count as "pendingTransferCount",
      transfers.usdt as "pendingTransferUsdtMicros",
      wallets.usdt as "customerBalancesUsdtMicros",
      people.count as "userCount"
    from
      (select count(*)::bigint as count, coalesce(sum(amount_usdt_micros), 0)::bigint as usdt
         from usdt_deposits where status = 'pending') as deposits,
      (select count(*)::bigint as count, coalesce(sum(amount_usdt_micros), 0)::bigint as usdt, coalesce(sum(amount_inr_paise), 0)::bigint as inr
         from withdrawal_requests where status = 'pending') as withdrawals,
      (select count(*)::bigint as count, coalesce(sum(amount_usdt_micros), 0)::bigint as usdt
         from transfers where status = 'pending') as transfers,
      (select coalesce(sum(balance_usdt_micros), 0)::bigint as usdt
         from ledger_accounts where kind = 'customer_wallet') as wallets,
      (select count(*)::bigint as count from users) as people
  `);
  const row = result.rows[0];
  if (!row) throw new Error('dashboard query returned no row');
  return row as unknown as DashboardFigures;
}
