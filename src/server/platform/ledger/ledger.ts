import { and, asc, eq, gte, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedStatement, queryPreparedIn } from '../../db/prepared.ts';
import { ledgerAccounts, ledgerTransfers } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

export type HouseAccountKind = 'deposits_received' | 'withdrawals_pending' | 'withdrawals_paid' | 'transfers_pending' | 'referral_rewards';

export type LedgerAccountRef = { wallet: string } | { house: HouseAccountKind };

export type LedgerReason =
  | 'deposit_credit'
  | 'withdrawal_hold'
  | 'withdrawal_payout'
  | 'withdrawal_refund'
  /** A paid withdrawal the bank returned afterwards (a payout provider's reversal, decision 043). */
  | 'withdrawal_reversal'
  | 'transfer_hold'
  | 'transfer_credit'
  | 'transfer_refund'
  | 'referral_reward'
  /** A credited deposit whose transfer vanished from the chain, taken back by an admin's settlement (decision 045). */
  | 'deposit_reversal'
  /** A referral reward whose deposit vanished from the chain, taken back when its incident is settled (decision 049). */
  | 'referral_reward_reversal';

export interface LedgerMovement {
  from: LedgerAccountRef;
  to: LedgerAccountRef;
  amountUsdtMicros: bigint;
  reason: LedgerReason;
  /** The deposit, withdrawal or transfer the movement belongs to. */
  referenceId: string;
}

export const INSUFFICIENT_BALANCE_MESSAGE = 'Insufficient balance';

export function wallet(userId: string): LedgerAccountRef {
  return { wallet: userId };
}

export function house(kind: HouseAccountKind): LedgerAccountRef {
  return { house: kind };
}

function keyOf(account: LedgerAccountRef): string {
  return 'wallet' in account ? `wallet:${account.wallet}` : `house:${account.house}`;
}

/**
 * Moves money between ledger accounts inside the caller's transaction: one
 * immutable ledger_transfers row per movement, and both cached balances updated
 * in the same transaction. This is the only code that changes a balance.
 *
 * Every account the movements touch is locked first, in ascending id order, so
 * two transactions never wait on each other's accounts in opposite orders. A
 * customer wallet is debited only by the conditional update
 * `... where balance >= amount`; when that finds no row the whole transaction
 * fails with INSUFFICIENT_BALANCE.
 */
export async function moveMoney(db: Executor, movements: readonly LedgerMovement[]): Promise<void> {
  if (movements.length === 0) return;
  for (const movement of movements) {
    if (movement.amountUsdtMicros <= 0n) throw new Error(`ledger movement must be positive, got ${movement.amountUsdtMicros}`);
    if (keyOf(movement.from) === keyOf(movement.to)) throw new Error(`ledger movement from an account to itself (${keyOf(movement.from)})`);
  }
  const [single] = movements;
  if (movements.length === 1 && single) return moveOnce(db, single);
  if (!movements.some((movement) => 'wallet' in movement.from)) return moveFromHouseAccounts(db, movements);
  const accountIds = await lockAccounts(
    db,
    movements.flatMap((movement) => [movement.from, movement.to]),
  );
  const idOf = (account: LedgerAccountRef): bigint => {
    const id = accountIds.get(keyOf(account));
    if (id === undefined) throw new Error(`ledger account ${keyOf(account)} does not exist`);
    return id;
  };
  for (const movement of movements) {
    const fromId = idOf(movement.from);
    const toId = idOf(movement.to);
    const amount = movement.amountUsdtMicros;
    const debited = await db
      .update(ledgerAccounts)
      .set({ balanceUsdtMicros: sql`${ledgerAccounts.balanceUsdtMicros} - ${amount}` })
      .where(and(eq(ledgerAccounts.id, fromId), or(ne(ledgerAccounts.kind, 'customer_wallet'), gte(ledgerAccounts.balanceUsdtMicros, amount))))
      .returning({ id: ledgerAccounts.id });
    if (debited.length !== 1)
      throw new AppError(400, 'INSUFFICIENT_BALANCE', INSUFFICIENT_BALANCE_MESSAGE, { fields: { amount: INSUFFICIENT_BALANCE_MESSAGE } });
    const credited = await db
      .update(ledgerAccounts)
      .set({ balanceUsdtMicros: sql`${ledgerAccounts.balanceUsdtMicros} + ${amount}` })
      .where(eq(ledgerAccounts.id, toId))
      .returning({ id: ledgerAccounts.id });
    if (credited.length !== 1) throw new Error(`ledger account ${toId} vanished while locked`);
    await db.insert(ledgerTransfers).values({
      fromAccountId: fromId,
      toAccountId: toId,
      amountUsdtMicros: amount,
      reason: movement.reason,
      referenceId: movement.referenceId,
    });
  }
}

