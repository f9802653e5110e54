import { sql, type SQL } from 'drizzle-orm';
import type { RequestStatus } from '../../../shared/contracts/money-common.ts';
import type { TransactionType } from '../../../shared/contracts/transactions.ts';
import type { Executor } from '../../db/client.ts';
import type { PageCursor } from '../../platform/pagination/cursor.ts';

export interface HistoryRow {
  type: TransactionType;
  id: string;
  created_at_iso: string;
  cursor_created_at: string;
  status: string;
  direction: 'in' | 'out';
  amount_usdt_micros: bigint;
  amount_inr_paise: bigint | null;
  network: string | null;
  transaction_hash: string | null;
  counterparty_email: string | null;
  referral_level: number | null;
  rejection_reason: string | null;
  /** A deposit's chain facts as JSON (amounts and block numbers as text); null for the other kinds. */
  chain: Record<string, unknown> | null;
}

/** The chain facts of deposit `d`, built in SQL so the history stays one query. */
const DEPOSIT_CHAIN_JSON = `json_build_object('state', d.chain_state, 'problem', d.chain_problem, 'delayed', d.chain_delayed, 'amountUsdtMicros', d.chain_amount_usdt_micros::text, 'fromAddress', d.chain_from_address, 'toAddress', d.chain_to_address, 'confirmations', d.chain_confirmations, 'requiredConfirmations', d.chain_required_confirmations, 'blockNumber', d.chain_block_number::text, 'logIndex', d.chain_log_index, 'checkedAt', to_char(d.chain_checked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** The union's columns, named and typed the same in every branch (the expressions are fixed SQL, never input). */
function columns(
  type: string,
  status: string,
  direction: string,
  amountUsdtMicros: string,
  amountInrPaise: string,
  network: string,
  transactionHash: string,
  counterpartyEmail: string,
  referralLevel: string,
  rejectionReason: string,
  chain = 'null',
): SQL {
  return sql.raw(
    [
      `${type}::text as type`,
      `${status}::text as status`,
      `${direction}::text as direction`,
      `${amountUsdtMicros}::bigint as amount_usdt_micros`,
      `${amountInrPaise}::bigint as amount_inr_paise`,
      `${network}::text as network`,
      `${transactionHash}::text as transaction_hash`,
      `${counterpartyEmail}::text as counterparty_email`,
      `${referralLevel}::int as referral_level`,
      `${rejectionReason}::text as rejection_reason`,
      `${chain}::json as chain`,
    ].join(', '),
  );
}

/** The admin's reason, only while the request stands rejected (never a leftover on any other status). */
function rejectionReasonOf(alias: string): string {
  return `case when ${alias}.status = 'rejected' then ${alias}.rejection_reason end`;
}

/**
 * One branch of the history union. Each branch filters, orders and limits on
 * its own (user_id, created_at) index before the union merges them.
 */
function branch(table: SQL, alias: string, selected: SQL, ownerCondition: SQL, join: SQL | undefined, cursor: PageCursor | undefined, limit: number): SQL {
  const createdAt = sql.raw(`${alias}.created_at`);
  const id = sql.raw(`${alias}.id`);
  const after = cursor ? sql`and (${createdAt}, ${id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : sql``;
  return sql`(
    select ${selected},
      ${id} as id,
      ${createdAt} as created_at,
      to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at_iso,
      to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_created_at
    from ${table} ${sql.raw(alias)} ${join ?? sql``}
    where ${ownerCondition} ${after}
    order by ${createdAt} desc, ${id} desc
    limit ${limit}
  )`;
}

/**
 * A customer's deposits, withdrawals, transfers (sent and received) and referral
 * bonuses, newest first, optionally of one type and one status. Referral bonuses
 * are paid at once, so they are always approved.
 */
export async function listHistory(
  db: Executor,
  options: { userId: string; type: TransactionType | undefined; status: RequestStatus | undefined; cursor: PageCursor | undefined; limit: number },
): Promise<HistoryRow[]> {
  const { userId, type, status, cursor } = options;
  const limit = options.limit + 1;
  const statusOf = (alias: string) => (status === undefined ? sql`` : sql`and ${sql.raw(`${alias}.status`)} = ${status}`);
  const branches: SQL[] = [];
  if (type === undefined || type === 'deposit') {
    branches.push(
      branch(
        sql`usdt_deposits`,
        'd',
        columns("'deposit'", 'd.status', "'in'", 'd.amount_usdt_micros', 'null', 'd.network', 'd.transaction_hash', 'null', 'null', rejectionReasonOf('d'), DEPOSIT_CHAIN_JSON),
        sql`d.user_id = ${userId} ${statusOf('d')}`,
        undefined,
        cursor,
        limit,
      ),
    );
  }
  if (type === undefined || type === 'withdrawal') {
    branches.push(
      branch(
        sql`withdrawal_requests`,
        'w',
        columns("'withdrawal'", 'w.status', "'out'", 'w.amount_usdt_micros', 'w.amount_inr_paise', 'null', 'null', 'null', 'null', rejectionReasonOf('w')),
        sql`w.user_id = ${userId} ${statusOf('w')}`,
        undefined,
        cursor,
        limit,
      ),
    );
  }
  if (type === undefined || type === 'transfer') {
    branches.push(
      branch(
        sql`transfers`,
        'ts',
        columns("'transfer'", 'ts.status', "'out'", 'ts.amount_usdt_micros', 'null', 'null', 'null', 'ru.email', 'null', rejectionReasonOf('ts')),
        sql`ts.sender_user_id = ${userId} ${statusOf('ts')}`,
        sql`join users ru on ru.id = ts.recipient_user_id`,
        cursor,
        limit,
      ),
      branch(
        sql`transfers`,
        'tr',
        columns("'transfer'", 'tr.status', "'in'", 'tr.amount_usdt_micros', 'null', 'null', 'null', 'su.email', 'null', rejectionReasonOf('tr')),
        sql`tr.recipient_user_id = ${userId} ${statusOf('tr')}`,
        sql`join users su on su.id = tr.sender_user_id`,
        cursor,
        limit,
      ),
    );
  }
  if ((type === undefined || type === 'referral_bonus') && (status === undefined || status === 'approved')) {
    branches.push(
      branch(
        sql`referral_rewards`,
        'r',
        columns("'referral_bonus'", "'approved'", "'in'", 'r.reward_usdt_micros', 'null', 'null', 'null', 'null', 'r.level', 'null'),
        sql`r.referrer_user_id = ${userId}`,
        undefined,
        cursor,
        limit,
      ),
    );
  }
  if (branches.length === 0) return [];
  const result = await db.execute<Record<string, unknown>>(sql`
    select type, id, created_at_iso, cursor_created_at, status, direction, amount_usdt_micros, amount_inr_paise,
           network, transaction_hash, counterparty_email, referral_level, rejection_reason, chain
    from (${sql.join(branches, sql` union all `)}) as history
    order by created_at desc, id desc
    limit ${limit}`);
  return result.rows as unknown as HistoryRow[];
}
