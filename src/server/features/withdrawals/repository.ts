import type { PayoutProviderName } from '#shared/contracts/payouts';
import { and, asc, desc, eq, gte, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { profiles, users, withdrawalRequests } from '../../db/schema.ts';
import { cursorTimestamp, olderThan, type PageCursor } from '../../platform/pagination/cursor.ts';
import { tableRowColumns, tableRowPicker } from '../../db/prepared.ts';
import { keysetList, partyColumns, partyOf, type PartyColumns } from '../../platform/pagination/keyset-statements.ts';
import { WITHDRAWAL_STATUSES, type WithdrawalStatus } from '#shared/contracts/enums';

export type WithdrawalRow = typeof withdrawalRequests.$inferSelect;
export type NewWithdrawal = Pick<
  typeof withdrawalRequests.$inferInsert,
  | 'userId'
  | 'bankAccountId'
  | 'accountHolderName'
  | 'accountNumber'
  | 'bankName'
  | 'ifscCode'
  | 'upiId'
  | 'amountUsdtMicros'
  | 'rateInrPaise'
  | 'rateTier'
  | 'amountInrPaise'
  | 'tdsBasisPoints'
  | 'tdsInrPaise'
  | 'pan'
>;
export interface WithdrawalWithUserRow {
  withdrawal: WithdrawalRow;
  user: { id: string; name: string; email: string; phone: string };
  cursorCreatedAt: string;
}

export async function findById(db: Executor, id: string): Promise<WithdrawalRow | undefined> {
  const [row] = await db.select().from(withdrawalRequests).where(eq(withdrawalRequests.id, id));
  return row;
}

/** The withdrawal, locked until the transaction ends: two admins' approvals of it happen one after the other. */
export async function findByIdForUpdate(db: Executor, id: string): Promise<WithdrawalRow | undefined> {
  const [row] = await db.select().from(withdrawalRequests).where(eq(withdrawalRequests.id, id)).for('update');
  return row;
}

export async function findOwned(db: Executor, userId: string, id: string): Promise<WithdrawalRow | undefined> {
  const [row] = await db
    .select()
    .from(withdrawalRequests)
    .where(and(eq(withdrawalRequests.id, id), eq(withdrawalRequests.userId, userId)));
  return row;
}

/** The customer's withdrawal, locked until the transaction ends (a cancel against decisions and batches). */
export async function findOwnedForUpdate(db: Executor, userId: string, id: string): Promise<WithdrawalRow | undefined> {
  const [row] = await db
    .select()
    .from(withdrawalRequests)
    .where(and(eq(withdrawalRequests.id, id), eq(withdrawalRequests.userId, userId)))
    .for('update');
  return row;
}

/** Marks the customer's withdrawal cancelled by them, only while it is pending. */
export async function cancelPending(db: Executor, userId: string, id: string): Promise<WithdrawalRow | undefined> {
  const [row] = await db
    .update(withdrawalRequests)
    .set({ status: 'cancelled', decidedAt: sql`now()`, decidedByUserId: userId })
    .where(and(eq(withdrawalRequests.id, id), eq(withdrawalRequests.userId, userId), eq(withdrawalRequests.status, 'pending')))
    .returning();
  return row;
}

export async function listOwned(
  db: Executor,
  userId: string,
  options: { status: WithdrawalStatus | undefined; cursor: PageCursor | undefined; limit: number },
): Promise<(WithdrawalRow & { cursorCreatedAt: string })[]> {
  const rows = await db
    .select({ withdrawal: withdrawalRequests, cursorCreatedAt: cursorTimestamp(withdrawalRequests.createdAt) })
    .from(withdrawalRequests)
    .where(
      and(
        eq(withdrawalRequests.userId, userId),
        options.status === undefined ? undefined : eq(withdrawalRequests.status, options.status),
        olderThan(withdrawalRequests.createdAt, withdrawalRequests.id, options.cursor),
      ),
    )
    .orderBy(desc(withdrawalRequests.createdAt), desc(withdrawalRequests.id))
    .limit(options.limit + 1);
  return rows.map((row) => ({ ...row.withdrawal, cursorCreatedAt: row.cursorCreatedAt }));
}

/** A system decision (the payout provider's answer) keeps the admin who approved the payout as its decider. */
function decidedBy(userId: string | null) {
  return userId ?? sql`${withdrawalRequests.decidedByUserId}`;
}

/** Decides a withdrawal only while it is in state `from`; a concurrent second decision waits for the row and then finds nothing. */
export async function decideFrom(
  db: Executor,
  id: string,
  from: WithdrawalStatus,
  decision:
    | { status: 'approved'; decidedByUserId: string | null; payoutReference: string | undefined }
    | { status: 'rejected'; decidedByUserId: string | null; rejectionReason: string | undefined },
): Promise<WithdrawalRow | undefined> {
  const [row] = await db
    .update(withdrawalRequests)
    .set(
      decision.status === 'approved'
        ? {
            status: 'approved',
            decidedAt: sql`now()`,
            approvedAt: sql`now()`,
            decidedByUserId: decidedBy(decision.decidedByUserId),
            payoutReference: decision.payoutReference ?? null,
          }
        : {
            status: 'rejected',
            decidedAt: sql`now()`,
            decidedByUserId: decidedBy(decision.decidedByUserId),
            rejectionReason: decision.rejectionReason ?? null,
          },
    )
    .where(and(eq(withdrawalRequests.id, id), eq(withdrawalRequests.status, from)))
    .returning();
  return row;
}

/**
 * An admin's approval with a payout provider configured: the pending withdrawal goes to the provider, `processing`
 * on that provider's route (decision 062), and waits there for the provider's answer. Only a withdrawal that never went into a bank file
 * (no route yet) is handed over; undefined otherwise.
 */
export async function routeToProvider(
  db: Executor,
  id: string,
  provider: PayoutProviderName,
  decidedByUserId: string | null,
): Promise<WithdrawalRow | undefined> {
  const [row] = await db
    .update(withdrawalRequests)
    .set({ status: 'processing', payoutRoute: provider, decidedByUserId })
    .where(and(eq(withdrawalRequests.id, id), eq(withdrawalRequests.status, 'pending'), isNull(withdrawalRequests.payoutRoute)))
    .returning();
  return row;
}

const userSummary = { id: users.id, name: profiles.name, email: users.email, phone: profiles.phone };

function selectWithUsers(db: Executor) {
  return db
    .select({ withdrawal: withdrawalRequests, user: userSummary, cursorCreatedAt: cursorTimestamp(withdrawalRequests.createdAt) })
    .from(withdrawalRequests)
    .innerJoin(users, eq(users.id, withdrawalRequests.userId))
    .innerJoin(profiles, eq(profiles.userId, withdrawalRequests.userId));
}

export async function findWithUser(db: Executor, id: string): Promise<WithdrawalWithUserRow | undefined> {
  const [row] = await selectWithUsers(db).where(eq(withdrawalRequests.id, id));
  return row;
}

const withdrawalColumnsOf = tableRowPicker(withdrawalRequests);

const adminQueuePage = keysetList<WithdrawalRow & PartyColumns<'customer'>>({
  name: 'admin_withdrawals',
  select: `${tableRowColumns(withdrawalRequests, 'w')}, ${partyColumns('u', 'p', 'customer')}`,
  from: 'withdrawal_requests w join users u on u.id = w.user_id join profiles p on p.user_id = w.user_id',
  alias: 'w',
  statuses: WITHDRAWAL_STATUSES,
});

/** The admin queue's page: withdrawals with their customers, newest first. */
export async function listWithUsers(
  db: Database,
  options: { status: WithdrawalStatus | undefined; cursor: PageCursor | undefined; limit: number },
): Promise<WithdrawalWithUserRow[]> {
  const rows = await adminQueuePage(db, options);
  return rows.map((row) => ({
    withdrawal: withdrawalColumnsOf(row),
    user: partyOf(row, 'customer'),
    cursorCreatedAt: row.cursorCreatedAt,
  }));
}

export async function findWithdrawerProfile(db: Executor, userId: string): Promise<{ vipLevel: string; pan: string | null } | undefined> {
  const [row] = await db.select({ vipLevel: profiles.vipLevel, pan: profiles.pan }).from(profiles).where(eq(profiles.userId, userId));
  return row;
}

/** The start of today and of this month in India time, as timestamps. */
const indiaDayStart = sql`(date_trunc('day', now() at time zone 'Asia/Kolkata') at time zone 'Asia/Kolkata')`;
const indiaMonthStart = sql`(date_trunc('month', now() at time zone 'Asia/Kolkata') at time zone 'Asia/Kolkata')`;

/**
 * What a customer has withdrawn today and this month (India time): pending,
 * processing and approved withdrawals count, rejected ones gave the money back.
 */
export async function sumWithdrawnThisDayAndMonth(
  db: Executor,
  userId: string,
): Promise<{ dayUsdtMicros: bigint; monthUsdtMicros: bigint; dayInrPaise: bigint; monthInrPaise: bigint }> {
  const [row] = await db
    .select({
      dayUsdtMicros: sql<string>`coalesce(sum(${withdrawalRequests.amountUsdtMicros}) filter (where ${withdrawalRequests.createdAt} >= ${indiaDayStart}), 0)::text`,
      monthUsdtMicros: sql<string>`coalesce(sum(${withdrawalRequests.amountUsdtMicros}), 0)::text`,
      // The INR of the same withdrawals, for the KYC level's limits (decision 042).
      dayInrPaise: sql<string>`coalesce(sum(${withdrawalRequests.amountInrPaise}) filter (where ${withdrawalRequests.createdAt} >= ${indiaDayStart}), 0)::text`,
      monthInrPaise: sql<string>`coalesce(sum(${withdrawalRequests.amountInrPaise}), 0)::text`,
    })
    .from(withdrawalRequests)
    .where(
      and(
        eq(withdrawalRequests.userId, userId),
        inArray(withdrawalRequests.status, ['pending', 'processing', 'approved']),
        // A payout the bank reversed gave its money back (decision 043): it no longer uses the customer's limits.
        isNull(withdrawalRequests.reversedAt),
        gte(withdrawalRequests.createdAt, indiaMonthStart),
      ),
    );
  return {
    dayUsdtMicros: BigInt(row?.dayUsdtMicros ?? '0'),
    monthUsdtMicros: BigInt(row?.monthUsdtMicros ?? '0'),
    dayInrPaise: BigInt(row?.dayInrPaise ?? '0'),
    monthInrPaise: BigInt(row?.monthInrPaise ?? '0'),
  };
}

export interface TdsReportRow {
  withdrawalId: string;
  pan: string | null;
  name: string;
  email: string;
  amountInrPaise: bigint;
  tdsInrPaise: bigint;
  tdsBasisPoints: number;
  status: string;
  /** The withdrawal's date in India time, YYYY-MM-DD. */
  indiaDate: string;
}

/** Withdrawals with TDS withheld and neither rejected nor cancelled, made from `from` to `to` inclusive (India dates), oldest first. */
export async function listTdsWithdrawals(db: Executor, range: { from: string; to: string }, limit: number): Promise<TdsReportRow[]> {
  const from = sql`(${range.from}::date::timestamp at time zone 'Asia/Kolkata')`;
  const toExclusive = sql`((${range.to}::date + 1)::timestamp at time zone 'Asia/Kolkata')`;
  return db
    .select({
      withdrawalId: withdrawalRequests.id,
      pan: withdrawalRequests.pan,
      name: profiles.name,
      email: users.email,
      amountInrPaise: withdrawalRequests.amountInrPaise,
      tdsInrPaise: withdrawalRequests.tdsInrPaise,
      tdsBasisPoints: withdrawalRequests.tdsBasisPoints,
      status: withdrawalRequests.status,
      indiaDate: sql<string>`to_char(${withdrawalRequests.createdAt} at time zone 'Asia/Kolkata', 'YYYY-MM-DD')`,
    })
    .from(withdrawalRequests)
    .innerJoin(users, eq(users.id, withdrawalRequests.userId))
    .innerJoin(profiles, eq(profiles.userId, withdrawalRequests.userId))
    .where(
      and(
        sql`${withdrawalRequests.tdsInrPaise} > 0`,
        notInArray(withdrawalRequests.status, ['rejected', 'cancelled']),
        gte(withdrawalRequests.createdAt, from),
        lt(withdrawalRequests.createdAt, toExclusive),
      ),
    )
    .orderBy(asc(withdrawalRequests.createdAt), asc(withdrawalRequests.id))
    .limit(limit);
}
