import type { PayoutFileFormat } from '#shared/contracts/payout-file-formats';
import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { payoutBatchDownloads, payoutBatches, profiles, users, withdrawalRequests } from '../../db/schema.ts';
import { cursorTimestamp, olderThan, type PageCursor } from '../../platform/pagination/cursor.ts';

export type PayoutBatchRow = typeof payoutBatches.$inferSelect;
export type PayoutBatchWithCounts = PayoutBatchRow & {
  processingCount: number;
  cursorCreatedAt: string;
  /** Who created the batch, as they are called now (null once that user is gone). */
  createdByName: string | null;
  createdByEmail: string | null;
  /** Who issued the file (its first download), as they are called now. */
  issuedByName: string | null;
  issuedByEmail: string | null;
  downloadCount: number;
};
export type WithdrawalRow = typeof withdrawalRequests.$inferSelect;

// Written out in SQL: drizzle leaves columns unqualified in a one-table select, and an unqualified
// "id" inside this subquery would silently mean the withdrawal's id.
const processingCount = sql<number>`(select count(*)::int from withdrawal_requests w where w.payout_batch_id = payout_batches.id and w.status = 'processing')`;
const issuedByName = sql<string | null>`(select p.name from profiles p where p.user_id = payout_batches.issued_by_user_id)`;
const issuedByEmail = sql<string | null>`(select u.email from users u where u.id = payout_batches.issued_by_user_id)`;
const downloadCount = sql<number>`(select count(*)::int from payout_batch_downloads d where d.payout_batch_id = payout_batches.id)`;

function selectBatches(db: Executor) {
  return db
    .select({
      batch: payoutBatches,
      processingCount,
      cursorCreatedAt: cursorTimestamp(payoutBatches.createdAt),
      createdByName: profiles.name,
      createdByEmail: users.email,
      issuedByName,
      issuedByEmail,
      downloadCount,
    })
    .from(payoutBatches)
    .leftJoin(users, eq(users.id, payoutBatches.createdByUserId))
    .leftJoin(profiles, eq(profiles.userId, payoutBatches.createdByUserId));
}

function flatten(row: { batch: PayoutBatchRow } & Omit<PayoutBatchWithCounts, keyof PayoutBatchRow>): PayoutBatchWithCounts {
  const { batch, ...counts } = row;
  return Object.assign(batch, counts);
}

export async function insertBatch(db: Executor, values: { createdByUserId: string }): Promise<PayoutBatchRow> {
  // Count and total are filled in once the withdrawals are claimed, in the same transaction.
  const [row] = await db.insert(payoutBatches).values({ createdByUserId: values.createdByUserId, withdrawalCount: 1, totalInrPaise: 0n }).returning();
  if (!row) throw new Error('insert into payout_batches returned no row');
  return row;
}

export async function setTotals(db: Executor, id: string, totals: { withdrawalCount: number; totalInrPaise: bigint }): Promise<void> {
  await db.update(payoutBatches).set(totals).where(eq(payoutBatches.id, id));
}

/**
 * Moves the named withdrawals from pending into the batch. The update is
 * conditional on each row still being pending and in no batch, so a withdrawal
 * that another batch claimed first (or that was decided) is left out.
 */
export async function claimNamed(db: Executor, batchId: string, withdrawalIds: string[]): Promise<WithdrawalRow[]> {
  return db
    .update(withdrawalRequests)
    .set({ status: 'processing', payoutBatchId: batchId, payoutRoute: 'bank_file' })
    .where(and(inArray(withdrawalRequests.id, withdrawalIds), eq(withdrawalRequests.status, 'pending')))
    .returning();
}

/** Customers whose withdrawals wait out of any bank file: a frozen account (decision 047), an open chain incident (decision 045). */
const FROZEN_USERS = sql`select user_id from kyc_records where frozen_at is not null`;
const OPEN_INCIDENT_USERS = sql`select user_id from chain_incidents where resolved_at is null`;

