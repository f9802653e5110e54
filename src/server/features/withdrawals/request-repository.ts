import type { Executor } from '../../db/client.ts';
import { preparedStatement, queryPreparedIn, tableRowColumns } from '../../db/prepared.ts';
import { withdrawalRequests } from '../../db/schema.ts';
import { publishedEventValues, publishEventsColumn, type AppEvent } from '../../platform/events/publish.ts';
import { openCheckSql, openCheckValues, openedPinCheckOf, pinRecheckColumns, pinRecheckValues, type OpenedPinCheck, type OpenedPinCheckRow, type PinFailureRule, type PinRecheck } from '../pin/service.ts';
import type { NewWithdrawal, WithdrawalRow } from './repository.ts';

/*
 * The statements of a customer's withdrawal request (POST /api/withdrawals), written once as SQL
 * with parameters and sent as named prepared statements: the request is the app's busiest write,
 * and each statement built by the query builder cost a round trip, the building, and a parse and
 * plan in PostgreSQL.
 */

/** Everything the request reads before it inserts: the bank account (locked for share), the profile, the reset times and the settings it uses. */
export interface WithdrawalContextRow extends PinRecheck {
  vipLevel: string;
  pan: string | null;
  pinResetAt: Date | null;
  passwordResetAt: Date | null;
  rateNormalInrPaise: bigint;
  rateVipInrPaise: bigint;
  tdsBasisPoints: number;
  withdrawalMinUsdtMicros: bigint | null;
  withdrawalMaxUsdtMicros: bigint | null;
  withdrawalDailyLimitNormalUsdtMicros: bigint | null;
  withdrawalMonthlyLimitNormalUsdtMicros: bigint | null;
  withdrawalDailyLimitVipUsdtMicros: bigint | null;
  withdrawalMonthlyLimitVipUsdtMicros: bigint | null;
  /** Null when the account is not the customer's (or is gone). */
  bankAccountId: string | null;
  accountHolderName: string | null;
  accountNumber: string | null;
  bankName: string | null;
  ifscCode: string | null;
  upiId: string | null;
  detailsChangedAt: Date | null;
}

const findContextStatement = preparedStatement<WithdrawalContextRow>(
  'withdrawal_request_context',
  `with account as (
     select id, account_holder_name, account_number, bank_name, ifsc_code, upi_id, details_changed_at
     from bank_accounts
     where id = $2 and user_id = $1
     for share
   )
   select p.vip_level as "vipLevel", p.pan, u.pin_reset_at as "pinResetAt", u.password_reset_at as "passwordResetAt",
     s.rate_normal_inr_paise as "rateNormalInrPaise", s.rate_vip_inr_paise as "rateVipInrPaise", s.tds_basis_points as "tdsBasisPoints",
     s.withdrawal_min_usdt_micros as "withdrawalMinUsdtMicros", s.withdrawal_max_usdt_micros as "withdrawalMaxUsdtMicros",
     s.withdrawal_daily_limit_normal_usdt_micros as "withdrawalDailyLimitNormalUsdtMicros",
     s.withdrawal_monthly_limit_normal_usdt_micros as "withdrawalMonthlyLimitNormalUsdtMicros",
     s.withdrawal_daily_limit_vip_usdt_micros as "withdrawalDailyLimitVipUsdtMicros",
     s.withdrawal_monthly_limit_vip_usdt_micros as "withdrawalMonthlyLimitVipUsdtMicros",
     a.id as "bankAccountId", a.account_holder_name as "accountHolderName", a.account_number as "accountNumber", a.bank_name as "bankName",
     a.ifsc_code as "ifscCode", a.upi_id as "upiId", a.details_changed_at as "detailsChangedAt",
     ${pinRecheckColumns('$3', '$1', '$4', '$5')},
     ${publishEventsColumn('$6', '$7')}
   from profiles p
     join users u on u.id = p.user_id
     join admin_settings s on s.id = 1
     left join account a on true
   where p.user_id = $1`,
);

/**
 * In one statement: the customer's bank account `bankAccountId` locked for share (so it cannot be
 * deleted while the request is made), the profile (tier and PAN), the PIN and password reset times
 * (the cooling-off), the settings a withdrawal needs, and the PIN check's re-read (pinRecheckColumns,
 * for the session `sessionId`); it also publishes `events`, which are delivered only if the
 * transaction commits. Undefined only when the user has no profile.
 */
export async function findWithdrawalContext(
  db: Executor,
  ids: { userId: string; bankAccountId: string; sessionId: string },
  failures: { limit: number; windowSeconds: number },
  events: readonly AppEvent[],
): Promise<WithdrawalContextRow | undefined> {
  // pinRecheckColumns reads its four values as $3 (session), $1 (user), $4 and $5.
  const [sessionId, , windowSeconds, offset] = pinRecheckValues(ids.sessionId, ids.userId, failures);
  const [row] = await queryPreparedIn(db, findContextStatement, [ids.userId, ids.bankAccountId, sessionId, windowSeconds, offset, ...publishedEventValues(events)]);
  return row;
}

const insertStatement = preparedStatement<WithdrawalRow>(
  'withdrawal_request_insert',
  `insert into withdrawal_requests as w (user_id, bank_account_id, account_holder_name, account_number, bank_name, ifsc_code, upi_id,
     amount_usdt_micros, rate_inr_paise, rate_tier, amount_inr_paise, tds_basis_points, tds_inr_paise, pan)
   values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
   returning ${tableRowColumns(withdrawalRequests, 'w')}`,
);

export async function insertWithdrawal(db: Executor, values: NewWithdrawal): Promise<WithdrawalRow> {
  const [row] = await queryPreparedIn(db, insertStatement, [
    values.userId,
    values.bankAccountId ?? null,
    values.accountHolderName,
    values.accountNumber,
    values.bankName,
    values.ifscCode,
    values.upiId ?? null,
    values.amountUsdtMicros.toString(),
    values.rateInrPaise.toString(),
    values.rateTier,
    values.amountInrPaise.toString(),
    values.tdsBasisPoints ?? 0,
    (values.tdsInrPaise ?? 0n).toString(),
    values.pan ?? null,
  ]);
  if (!row) throw new Error('insert into withdrawal_requests returned no row');
  return row;
}

const openPinCheckStatement = preparedStatement<OpenedPinCheckRow>(
  'withdrawal_pin_check_open',
  openCheckSql('exists (select 1 from bank_accounts where id = $6 and user_id = $3)'),
);

/**
 * The PIN check's first statement (openCheckSql), which goes ahead, counting the attempt, only when
 * the bank account is the customer's: choosing a wrong account costs no PIN attempt, in no extra
 * round trip. The transaction reads the account again, locked.
 */
export async function openPinCheckIfOwned(
  db: Executor,
  rateLimit: { key: string; windowSeconds: number },
  userId: string,
  failures: PinFailureRule,
  bankAccountId: string,
): Promise<OpenedPinCheck> {
  const [row] = await queryPreparedIn(db, openPinCheckStatement, [...openCheckValues(rateLimit, userId, failures), bankAccountId]);
  return openedPinCheckOf(row);
}
