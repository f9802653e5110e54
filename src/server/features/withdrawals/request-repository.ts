import type { PanStatus, RiskCategory } from '#shared/contracts/kyc';
import type { PayeeCheck } from '#shared/contracts/bank-accounts';
import type { LevelTwoStatus } from '#shared/contracts/kyc-documents';
import type { Executor } from '../../db/client.ts';
import { preparedStatement, queryPreparedIn, tableRowColumns } from '../../db/prepared.ts';
import { withdrawalRequests } from '../../db/schema.ts';
import { publishedEventValues, publishEventsColumn, type AppEvent } from '../../platform/events/publish.ts';
import type { NewWithdrawal, WithdrawalRow } from './repository.ts';

/*
 * The statements of a customer's withdrawal request (POST /api/withdrawals), written once as SQL
 * with parameters and sent as named prepared statements: the request is the app's busiest write,
 * and each statement built by the query builder cost a round trip, the building, and a parse and
 * plan in PostgreSQL. The context is read before the insert so that the locks every customer's
 * withdrawal shares are held for the insert and one ledger statement only (decision 022: the
 * request went from 0.64 to 0.78-1.03 of a bare argon2id verify's throughput).
 */

/** Everything the request reads before it inserts: the bank account (locked for share), the profile, the reset times and the settings it uses. */
export interface WithdrawalContextRow {
  vipLevel: string;
  pan: string | null;
  /** What the KYC level rule reads (decision 042): a withdrawal needs level 1. */
  name: string;
  emailVerifiedAt: Date | null;
  phoneVerifiedAt: Date | null;
  panStatus: PanStatus;
  panRegisteredName: string | null;
  panNameAccepted: string | null;
  panAadhaarLinked: boolean | null;
  taxResidenceDeclaredAt: Date | null;
  /** The freeze and the KYC refresh (decision 047): a frozen or overdue customer cannot withdraw. */
  panCheckedAt: Date | null;
  frozenAt: Date | null;
  riskCategory: RiskCategory;
  kycRefreshMonthsHighRisk: number;
  kycRefreshMonthsOther: number;
  tdsNoPanBasisPoints: number;
  kycLevel1DailyLimitInrPaise: bigint | null;
  kycLevel1MonthlyLimitInrPaise: bigint | null;
  /** Level 2's limits apply once level 2 is approved (decision 050). */
  level2Status: LevelTwoStatus;
  kycLevel2DailyLimitInrPaise: bigint | null;
  kycLevel2MonthlyLimitInrPaise: bigint | null;
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
  /** Set when a payout to the account failed for a reason of the account (decision 044). */
  flaggedAt: Date | null;
  flagReason: string | null;
  payeeCheck: PayeeCheck | null;
  /** The UPI id the payee's current check covered (null when it checked the bank account alone): decision 068. */
  checkedUpiId: string | null;
}

const findContextStatement = preparedStatement<WithdrawalContextRow>(
  'withdrawal_request_context',
  `with account as (
     select id, account_holder_name, account_number, bank_name, ifsc_code, upi_id, details_changed_at, flagged_at, flag_reason, payee_check,
       (select v.vpa from payee_validations v where v.id = bank_accounts.validation_id) as checked_upi_id
     from bank_accounts
     where id = $2 and user_id = $1
     for share
   )
   select p.vip_level as "vipLevel", p.pan, p.name, u.email_verified_at as "emailVerifiedAt", p.phone_verified_at as "phoneVerifiedAt",
     coalesce(k.pan_status, 'none') as "panStatus", k.pan_registered_name as "panRegisteredName", k.pan_name_accepted as "panNameAccepted",
     k.pan_aadhaar_linked as "panAadhaarLinked", k.tax_residence_declared_at as "taxResidenceDeclaredAt",
     k.pan_checked_at as "panCheckedAt", k.frozen_at as "frozenAt", coalesce(k.risk_category, 'low') as "riskCategory",
     s.kyc_refresh_months_high_risk as "kycRefreshMonthsHighRisk", s.kyc_refresh_months_other as "kycRefreshMonthsOther",
     s.tds_no_pan_basis_points as "tdsNoPanBasisPoints", s.kyc_level1_daily_limit_inr_paise as "kycLevel1DailyLimitInrPaise",
     s.kyc_level1_monthly_limit_inr_paise as "kycLevel1MonthlyLimitInrPaise", coalesce(k.level2_status, 'none') as "level2Status",
     s.kyc_level2_daily_limit_inr_paise as "kycLevel2DailyLimitInrPaise", s.kyc_level2_monthly_limit_inr_paise as "kycLevel2MonthlyLimitInrPaise",
     u.pin_reset_at as "pinResetAt", u.password_reset_at as "passwordResetAt",
     s.rate_normal_inr_paise as "rateNormalInrPaise", s.rate_vip_inr_paise as "rateVipInrPaise", s.tds_basis_points as "tdsBasisPoints",
     s.withdrawal_min_usdt_micros as "withdrawalMinUsdtMicros", s.withdrawal_max_usdt_micros as "withdrawalMaxUsdtMicros",
     s.withdrawal_daily_limit_normal_usdt_micros as "withdrawalDailyLimitNormalUsdtMicros",
     s.withdrawal_monthly_limit_normal_usdt_micros as "withdrawalMonthlyLimitNormalUsdtMicros",
     s.withdrawal_daily_limit_vip_usdt_micros as "withdrawalDailyLimitVipUsdtMicros",
     s.withdrawal_monthly_limit_vip_usdt_micros as "withdrawalMonthlyLimitVipUsdtMicros",
     a.id as "bankAccountId", a.account_holder_name as "accountHolderName", a.account_number as "accountNumber", a.bank_name as "bankName",
     a.ifsc_code as "ifscCode", a.upi_id as "upiId", a.details_changed_at as "detailsChangedAt",
     a.flagged_at as "flaggedAt", a.flag_reason as "flagReason", a.payee_check as "payeeCheck", a.checked_upi_id as "checkedUpiId",
     ${publishEventsColumn('$3', '$4')}
   from profiles p
     join users u on u.id = p.user_id
     join admin_settings s on s.id = 1
     left join kyc_records k on k.user_id = p.user_id
     left join account a on true
   where p.user_id = $1`,
);

/**
 * In one statement: the customer's bank account `bankAccountId` locked for share (so it cannot be
 * deleted while the request is made), the profile (tier and PAN), the PIN and password reset times
 * (the cooling-off) and the settings a withdrawal needs; it also publishes `events`, which are
 * delivered only if the transaction commits. Undefined only when the user has no profile.
 */
export async function findWithdrawalContext(
  db: Executor,
  ids: { userId: string; bankAccountId: string },
  events: readonly AppEvent[],
): Promise<WithdrawalContextRow | undefined> {
  const [row] = await queryPreparedIn(db, findContextStatement, [ids.userId, ids.bankAccountId, ...publishedEventValues(events)]);
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

const ownsBankAccountStatement = preparedStatement<{ owned: boolean }>(
  'withdrawal_bank_account_owned',
  `select exists (select 1 from bank_accounts where id = $2 and user_id = $1) as owned`,
);

/** Whether the bank account is the customer's; the request's transaction reads it again, locked. */
export async function ownsBankAccount(db: Executor, userId: string, bankAccountId: string): Promise<boolean> {
  const [row] = await queryPreparedIn(db, ownsBankAccountStatement, [userId, bankAccountId]);
  return row?.owned === true;
}