/**
 * Movements that debit no customer wallet (credits out of house accounts, such as a group of
 * deposits the chain follower read and their referral rewards) as ONE statement however many there
 * are, so that the house accounts' locks are held for one round trip (decision 045, round 22): the
 * accounts are locked in ascending id order (`locked`, which the later parts read, so no balance
 * changes before every lock is taken), the balances change by their sums (no conditional debit can
 * fail), and every movement keeps its own ledger_transfers row. The counts tell when an account is
 * missing; the error thrown then rolls the caller's transaction back.
 */
const postFromHouseAccountsStatement = preparedStatement<{
  movements: number;
  placed: number;
  accountsToChange: number;
  accountsChanged: number;
  recorded: number;
}>(
  'ledger_post_from_house_accounts',
  `with movement as (
     select * from unnest($1::text[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::uuid[])
       with ordinality as t(from_kind, to_user_id, to_kind, amount, reason, reference_id, position)
   ),
   -- The condition reads only the row and the parameters: a row another transaction changed meanwhile is read
   -- again and checked by this condition alone, where a condition through a subquery on the same table
   -- dropped it (the money-properties test's concurrent decisions then found accounts missing).
   locked as materialized (
     select id, kind, user_id from ledger_accounts
     where (kind = 'customer_wallet' and user_id = any($2::uuid[])) or (user_id is null and kind = any(array_cat($1::text[], $3::text[])))
     order by id
     for update
   ),
   placed as (
     select source.id as from_id, target.id as to_id, m.amount, m.reason, m.reference_id, m.position
     from movement m
     join locked source on source.user_id is null and source.kind = m.from_kind
     join locked target on (m.to_user_id is not null and target.kind = 'customer_wallet' and target.user_id = m.to_user_id)
       or (m.to_user_id is null and target.user_id is null and target.kind = m.to_kind)
     -- Counted once, before the first row: every lock is taken before any balance changes.
     where (select count(*) from locked) >= 0
   ),
   change as (
     select id, sum(amount)::bigint as amount
     from (select from_id as id, -amount as amount from placed union all select to_id, amount from placed) as sides
     group by id
   ),
   changed as (
     update ledger_accounts a set balance_usdt_micros = a.balance_usdt_micros + change.amount
     from change where a.id = change.id
     returning a.id
   ),
   recorded as (
     insert into ledger_transfers (from_account_id, to_account_id, amount_usdt_micros, reason, reference_id)
     select from_id, to_id, amount, reason, reference_id from placed order by position
     returning id
   )
   select (select count(*) from movement)::int as movements, (select count(*) from placed)::int as placed,
     (select count(*) from change)::int as "accountsToChange", (select count(*) from changed)::int as "accountsChanged",
     (select count(*) from recorded)::int as recorded`,
);

async function moveFromHouseAccounts(db: Executor, movements: readonly LedgerMovement[]): Promise<void> {
  const houseKindOf = (account: LedgerAccountRef): HouseAccountKind => {
    if ('wallet' in account) throw new Error('moveFromHouseAccounts debits house accounts only');
    return account.house;
  };
  const [row] = await queryPreparedIn(db, postFromHouseAccountsStatement, [
    movements.map((movement) => houseKindOf(movement.from)),
    movements.map((movement) => ('wallet' in movement.to ? movement.to.wallet : null)),
    movements.map((movement) => ('house' in movement.to ? movement.to.house : null)),
    movements.map((movement) => movement.amountUsdtMicros.toString()),
    movements.map((movement) => movement.reason),
    movements.map((movement) => movement.referenceId),
  ]);
  if (!row || row.placed !== row.movements)
    throw new Error(`ledger accounts missing: ${row?.placed ?? 0} of ${movements.length} movements found both accounts`);
  if (row.accountsChanged !== row.accountsToChange || row.recorded !== row.movements) {
    throw new Error(`ledger accounts vanished while locked (${row.accountsChanged} of ${row.accountsToChange} changed)`);
  }
}

/**
 * One movement as one statement, so that a request holds the accounts' locks for one round trip
 * instead of four (the house accounts are shared by every customer). The same steps as the general
 * path: both accounts locked in ascending id order (`locked`, which the other parts read, so no
 * account is changed before the rows before it in that order are locked), the conditional debit,
 * then, only when it found its row, the credit and the ledger_transfers row. The counts tell
 * which step found nothing; the caller's transaction is then rolled back by the error thrown.
 */