/**
 * Claims the oldest pending withdrawals worth at most `maxAmountInrPaise` (when given) that are not
 * `excludedUserId`'s, nor held (FROZEN_USERS, OPEN_INCIDENT_USERS); rows another batch is claiming right now
 * are skipped, not waited for.
 */
export async function claimOldestPending(
  db: Executor,
  batchId: string,
  options: { limit: number; maxAmountInrPaise: bigint | null; excludedUserId: string },
): Promise<WithdrawalRow[]> {
  const withinAmount = options.maxAmountInrPaise === null ? sql`true` : sql`amount_inr_paise <= ${options.maxAmountInrPaise}`;
  return db
    .update(withdrawalRequests)
    .set({ status: 'processing', payoutBatchId: batchId, payoutRoute: 'bank_file' })
    .where(
      and(
        eq(withdrawalRequests.status, 'pending'),
        sql`${withdrawalRequests.id} in (
          select id from withdrawal_requests where status = 'pending' and ${withinAmount} and user_id <> ${options.excludedUserId}
            and user_id not in (${FROZEN_USERS}) and user_id not in (${OPEN_INCIDENT_USERS})
          order by created_at, id limit ${options.limit} for update skip locked
        )`,
      ),
    )
    .returning();
}

/** Of the named withdrawals, those whose customer is frozen and those whose customer has an open chain incident. */
export async function findNamedHeld(db: Executor, withdrawalIds: string[]): Promise<{ frozen: string[]; heldByIncident: string[] }> {
  const rows = await db
    .select({
      id: withdrawalRequests.id,
      frozen: sql<boolean>`${withdrawalRequests.userId} in (${FROZEN_USERS})`,
      heldByIncident: sql<boolean>`${withdrawalRequests.userId} in (${OPEN_INCIDENT_USERS})`,
    })
    .from(withdrawalRequests)
    .where(inArray(withdrawalRequests.id, withdrawalIds));
  return { frozen: rows.filter((row) => row.frozen).map((row) => row.id), heldByIncident: rows.filter((row) => row.heldByIncident).map((row) => row.id) };
}

/** The named withdrawals that are `userId`'s. */
export async function findNamedOwnedBy(db: Executor, withdrawalIds: string[], userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: withdrawalRequests.id })
    .from(withdrawalRequests)
    .where(and(inArray(withdrawalRequests.id, withdrawalIds), eq(withdrawalRequests.userId, userId)));
  return rows.map((row) => row.id);
}

/** The named withdrawals worth more than `amountInrPaise`. */
export async function findNamedAbove(db: Executor, withdrawalIds: string[], amountInrPaise: bigint): Promise<string[]> {
  const rows = await db
    .select({ id: withdrawalRequests.id })
    .from(withdrawalRequests)
    .where(and(inArray(withdrawalRequests.id, withdrawalIds), sql`${withdrawalRequests.amountInrPaise} > ${amountInrPaise}`));
  return rows.map((row) => row.id);
}

