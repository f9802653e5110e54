import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { profiles, users, withdrawalRequests } from '../../db/schema.ts';
import { cursorTimestamp, olderThan, type PageCursor } from '../../platform/pagination/cursor.ts';
import type { WithdrawalStatus } from '../../../shared/contracts/enums.ts';

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
>;
export interface WithdrawalWithUserRow {
  withdrawal: WithdrawalRow;
  user: { id: string; name: string; email: string; phone: string };
  cursorCreatedAt: string;
}

export async function insert(db: Executor, values: NewWithdrawal): Promise<WithdrawalRow> {
  const [row] = await db.insert(withdrawalRequests).values(values).returning();
  if (!row) throw new Error('insert into withdrawal_requests returned no row');
  return row;
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
        ? { status: 'approved', decidedAt: sql`now()`, approvedAt: sql`now()`, decidedByUserId: decision.decidedByUserId, payoutReference: decision.payoutReference ?? null }
        : { status: 'rejected', decidedAt: sql`now()`, decidedByUserId: decision.decidedByUserId, rejectionReason: decision.rejectionReason ?? null },
    )
    .where(and(eq(withdrawalRequests.id, id), eq(withdrawalRequests.status, from)))
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

export async function listWithUsers(
  db: Executor,
  options: { status: WithdrawalStatus | undefined; cursor: PageCursor | undefined; limit: number },
): Promise<WithdrawalWithUserRow[]> {
  return selectWithUsers(db)
    .where(
      and(
        options.status === undefined ? undefined : eq(withdrawalRequests.status, options.status),
        olderThan(withdrawalRequests.createdAt, withdrawalRequests.id, options.cursor),
      ),
    )
    .orderBy(desc(withdrawalRequests.createdAt), desc(withdrawalRequests.id))
    .limit(options.limit + 1);
}

export async function findVipLevel(db: Executor, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ vipLevel: profiles.vipLevel }).from(profiles).where(eq(profiles.userId, userId));
  return row?.vipLevel;
}