const moveOnceStatement = preparedStatement<{ sources: number; targets: number; debited: number; moved: number }>(
  'ledger_move_once',
  `with locked as materialized (
     select id, kind, user_id from ledger_accounts
     where (kind = 'customer_wallet' and user_id in ($1::uuid, $3::uuid)) or (user_id is null and kind in ($2::text, $4::text))
     order by id
     for update
   ),
   source as (select id from locked where (kind = 'customer_wallet' and user_id = $1::uuid) or (user_id is null and kind = $2::text)),
   target as (select id from locked where (kind = 'customer_wallet' and user_id = $3::uuid) or (user_id is null and kind = $4::text)),
   debited as (
     update ledger_accounts a set balance_usdt_micros = a.balance_usdt_micros - $5::bigint
     from source
     where a.id = source.id and (a.kind <> 'customer_wallet' or a.balance_usdt_micros >= $5::bigint)
     returning a.id
   ),
   credited as (
     update ledger_accounts a set balance_usdt_micros = a.balance_usdt_micros + $5::bigint
     from target, debited
     where a.id = target.id
     returning a.id
   ),
   moved as (
     insert into ledger_transfers (from_account_id, to_account_id, amount_usdt_micros, reason, reference_id)
     select debited.id, credited.id, $5::bigint, $6::text, $7::uuid from debited, credited
     returning id
   )
   select (select count(*) from source)::int as sources, (select count(*) from target)::int as targets,
     (select count(*) from debited)::int as debited, (select count(*) from moved)::int as moved`,
);

async function moveOnce(db: Executor, movement: LedgerMovement): Promise<void> {
  const side = (account: LedgerAccountRef) => ('wallet' in account ? [account.wallet, null] : [null, account.house]);
  const [row] = await queryPreparedIn(db, moveOnceStatement, [
    ...side(movement.from),
    ...side(movement.to),
    movement.amountUsdtMicros.toString(),
    movement.reason,
    movement.referenceId,
  ]);
  if (!row || row.sources !== 1) throw new Error(`ledger account ${keyOf(movement.from)} does not exist`);
  if (row.targets !== 1) throw new Error(`ledger account ${keyOf(movement.to)} does not exist`);
  if (row.debited !== 1) throw new AppError(400, 'INSUFFICIENT_BALANCE', INSUFFICIENT_BALANCE_MESSAGE, { fields: { amount: INSUFFICIENT_BALANCE_MESSAGE } });
  if (row.moved !== 1) throw new Error(`ledger account ${keyOf(movement.to)} vanished while locked`);
}

/** Locks the accounts in ascending id order and returns their ids by account key. */
async function lockAccounts(db: Executor, accounts: readonly LedgerAccountRef[]): Promise<Map<string, bigint>> {
  const userIds = [...new Set(accounts.flatMap((account) => ('wallet' in account ? [account.wallet] : [])))];
  const houseKinds = [...new Set(accounts.flatMap((account) => ('house' in account ? [account.house] : [])))];
  const rows = await db
    .select({ id: ledgerAccounts.id, kind: ledgerAccounts.kind, userId: ledgerAccounts.userId })
    .from(ledgerAccounts)
    .where(
      or(
        userIds.length > 0 ? and(eq(ledgerAccounts.kind, 'customer_wallet'), inArray(ledgerAccounts.userId, userIds)) : undefined,
        houseKinds.length > 0 ? and(isNull(ledgerAccounts.userId), inArray(ledgerAccounts.kind, houseKinds)) : undefined,
      ),
    )
    .orderBy(asc(ledgerAccounts.id))
    .for('update');
  const ids = new Map<string, bigint>();
  for (const row of rows) ids.set(row.userId === null ? `house:${row.kind}` : `wallet:${row.userId}`, row.id);
  return ids;
}

/**
 * A customer's wallet balance read under the lock a later moveMoney of the same transaction takes anyway: the
 * wallet and the house accounts it will move to are locked first, in ascending id order as moveMoney locks them, so
 * the balance cannot change before the caller's movement and commit (decision 045, round 22, c).
 */
export async function lockedWalletBalance(db: Executor, userId: string, houseKinds: readonly HouseAccountKind[]): Promise<bigint> {
  await lockAccounts(db, [wallet(userId), ...houseKinds.map(house)]);
  return walletBalance(db, userId);
}

/** A customer's cached wallet balance (0 when the user has no wallet). */
export async function walletBalance(db: Executor, userId: string): Promise<bigint> {
  const [row] = await db
    .select({ balanceUsdtMicros: ledgerAccounts.balanceUsdtMicros })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.kind, 'customer_wallet'), eq(ledgerAccounts.userId, userId)));
  return row?.balanceUsdtMicros ?? 0n;
}
