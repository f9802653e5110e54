import type { Database } from '../../db/client.ts';
import { preparedStatement, queryPrepared } from '../../db/prepared.ts';

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

/**
 * Every figure in one statement, so they all describe the same moment, and none counts or sums a
 * whole table: the counts and pending sums are running totals (summary_totals, kept by triggers in
 * the same transaction as the requests), and the customers' balances are what the house accounts
 * owe them. Every ledger movement takes from one account what it gives another, so all balances
 * add up to zero (the ledger check verifies it) and the customer wallets hold minus the sum of the
 * five house accounts.
 */
const dashboardFigures = preparedStatement<DashboardFigures>(
  'dashboard_figures',
  `select
     deposits.item_count as "pendingDepositCount",
     deposits.amount_usdt_micros as "pendingDepositUsdtMicros",
     withdrawals.item_count as "pendingWithdrawalCount",
     withdrawals.amount_usdt_micros as "pendingWithdrawalUsdtMicros",
     withdrawals.amount_inr_paise as "pendingWithdrawalInrPaise",
     transfers.item_count as "pendingTransferCount",
     transfers.amount_usdt_micros as "pendingTransferUsdtMicros",
     (select -coalesce(sum(balance_usdt_micros), 0) from ledger_accounts where user_id is null)::bigint as "customerBalancesUsdtMicros",
     people.item_count as "userCount"
   from summary_totals deposits, summary_totals withdrawals, summary_totals transfers, summary_totals people
   where deposits.name = 'pending_deposits' and withdrawals.name = 'pending_withdrawals'
     and transfers.name = 'pending_transfers' and people.name = 'users'`,
);

export async function loadDashboardFigures(db: Database): Promise<DashboardFigures> {
  const [row] = await queryPrepared(db, dashboardFigures, []);
  if (!row) throw new Error('summary_totals is missing a row');
  return row;
}
