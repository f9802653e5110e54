import type { Database } from '../../db/client.ts';
import { preparedStatement, queryPrepared } from '../../db/prepared.ts';

export interface WalletFigures {
  balanceUsdtMicros: bigint;
  pendingDepositsUsdtMicros: bigint;
  pendingWithdrawalsUsdtMicros: bigint;
  pendingWithdrawalsInrPaise: bigint;
  pendingTransfersUsdtMicros: bigint;
  vipLevel: string | null;
  rateNormalInrPaise: bigint;
  rateVipInrPaise: bigint;
  minDepositUsdtMicros: bigint;
  trc20Address: string;
  erc20Address: string;
}

/**
 * The balance, the pending sums, the VIP level and the stored rates in one statement, so the figures
 * agree with each other (one snapshot). Each pending sum reads only the customer's pending requests
 * (partial indexes of migration 0006), however long their history.
 */
const walletFigures = preparedStatement<WalletFigures>(
  'wallet_figures',
  `select
     coalesce((select balance_usdt_micros from ledger_accounts where kind = 'customer_wallet' and user_id = $1), 0)::bigint as "balanceUsdtMicros",
     (select coalesce(sum(amount_usdt_micros), 0) from usdt_deposits where user_id = $1 and status = 'pending')::bigint as "pendingDepositsUsdtMicros",
     withdrawals.usdt as "pendingWithdrawalsUsdtMicros",
     withdrawals.inr as "pendingWithdrawalsInrPaise",
     (select coalesce(sum(amount_usdt_micros), 0) from transfers where sender_user_id = $1 and status = 'pending')::bigint as "pendingTransfersUsdtMicros",
     (select vip_level from profiles where user_id = $1) as "vipLevel",
     settings.rate_normal_inr_paise as "rateNormalInrPaise",
     settings.rate_vip_inr_paise as "rateVipInrPaise",
     settings.min_deposit_usdt_micros as "minDepositUsdtMicros",
     settings.trc20_address as "trc20Address",
     settings.erc20_address as "erc20Address"
   from admin_settings settings,
     (select coalesce(sum(amount_usdt_micros), 0)::bigint as usdt, coalesce(sum(amount_inr_paise), 0)::bigint as inr
        from withdrawal_requests where user_id = $1 and status in ('pending', 'processing')) as withdrawals
   where settings.id = 1`,
);

export async function loadWalletFigures(db: Database, userId: string): Promise<WalletFigures> {
  const [row] = await queryPrepared(db, walletFigures, [userId]);
  if (!row) throw new Error('admin_settings row is missing: migrations were not applied');
  return row;
}
