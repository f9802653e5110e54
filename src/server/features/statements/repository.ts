import { sql } from 'drizzle-orm';
import type { Language } from '#shared/contracts/enums';
import type { Executor } from '../../db/client.ts';
import type { LedgerReason } from '../../platform/ledger/ledger.ts';

export type StatementHolder = {
  name: string;
  phone: string;
  language: Language;
};

/** One movement of the customer's wallet in the ledger, with what it belongs to. */
export interface StatementMovementRow {
  ledgerTransferId: bigint;
  createdAt: Date;
  reason: LedgerReason;
  /** Positive when the wallet gained it, negative when it lost it. */
  signedUsdtMicros: bigint;
  /** The deposit, withdrawal, transfer or referral reward the movement belongs to (never another customer's request). */
  referenceId: string | null;
  withdrawalReference: string | null;
  utr: string | null;
  withdrawalInrPaise: bigint | null;
  withdrawalTdsInrPaise: bigint | null;
  network: string | null;
  transactionHash: string | null;
  counterpartyEmail: string | null;
  referralLevel: number | null;
}

export interface StatementBalances {
  openingUsdtMicros: bigint;
  closingUsdtMicros: bigint;
}

export async function findHolder(db: Executor, userId: string): Promise<StatementHolder | undefined> {
  const result = await db.execute<StatementHolder>(sql`select name, phone, language from profiles where user_id = ${userId}`);
  return result.rows[0];
}

/**
 * The wallet's balance at two moments, summed from the ledger's own rows (never the cached balance):
 * every transfer into the wallet before the moment, less every transfer out of it.
 */
export async function balancesAt(db: Executor, userId: string, start: Date, end: Date): Promise<StatementBalances> {
  const result = await db.execute<{ opening: string; closing: string }>(sql`
    with account as (select id from ledger_accounts where kind = 'customer_wallet' and user_id = ${userId}),
    moves as (
      select t.created_at, t.amount_usdt_micros::numeric as amount from ledger_transfers t join account a on t.to_account_id = a.id
      union all
      select t.created_at, -t.amount_usdt_micros::numeric from ledger_transfers t join account a on t.from_account_id = a.id
    )
    select coalesce(sum(amount) filter (where created_at < ${start.toISOString()}::timestamptz), 0)::text as opening,
           coalesce(sum(amount) filter (where created_at < ${end.toISOString()}::timestamptz), 0)::text as closing
    from moves`);
  const row = result.rows[0];
  return { openingUsdtMicros: BigInt(row?.opening ?? '0'), closingUsdtMicros: BigInt(row?.closing ?? '0') };
}

/**
 * The wallet's movements from `start` (included) to `end` (excluded), oldest first, at most `limit`.
 * Each detail is joined only where it belongs to this customer, so a movement can never show another
 * customer's request; a referral bonus (whose ledger reference is the referred customer's deposit) shows
 * the reward's own id and level, nothing of that deposit.
 */
export async function listMovements(db: Executor, userId: string, start: Date, end: Date, limit: number): Promise<StatementMovementRow[]> {
  const result = await db.execute<{
    ledger_transfer_id: bigint;
    created_at: Date;
    reason: LedgerReason;
    signed_usdt_micros: bigint;
    reference_id: string | null;
    withdrawal_reference: string | null;
    utr: string | null;
    withdrawal_inr_paise: bigint | null;
    withdrawal_tds_inr_paise: bigint | null;
    network: string | null;
    transaction_hash: string | null;
    counterparty_email: string | null;
    referral_level: number | null;
  }>(sql`
    with account as (select id from ledger_accounts where kind = 'customer_wallet' and user_id = ${userId}),
    moves as (
      select t.id, t.created_at, t.reason, t.reference_id, t.amount_usdt_micros as signed
      from ledger_transfers t join account a on t.to_account_id = a.id
      where t.created_at >= ${start.toISOString()}::timestamptz and t.created_at < ${end.toISOString()}::timestamptz
      union all
      select t.id, t.created_at, t.reason, t.reference_id, -t.amount_usdt_micros
      from ledger_transfers t join account a on t.from_account_id = a.id
      where t.created_at >= ${start.toISOString()}::timestamptz and t.created_at < ${end.toISOString()}::timestamptz
    ),
    page as (select * from moves order by created_at, id limit ${limit})
    select m.id as ledger_transfer_id, m.created_at, m.reason, m.signed as signed_usdt_micros,
      case when m.reason = 'referral_reward' then r.id else coalesce(d.id, w.id, tr.id) end as reference_id,
      w.reference as withdrawal_reference, w.payout_reference as utr,
      w.amount_inr_paise as withdrawal_inr_paise, w.tds_inr_paise as withdrawal_tds_inr_paise,
      d.network, d.transaction_hash, cu.email as counterparty_email, r.level::int as referral_level
    from page m
    left join usdt_deposits d on m.reason in ('deposit_credit', 'deposit_reversal') and d.id = m.reference_id and d.user_id = ${userId}
    left join withdrawal_requests w on m.reason in ('withdrawal_hold', 'withdrawal_refund', 'withdrawal_reversal') and w.id = m.reference_id and w.user_id = ${userId}
    left join transfers tr on m.reason in ('transfer_hold', 'transfer_credit', 'transfer_refund') and tr.id = m.reference_id
      and (tr.sender_user_id = ${userId} or tr.recipient_user_id = ${userId})
    left join users cu on cu.id = case when tr.sender_user_id = ${userId} then tr.recipient_user_id else tr.sender_user_id end
    left join lateral (
      select rr.id, rr.level from referral_rewards rr
      where m.reason = 'referral_reward' and rr.deposit_id = m.reference_id and rr.referrer_user_id = ${userId}
      order by rr.level limit 1
    ) r on true
    order by m.created_at, m.id`);
  return result.rows.map((row) => ({
    ledgerTransferId: BigInt(row.ledger_transfer_id),
    createdAt: new Date(row.created_at),
    reason: row.reason,
    signedUsdtMicros: BigInt(row.signed_usdt_micros),
    referenceId: row.reference_id,
    withdrawalReference: row.withdrawal_reference,
    utr: row.utr,
    withdrawalInrPaise: row.withdrawal_inr_paise === null ? null : BigInt(row.withdrawal_inr_paise),
    withdrawalTdsInrPaise: row.withdrawal_tds_inr_paise === null ? null : BigInt(row.withdrawal_tds_inr_paise),
    network: row.network,
    transactionHash: row.transaction_hash,
    counterpartyEmail: row.counterparty_email,
    referralLevel: row.referral_level,
  }));
}
