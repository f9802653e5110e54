import { sql } from 'drizzle-orm';
import type { Language } from '#shared/contracts/enums';
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
  await db.execute(sql`update users set closed_at = now(), closed_balance_noticed_usdt_micros = 0, updated_at = now() where id = ${userId}`);
}

/** Reopens a closed account under its row's lock; answers its owner's address and language, or undefined when it was not closed. */
export async function reopenClosed(db: Executor, userId: string): Promise<{ email: string; language: Language } | undefined> {
  const reopened = await db.execute<{ email: string; language: Language }>(sql`
    update users u set closed_at = null, closed_balance_noticed_usdt_micros = 0, updated_at = now()
    from profiles p
    where u.id = ${userId} and p.user_id = u.id and u.closed_at is not null
    returning u.email, p.language`);
  return reopened.rows[0];
}

/** Closed accounts whose balance is not the one admins were last told of, longest closed first. */
export async function findClosedAccountsWithUnnoticedBalance(db: Executor, limit: number): Promise<string[]> {
  const found = await db.execute<{ user_id: string }>(sql`
    select u.id as user_id
    from users u join ledger_accounts l on l.user_id = u.id and l.kind = 'customer_wallet'
    where u.closed_at is not null and l.balance_usdt_micros <> u.closed_balance_noticed_usdt_micros
    order by u.closed_at, u.id
    limit ${limit}`);
  return found.rows.map((row) => row.user_id);
}

/**
 * Under the user's row lock, records the closed account's balance as the one admins know of. Answers the balance
 * and the one they knew before, or undefined when the account is open again or nothing changed (another process
 * took it first).
 */
export async function takeClosedBalanceChange(
  db: Executor,
  userId: string,
): Promise<{ email: string; balanceUsdtMicros: bigint; noticedUsdtMicros: bigint } | undefined> {
  const locked = await db.execute<{ email: string; balance: string; noticed: string }>(sql`
    select u.email, l.balance_usdt_micros::text as balance, u.closed_balance_noticed_usdt_micros::text as noticed
    from users u join ledger_accounts l on l.user_id = u.id and l.kind = 'customer_wallet'
    where u.id = ${userId} and u.closed_at is not null
    for update of u`);
  const row = locked.rows[0];
  if (row === undefined || row.balance === row.noticed) return undefined;
  await db.execute(sql`update users set closed_balance_noticed_usdt_micros = ${row.balance}::bigint where id = ${userId}`);
  return { email: row.email, balanceUsdtMicros: BigInt(row.balance), noticedUsdtMicros: BigInt(row.noticed) };
}
