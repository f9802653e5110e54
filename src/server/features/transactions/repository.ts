import type { ChainStateName, DepositChain } from '#shared/contracts/deposits';
import type { RequestStatus } from '#shared/contracts/enums';
import type { TransactionType } from '#shared/contracts/transactions';
import type { Database } from '../../db/client.ts';
import { preparedStatement, queryPrepared, type PreparedStatement } from '../../db/prepared.ts';
import type { PageCursor } from '../../platform/pagination/cursor.ts';
import { planLimit } from '../../platform/pagination/keyset-statements.ts';
import type { SessionJoinedRead } from '../../platform/sessions/repository.ts';

export interface HistoryRow {
  type: TransactionType;
  id: string;
  /** created_at as exact UTC text (microseconds), the form cursors carry. */
  created_at_micros: string;
  status: RequestStatus;
  direction: 'in' | 'out';
  amount_usdt_micros: bigint;
  amount_inr_paise: bigint | null;
  network: string | null;
  transaction_hash: string | null;
  counterparty_email: string | null;
  referral_level: number | null;
  rejection_reason: string | null;
  /** A deposit's chain facts; null for the other kinds. */
  chain_state: ChainStateName | null;
  chain_problem: DepositChain['problem'];
  chain_delayed: boolean | null;
  chain_amount_usdt_micros: bigint | null;
  chain_from_address: string | null;
  chain_to_address: string | null;
  chain_confirmations: number | null;
  chain_required_confirmations: number | null;
  chain_block_number: bigint | null;
  chain_log_index: number | null;
  chain_sender_proven: boolean | null;
  chain_transfers_to_address: number | null;
  /** chain_checked_at as UTC text to the millisecond. */
  chain_checked_at_iso: string | null;
}

/** A deposit's chain columns and their types: other kinds carry them as typed nulls through the union. */
const CHAIN_COLUMNS = [
  ['chain_state', 'text'],
  ['chain_problem', 'text'],
  ['chain_delayed', 'boolean'],
  ['chain_amount_usdt_micros', 'bigint'],
  ['chain_from_address', 'text'],
  ['chain_to_address', 'text'],
  ['chain_confirmations', 'int'],
  ['chain_required_confirmations', 'int'],
  ['chain_block_number', 'bigint'],
  ['chain_log_index', 'int'],
  ['chain_sender_proven', 'boolean'],
  ['chain_transfers_to_address', 'int'],
  ['chain_checked_at', 'timestamptz'],
] as const;

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
  depositAlias?: string,
): string {
  return [
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
    ...CHAIN_COLUMNS.map(([column, type]) => `${depositAlias === undefined ? 'null' : `${depositAlias}.${column}`}::${type} as ${column}`),
  ].join(', ');
}

/** The admin's reason, only while the request stands rejected (never a leftover on any other status). */
function rejectionReasonOf(alias: string): string {
  return `case when ${alias}.status = 'rejected' then ${alias}.rejection_reason end`;
}

/** Where the parameters sit: $1 the user, then the status and the cursor when given (the page size is written into the SQL, see planLimit). */
interface Placeholders {
  pageRows: number;
  status: string | undefined;
  cursorCreatedAt: string | undefined;
  cursorId: string | undefined;
}

/**
 * One branch of the history union. Each branch filters, orders and limits on
 * its own (user_id, created_at) index before the union merges them; the text
 * formatting waits for the outer select, so only the rows of the page are formatted.
 */
function branch(table: string, alias: string, selected: string, owner: string, join: string, placeholders: Placeholders): string {
  const createdAt = `${alias}.created_at`;
  const id = `${alias}.id`;
  const status = placeholders.status === undefined ? '' : ` and ${alias}.status = ${placeholders.status}`;
  const after =
    placeholders.cursorCreatedAt === undefined
      ? ''
      : ` and (${createdAt}, ${id}) < (${placeholders.cursorCreatedAt}::timestamptz, ${placeholders.cursorId}::uuid)`;
  return `(
    select ${selected},
      ${id} as id,
      ${createdAt} as created_at
    from ${table} ${alias} ${join}
    where ${alias}.${owner} = $1${status}${after}
    order by ${createdAt} desc, ${id} desc
    limit ${placeholders.pageRows}
  )`;
}

