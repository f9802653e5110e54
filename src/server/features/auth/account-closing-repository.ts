import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/** What decides whether an account may close, read under the locks that keep it true until the close commits. */
export interface AccountClosingFacts {
  closed: boolean;
  role: string;
  frozen: boolean;
  balanceUsdtMicros: bigint;
  inProgress: boolean;
}

/**
 * Locks the user's row (a transfer to them takes a share lock on it first) and wallet (every debit and credit
 * takes it), then reads what decides the close. Under READ COMMITTED the reads after the locks see whatever
 * committed before them, so a withdrawal or a transfer that won the lock is seen in progress.
 */
export async function lockAccountForClosing(db: Executor, userId: string): Promise<AccountClosingFacts | undefined> {
  const locked = await db.execute<{ closed: boolean; role: string }>(sql`
    select u.closed_at is not null as closed, p.role
    from users u join profiles p on p.user_id = u.id
    where u.id = ${userId}
    for update of u`);
  const account = locked.rows[0];
  if (account === undefined) return undefined;
  const wallet = await db.execute<{ balance: string }>(sql`
    select balance_usdt_micros::text as balance from ledger_accounts
    where kind = 'customer_wallet' and user_id = ${userId}
    for update`);
  const facts = await db.execute<{ frozen: boolean; in_progress: boolean }>(sql`
    select
      exists (select 1 from kyc_records where user_id = ${userId} and frozen_at is not null) as frozen,
      exists (select 1 from usdt_deposits where user_id = ${userId} and status = 'pending')
        or exists (select 1 from withdrawal_requests where user_id = ${userId} and status in ('pending', 'processing'))
        or exists (
          select 1 from provider_payouts pp join withdrawal_requests w on w.id = pp.withdrawal_id
          where w.user_id = ${userId} and pp.settled_at is null)
        or exists (select 1 from transfers where status = 'pending' and (sender_user_id = ${userId} or recipient_user_id = ${userId}))
        as in_progress`);
  const row = facts.rows[0];
  return {
    closed: account.closed,
    role: account.role,
    frozen: row?.frozen ?? false,
    balanceUsdtMicros: BigInt(wallet.rows[0]?.balance ?? '0'),
    inProgress: row?.in_progress ?? false,
  };
}

export async function markClosed(db: Executor, userId: string): Promise<void> {
  await db.execute(sql`update users set closed_at = now(), updated_at = now() where id = ${userId}`);
}
