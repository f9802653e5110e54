import { sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';

export interface LedgerCheckResult {
  name: string;
  passed: boolean;
  /** What was found, in words, with every offending account or amount. */
  detail: string;
}

export interface LedgerCheckReport {
  ok: boolean;
  accountsChecked: number;
  transfersChecked: number;
  checks: LedgerCheckResult[];
}

/** Largest number of offending rows named in one check's detail; the count is always exact. */
const MAX_LISTED = 20;

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return result.rows as T[];
}

/**
 * Verifies the ledger's invariants on one consistent snapshot (a read-only
 * repeatable-read transaction): every cached balance equals the sum of its
 * transfers, all balances add up to zero, no customer wallet is negative, and
 * each house account holds exactly what the request tables say it should.
 */
export async function checkLedger(database: Database): Promise<LedgerCheckReport> {
  return database.transaction(async (db) => checkLedgerWithin(db), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** At most MAX_LISTED offenders in words, after their exact count. */
function listed<Row>(offenders: Row[], what: string, describe: (row: Row) => string): string {
  return `${offenders.length} ${what}: ${offenders.slice(0, MAX_LISTED).map(describe).join('; ')}`;
}

interface LedgerCounts {
  accounts: bigint;
  transfers: bigint;
}

async function cachedBalancesCheck(db: Executor, counts: LedgerCounts): Promise<LedgerCheckResult> {
  const mismatched = await rows<{ id: bigint; kind: string; user_id: string | null; cached: string; computed: string }>(
    db,
    sql`
      with movements as (
        select to_account_id as account_id, amount_usdt_micros::numeric as amount from ledger_transfers
        union all
        select from_account_id, -amount_usdt_micros::numeric from ledger_transfers
      ), sums as (
        select account_id, sum(amount) as total from movements group by account_id
      )
      select a.id, a.kind, a.user_id, a.balance_usdt_micros::text as cached, coalesce(s.total, 0)::text as computed
      from ledger_accounts a left join sums s on s.account_id = a.id
      where a.balance_usdt_micros::numeric <> coalesce(s.total, 0)
      order by a.id`,
  );
  return {
    name: 'cached balance equals the sum of transfers, for every account',
    passed: mismatched.length === 0,
    detail:
      mismatched.length === 0
        ? `${counts.accounts} accounts match their ${counts.transfers} transfers`
        : listed(
            mismatched,
            'account(s) differ',
            (row) =>
              `account ${row.id} (${row.kind}${row.user_id ? ` of user ${row.user_id}` : ''}) caches ${row.cached} but its transfers sum to ${row.computed}`,
          ),
  };
}

async function zeroSumCheck(db: Executor): Promise<LedgerCheckResult> {
  const [total] = await rows<{ total: string }>(db, sql`select coalesce(sum(balance_usdt_micros::numeric), 0)::text as total from ledger_accounts`);
  return {
    name: 'all balances add up to zero',
    passed: total?.total === '0',
    detail: `sum of all balances is ${total?.total ?? 'unknown'} micro-USDT`,
  };
}

async function noNegativeWalletCheck(db: Executor): Promise<LedgerCheckResult> {
  const negative = await rows<{ id: bigint; user_id: string; balance: string }>(
    db,
    sql`select id, user_id, balance_usdt_micros::text as balance from ledger_accounts where kind = 'customer_wallet' and balance_usdt_micros < 0 order by id`,
  );
  return {
    name: 'no customer wallet is negative',
    passed: negative.length === 0,
    detail:
      negative.length === 0
        ? 'every customer wallet is zero or positive'
        : listed(negative, 'negative wallet(s)', (row) => `account ${row.id} of user ${row.user_id} holds ${row.balance}`),
  };
}

/**
 * Each house account against the requests that explain it. The signs follow from the flows: money
 * enters through deposits_received and referral_rewards (so they go negative), waits in
 * withdrawals_pending / transfers_pending, and leaves into withdrawals_paid. A credited deposit whose
 * transfer vanished and that an admin took back returns to deposits_received, and the referral
 * rewards paid on it return to referral_rewards as far as the referrers still held them (decision 049).
 */
async function houseAccountsCheck(db: Executor): Promise<LedgerCheckResult> {
  const houseExpectations = await rows<{ kind: string; actual: string; expected: string }>(
    db,
    sql`
      select h.kind, coalesce(a.balance_usdt_micros, 0)::text as actual, h.expected::text as expected
      from (
        values
          ('deposits_received', -(select coalesce(sum(amount_usdt_micros::numeric), 0) from usdt_deposits where status = 'approved')
            + (select coalesce(sum(amount_usdt_micros::numeric), 0) from chain_incidents where resolution = 'debited')),
          ('withdrawals_pending', (select coalesce(sum(amount_usdt_micros::numeric), 0) from withdrawal_requests where status in ('pending', 'processing'))),
          ('withdrawals_paid', (select coalesce(sum(amount_usdt_micros::numeric), 0) from withdrawal_requests where status = 'approved' and reversed_at is null)),
          ('transfers_pending', (select coalesce(sum(amount_usdt_micros::numeric), 0) from transfers where status = 'pending')),
          ('referral_rewards', -(select coalesce(sum(reward_usdt_micros::numeric), 0) from referral_rewards)
            + (select coalesce(sum(taken_back_usdt_micros::numeric), 0) from referral_reward_reversals))
      ) as h(kind, expected)
      left join ledger_accounts a on a.kind = h.kind and a.user_id is null
      order by h.kind`,
  );
  const houseBreaches = houseExpectations.filter((row) => row.actual !== row.expected);
  return {
    name: 'house accounts match the deposits, withdrawals, transfers and referral rewards they hold',
    passed: houseBreaches.length === 0,
    detail:
      houseBreaches.length === 0
        ? houseExpectations.map((row) => `${row.kind} ${row.actual}`).join(', ')
        : houseBreaches.map((row) => `${row.kind} holds ${row.actual} but its requests say ${row.expected}`).join('; '),
  };
}

/** The same checks inside a transaction the caller already holds. */
export async function checkLedgerWithin(db: Executor): Promise<LedgerCheckReport> {
  const [found] = await rows<LedgerCounts>(
    db,
    sql`select (select count(*) from ledger_accounts) as accounts, (select count(*) from ledger_transfers) as transfers`,
  );
  const counts = found ?? { accounts: 0n, transfers: 0n };
  // One after the other: they share the caller's transaction, which runs one statement at a time.
  const checks = [await cachedBalancesCheck(db, counts), await zeroSumCheck(db), await noNegativeWalletCheck(db), await houseAccountsCheck(db)];
  return {
    ok: checks.every((check) => check.passed),
    accountsChecked: Number(counts.accounts),
    transfersChecked: Number(counts.transfers),
    checks,
  };
}

/** The report as the CLI prints it, one line per check. */
export function formatLedgerReport(report: LedgerCheckReport): string {
  const lines = [`Ledger check: ${report.accountsChecked} accounts, ${report.transfersChecked} transfers`];
  for (const check of report.checks) lines.push(`${check.passed ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`);
  lines.push(report.ok ? 'Ledger is consistent.' : 'LEDGER BREACH: see the FAIL lines above.');
  return lines.join('\n');
}