/** The five parts of a history, one branch of the union each. */
export const HISTORY_PARTS = ['deposits', 'withdrawals', 'transfersSent', 'transfersReceived', 'referralBonuses'] as const;
type HistoryPart = (typeof HISTORY_PARTS)[number];

/** Which parts of a customer's history hold at least one entry. */
export type HistoryParts = Record<HistoryPart, boolean>;

/**
 * Where each part's entries are: the table, its alias, the column naming the customer (whose index
 * the branch and the probe read), the type the entries show as, whether they are always approved
 * (then no status is a condition of the branch), and the joins and select list of the part's branch
 * (fixed SQL, never input).
 */
const PART_SOURCES: Record<
  HistoryPart,
  { table: string; alias: string; owner: string; type: TransactionType; alwaysApproved: boolean; join: string; selected: string }
> = {
  deposits: {
    table: 'usdt_deposits',
    alias: 'd',
    owner: 'user_id',
    type: 'deposit',
    alwaysApproved: false,
    join: '',
    selected: columns(
      "'deposit'",
      'd.status',
      "'in'",
      'd.amount_usdt_micros',
      'null',
      'd.network',
      'd.transaction_hash',
      'null',
      'null',
      rejectionReasonOf('d'),
      'd',
    ),
  },
  withdrawals: {
    table: 'withdrawal_requests',
    alias: 'w',
    owner: 'user_id',
    type: 'withdrawal',
    alwaysApproved: false,
    join: '',
    // The rupees that reach the bank: the gross less any TDS withheld (docs/decisions/018).
    selected: columns(
      "'withdrawal'",
      'w.status',
      "'out'",
      'w.amount_usdt_micros',
      '(w.amount_inr_paise - w.tds_inr_paise)',
      'null',
      'null',
      'null',
      'null',
      rejectionReasonOf('w'),
    ),
  },
  transfersSent: {
    table: 'transfers',
    alias: 'ts',
    owner: 'sender_user_id',
    type: 'transfer',
    alwaysApproved: false,
    join: 'join users ru on ru.id = ts.recipient_user_id',
    selected: columns("'transfer'", 'ts.status', "'out'", 'ts.amount_usdt_micros', 'null', 'null', 'null', 'ru.email', 'null', rejectionReasonOf('ts')),
  },
  transfersReceived: {
    table: 'transfers',
    alias: 'tr',
    owner: 'recipient_user_id',
    type: 'transfer',
    alwaysApproved: false,
    join: 'join users su on su.id = tr.sender_user_id',
    selected: columns("'transfer'", 'tr.status', "'in'", 'tr.amount_usdt_micros', 'null', 'null', 'null', 'su.email', 'null', rejectionReasonOf('tr')),
  },
  referralBonuses: {
    table: 'referral_rewards',
    alias: 'r',
    owner: 'referrer_user_id',
    type: 'referral_bonus',
    // Paid at once, so always approved.
    alwaysApproved: true,
    join: '',
    selected: columns("'referral_bonus'", "'approved'", "'in'", 'r.reward_usdt_micros', 'null', 'null', 'null', 'null', 'r.level', 'null'),
  },
};

/**
 * The customer's history parts, probed in the session lookup's statement (GET /api/transactions'
 * `sessionJoinedRead`): each probe is one look into the index the part's branch reads, and a part
 * without entries then has no branch at all. A union branch costs PostgreSQL its start-up even when
 * it finds nothing (opening and locking its table and indexes, setting up its sort), so a customer
 * with deposits only is read with one branch instead of five. The parts only ever gain entries; one
 * that gains its first entry between the two statements is shown from the next request on, as if
 * the page had been read a moment earlier.
 */
export const HISTORY_PARTS_READ: SessionJoinedRead<HistoryParts> = {
  name: 'history_parts',
  columns: HISTORY_PARTS.map((part) => {
    const { table, alias, owner } = PART_SOURCES[part];
    return `exists (select from ${table} ${alias} where ${alias}.${owner} = s.user_id) as "${part}"`;
  }).join(', '),
  joins: '',
  valueOf: (row) => ({
    deposits: row.deposits === true,
    withdrawals: row.withdrawals === true,
    transfersSent: row.transfersSent === true,
    transfersReceived: row.transfersReceived === true,
    referralBonuses: row.referralBonuses === true,
  }),
};