export async function findBatch(db: Executor, id: string, lock?: 'share' | 'update'): Promise<PayoutBatchRow | undefined> {
  const query = db.select().from(payoutBatches).where(eq(payoutBatches.id, id));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function findBatchWithCounts(db: Executor, id: string): Promise<PayoutBatchWithCounts | undefined> {
  const [row] = await selectBatches(db).where(eq(payoutBatches.id, id));
  return row ? flatten(row) : undefined;
}

export async function listBatches(db: Executor, options: { cursor: PageCursor | undefined; limit: number }): Promise<PayoutBatchWithCounts[]> {
  const rows = await selectBatches(db)
    .where(olderThan(payoutBatches.createdAt, payoutBatches.id, options.cursor))
    .orderBy(desc(payoutBatches.createdAt), desc(payoutBatches.id))
    .limit(options.limit + 1);
  return rows.map(flatten);
}

/** The batch's withdrawals in the order they are paid (oldest request first), which is also the file's order. */
export async function listBatchWithdrawals(db: Executor, batchId: string): Promise<WithdrawalRow[]> {
  return db
    .select()
    .from(withdrawalRequests)
    .where(eq(withdrawalRequests.payoutBatchId, batchId))
    .orderBy(asc(withdrawalRequests.createdAt), asc(withdrawalRequests.id));
}

export async function countDecided(db: Executor, batchId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(withdrawalRequests)
    .where(and(eq(withdrawalRequests.payoutBatchId, batchId), sql`${withdrawalRequests.status} <> 'processing'`));
  return row?.count ?? 0;
}

/**
 * Returns the batch's processing withdrawals to pending and out of the batch. The file was never issued, so no bank
 * has them: their route is free again (a payout provider may take them, decision 043).
 */
export async function releaseWithdrawals(db: Executor, batchId: string): Promise<WithdrawalRow[]> {
  return db
    .update(withdrawalRequests)
    .set({ status: 'pending', payoutBatchId: null, payoutRoute: null })
    .where(and(eq(withdrawalRequests.payoutBatchId, batchId), eq(withdrawalRequests.status, 'processing')))
    .returning();
}

export async function markCancelled(db: Executor, batchId: string): Promise<void> {
  await db
    .update(payoutBatches)
    .set({ status: 'cancelled', cancelledAt: sql`now()` })
    .where(eq(payoutBatches.id, batchId));
}

/** Records the first download: the file is issued (decision 038). Conditional, so only one download can issue it. */
export async function markIssued(
  db: Executor,
  batchId: string,
  values: { userId: string; fileSha256: string; fileFormat: PayoutFileFormat; fileDebitAccountNumber: string },
): Promise<boolean> {
  const rows = await db
    .update(payoutBatches)
    .set({
      issuedAt: sql`now()`,
      issuedByUserId: values.userId,
      fileSha256: values.fileSha256,
      fileFormat: values.fileFormat,
      fileDebitAccountNumber: values.fileDebitAccountNumber,
    })
    .where(and(eq(payoutBatches.id, batchId), sql`${payoutBatches.issuedAt} is null`))
    .returning({ id: payoutBatches.id });
  return rows.length === 1;
}

export async function insertDownload(db: Executor, values: { batchId: string; userId: string; fileSha256: string }): Promise<void> {
  await db.insert(payoutBatchDownloads).values({ payoutBatchId: values.batchId, downloadedByUserId: values.userId, fileSha256: values.fileSha256 });
}

/** The withdrawals a results file names, by short reference or id; locked (in id order, so two uploads lock alike) when applying. */
export async function findNamedWithdrawals(db: Executor, names: { references: string[]; ids: string[] }, lock: boolean): Promise<WithdrawalRow[]> {
  const conditions = [
    names.references.length > 0 ? inArray(withdrawalRequests.reference, names.references) : undefined,
    names.ids.length > 0 ? inArray(withdrawalRequests.id, names.ids) : undefined,
  ].filter((condition) => condition !== undefined);
  if (conditions.length === 0) return [];
  const query = db
    .select()
    .from(withdrawalRequests)
    .where(conditions.length === 1 ? conditions[0] : or(...conditions))
    .orderBy(asc(withdrawalRequests.id));
  return lock ? query.for('update') : query;
}

/** The withdrawals that already carry one of these UTRs. */
export async function findByPayoutReferences(db: Executor, utrs: string[]): Promise<{ id: string; reference: string; payoutReference: string | null }[]> {
  if (utrs.length === 0) return [];
  return db
    .select({ id: withdrawalRequests.id, reference: withdrawalRequests.reference, payoutReference: withdrawalRequests.payoutReference })
    .from(withdrawalRequests)
    .where(inArray(withdrawalRequests.payoutReference, utrs));
}

/**
 * A row the bank did not send: the withdrawal is pending again, out of the batch, and can be batched anew. Its
 * route stays the bank file's: a withdrawal that was in an issued file never goes to a payout provider.
 */
export async function returnToPending(db: Executor, withdrawalId: string, batchId: string): Promise<WithdrawalRow | undefined> {
  const [row] = await db
    .update(withdrawalRequests)
    .set({ status: 'pending', payoutBatchId: null })
    .where(and(eq(withdrawalRequests.id, withdrawalId), eq(withdrawalRequests.payoutBatchId, batchId), eq(withdrawalRequests.status, 'processing')))
    .returning();
  return row;
}

export interface BatchCandidateRow {
  id: string;
  reference: string;
  customerName: string;
  customerEmail: string;
  amountInrPaise: bigint;
  tdsInrPaise: bigint;
  bankName: string;
  accountNumber: string;
  upiId: string | null;
  createdAt: Date;
  totalMatching: number;
}

/**
 * The pending withdrawals a new batch of `adminUserId` may take, by the same rules as claimOldestPending (not the
 * admin's own, nor held, nor above the two-admin amount), narrowed by the admin's filters; oldest first.
 */
export async function findBatchCandidates(
  db: Executor,
  options: {
    adminUserId: string;
    largestBatchableInrPaise: bigint | null;
    minInrPaise: bigint | undefined;
    maxInrPaise: bigint | undefined;
    olderThanHours: number | undefined;
    bank: string | undefined;
    limit: number;
  },
): Promise<BatchCandidateRow[]> {
  const conditions = [
    sql`w.status = 'pending'`,
    sql`w.user_id <> ${options.adminUserId}`,
    sql`w.user_id not in (${FROZEN_USERS})`,
    sql`w.user_id not in (${OPEN_INCIDENT_USERS})`,
  ];
  if (options.largestBatchableInrPaise !== null) conditions.push(sql`w.amount_inr_paise <= ${options.largestBatchableInrPaise}`);
  if (options.minInrPaise !== undefined) conditions.push(sql`w.amount_inr_paise >= ${options.minInrPaise}`);
  if (options.maxInrPaise !== undefined) conditions.push(sql`w.amount_inr_paise <= ${options.maxInrPaise}`);
  if (options.olderThanHours !== undefined) conditions.push(sql`w.created_at <= now() - make_interval(hours => ${options.olderThanHours})`);
  if (options.bank) conditions.push(sql`w.bank_name ilike ${`%${options.bank.replace(/[\\%_]/g, (character) => `\\${character}`)}%`}`);
  const found = await db.execute<{
    id: string;
    reference: string;
    customer_name: string;
    customer_email: string;
    amount_inr_paise: string;
    tds_inr_paise: string;
    bank_name: string;
    account_number: string;
    upi_id: string | null;
    created_at: Date;
    total_matching: number;
  }>(sql`
    select w.id, w.reference, p.name as customer_name, u.email as customer_email, w.amount_inr_paise::text as amount_inr_paise,
      w.tds_inr_paise::text as tds_inr_paise, w.bank_name, w.account_number, w.upi_id, w.created_at,
      (count(*) over ())::int as total_matching
    from withdrawal_requests w join users u on u.id = w.user_id join profiles p on p.user_id = w.user_id
    where ${sql.join(conditions, sql` and `)}
    order by w.created_at, w.id
    limit ${options.limit}`);
  return found.rows.map((row) => ({
    id: row.id,
    reference: row.reference,
    customerName: row.customer_name,
    customerEmail: row.customer_email,
    amountInrPaise: BigInt(row.amount_inr_paise),
    tdsInrPaise: BigInt(row.tds_inr_paise),
    bankName: row.bank_name,
    accountNumber: row.account_number,
    upiId: row.upi_id,
    createdAt: new Date(row.created_at),
    totalMatching: row.total_matching,
  }));
}