/** The branch of one history part; a part always approved has no status condition. */
function partBranch(part: HistoryPart, placeholders: Placeholders): string {
  const { table, alias, owner, alwaysApproved, join, selected } = PART_SOURCES[part];
  return branch(table, alias, selected, owner, join, alwaysApproved ? { ...placeholders, status: undefined } : placeholders);
}

/** The history's SQL over the given parts (at least one), for a status or none, the first page or after a cursor. */
function historyText(parts: readonly HistoryPart[], withStatus: boolean, withCursor: boolean, pageRows: number): string {
  const cursorStart = withStatus ? 3 : 2;
  const placeholders: Placeholders = {
    pageRows,
    status: withStatus ? '$2' : undefined,
    cursorCreatedAt: withCursor ? `$${cursorStart}` : undefined,
    cursorId: withCursor ? `$${cursorStart + 1}` : undefined,
  };
  const branches = parts.map((part) => partBranch(part, placeholders));
  // A status placeholder that no branch uses (referral bonuses only) would leave its type unknown to PostgreSQL.
  const statusUnused = withStatus && parts.every((part) => PART_SOURCES[part].alwaysApproved);
  return `
    select type, id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at_micros, status, direction,
           amount_usdt_micros, amount_inr_paise, network, transaction_hash, counterparty_email, referral_level, rejection_reason,
           ${CHAIN_COLUMNS.filter(([column]) => column !== 'chain_checked_at')
             .map(([column]) => column)
             .join(', ')},
           to_char(chain_checked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as chain_checked_at_iso
    from (${branches.join(' union all ')}) as history${statusUnused ? ` where $2::text is not null` : ''}
    order by created_at desc, id desc
    limit ${pageRows}`;
}

const statements = new Map<string, PreparedStatement<HistoryRow>>();

/**
 * How many shapes of the history each connection keeps planned. A plan of the five-part union takes
 * about half a megabyte of a connection's memory; every shape (31 sets of parts, with or without a
 * status and a cursor, five planned page sizes) would be 620. The shapes customers use are far
 * fewer, and are the first asked for; any shape beyond these runs unnamed, planned each time.
 */
const MAX_NAMED_HISTORY_SHAPES = 160;

/**
 * The prepared statement for one shape of request: the parts it reads, whether a status and a
 * cursor are given, and the planned page size. Its SQL is written the first time that shape is
 * asked for; null when no part can match.
 */
function historyStatement(
  type: TransactionType | undefined,
  status: RequestStatus | undefined,
  parts: HistoryParts | undefined,
  withCursor: boolean,
  pageRows: number,
): PreparedStatement<HistoryRow> | null {
  // A part always approved has no entry of another status asked for, so no branch.
  const approvedMatchStatus = status === undefined || status === 'approved';
  const read = HISTORY_PARTS.filter(
    (part) =>
      (type === undefined || PART_SOURCES[part].type === type) &&
      (parts === undefined || parts[part]) &&
      (!PART_SOURCES[part].alwaysApproved || approvedMatchStatus),
  );
  if (read.length === 0) return null;
  const key = `history_${read.map((part) => HISTORY_PARTS.indexOf(part)).join('')}_${status === undefined ? 'any' : 'status'}_${withCursor ? 'after' : 'first'}_${pageRows}`;
  let statement = statements.get(key);
  if (statement === undefined) {
    statement = preparedStatement<HistoryRow>(key, historyText(read, status !== undefined, withCursor, pageRows), {
      named: statements.size < MAX_NAMED_HISTORY_SHAPES,
    });
    statements.set(key, statement);
  }
  return statement;
}

/**
 * A customer's deposits, withdrawals, transfers (sent and received) and referral
 * bonuses, newest first, optionally of one type and one status: one prepared
 * statement per shape of request, so a request builds no SQL. With `parts`, the
 * parts without entries are left out of the statement.
 */
export async function listHistory(
  db: Database,
  options: {
    userId: string;
    type: TransactionType | undefined;
    status: RequestStatus | undefined;
    parts: HistoryParts | undefined;
    cursor: PageCursor | undefined;
    limit: number;
  },
): Promise<HistoryRow[]> {
  const { userId, type, status, cursor } = options;
  const statement = historyStatement(type, status, options.parts, cursor !== undefined, planLimit(options.limit + 1));
  if (statement === null) return [];
  const values: unknown[] = [userId];
  if (status !== undefined) values.push(status);
  if (cursor !== undefined) values.push(cursor.createdAt, cursor.id);
  return queryPrepared(db, statement, values);
}
