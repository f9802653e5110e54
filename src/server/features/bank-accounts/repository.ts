import { and, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { bankAccounts, profiles, withdrawalRequests } from '../../db/schema.ts';

export type BankAccountRow = typeof bankAccounts.$inferSelect;
export type BankAccountValues = Pick<BankAccountRow, 'accountHolderName' | 'accountNumber' | 'bankName' | 'branchName' | 'ifscCode' | 'upiId'>;
/** What an update may set besides the details: the bank's check of them (decision 054) and an admin's decision on it (decision 057). */
type CheckValues = Pick<BankAccountRow, 'payeeCheck' | 'validationId' | 'acceptedBy' | 'acceptedAt' | 'rejectedBy' | 'rejectedAt' | 'rejectionReason'>;

// Written out in SQL: drizzle leaves columns unqualified in a one-table select, and an unqualified
// "id" inside this subquery would silently mean withdrawal_requests.id.
const hasPendingWithdrawal = sql<boolean>`exists (
  select 1 from withdrawal_requests pending
  where pending.bank_account_id = bank_accounts.id and pending.status in ('pending', 'processing')
)`;

export async function listByUser(db: Executor, userId: string): Promise<(BankAccountRow & { hasPendingWithdrawal: boolean })[]> {
  const rows = await db
    .select({ account: bankAccounts, hasPendingWithdrawal })
    .from(bankAccounts)
    .where(eq(bankAccounts.userId, userId))
    .orderBy(desc(bankAccounts.createdAt), desc(bankAccounts.id));
  return rows.map((row) => ({ ...row.account, hasPendingWithdrawal: row.hasPendingWithdrawal }));
}

/** Serializes a customer's bank-account changes (for the per-customer limit). */
export async function lockOwner(db: Executor, userId: string): Promise<void> {
  await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.userId, userId)).for('update');
}

export async function countByUser(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(bankAccounts)
    .where(eq(bankAccounts.userId, userId));
  return row?.count ?? 0;
}

export async function insert(db: Executor, userId: string, values: BankAccountValues): Promise<BankAccountRow> {
  const [row] = await db
    .insert(bankAccounts)
    .values({ userId, ...values })
    .returning();
  if (!row) throw new Error('insert into bank_accounts returned no row');
  return row;
}

/**
 * The customer's own account, or nothing: another customer's id is not found.
 * `share` keeps it from being deleted until the transaction ends; `update`
 * waits for transactions holding `share`.
 */
export async function findOwned(db: Executor, userId: string, id: string, lock?: 'share' | 'update'): Promise<BankAccountRow | undefined> {
  const query = db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.userId, userId)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

/**
 * Changes the account. A change of any field that decides where money goes (account number, IFSC,
 * UPI id, holder name) restarts its cooling-off (details_changed_at, decision 038); the bank's name does not.
 */
export async function update(db: Executor, userId: string, id: string, values: Partial<BankAccountValues & CheckValues>): Promise<BankAccountRow | undefined> {
  const detailChanges: SQL[] = [];
  if (values.accountNumber !== undefined) detailChanges.push(sql`${bankAccounts.accountNumber} is distinct from ${values.accountNumber}`);
  if (values.ifscCode !== undefined) detailChanges.push(sql`${bankAccounts.ifscCode} is distinct from ${values.ifscCode}`);
  if (values.upiId !== undefined) detailChanges.push(sql`${bankAccounts.upiId} is distinct from ${values.upiId}`);
  if (values.accountHolderName !== undefined) detailChanges.push(sql`${bankAccounts.accountHolderName} is distinct from ${values.accountHolderName}`);
  const detailChanged = sql.join(detailChanges, sql` or `);
  // The same change clears a payout-failure flag (decision 044): the customer has looked at the details again.
  const detailsChangedAt =
    detailChanges.length === 0
      ? {}
      : {
          detailsChangedAt: sql`case when ${detailChanged} then now() else ${bankAccounts.detailsChangedAt} end`,
          flaggedAt: sql`case when ${detailChanged} then null else ${bankAccounts.flaggedAt} end`,
          flagReason: sql`case when ${detailChanged} then null else ${bankAccounts.flagReason} end`,
        };
  const [row] = await db
    .update(bankAccounts)
    .set({ ...values, ...detailsChangedAt, updatedAt: sql`now()` })
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.userId, userId)))
    .returning();
  return row;
}

/**
 * Flags the account a failed payout went to, while it still has the details the payout used (an edit
 * since then cleared the problem); an earlier flag keeps its time and reason. Answers whether a row was flagged.
 */
export async function flagForFailedPayout(
  db: Executor,
  payee: { bankAccountId: string; accountNumber: string; ifscCode: string },
  flagReason: string,
): Promise<boolean> {
  const flagged = await db
    .update(bankAccounts)
    .set({ flaggedAt: sql`coalesce(${bankAccounts.flaggedAt}, now())`, flagReason: sql`coalesce(${bankAccounts.flagReason}, ${flagReason})` })
    .where(and(eq(bankAccounts.id, payee.bankAccountId), eq(bankAccounts.accountNumber, payee.accountNumber), eq(bankAccounts.ifscCode, payee.ifscCode)))
    .returning({ id: bankAccounts.id });
  return flagged.length === 1;
}

export async function hasPendingWithdrawalFor(db: Executor, bankAccountId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: withdrawalRequests.id })
    .from(withdrawalRequests)
    .where(and(eq(withdrawalRequests.bankAccountId, bankAccountId), inArray(withdrawalRequests.status, ['pending', 'processing'])))
    .limit(1);
  return row !== undefined;
}

export async function remove(db: Executor, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(bankAccounts)
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.userId, userId)))
    .returning({ id: bankAccounts.id });
  return deleted.length === 1;
}

/** Another of the user's accounts with this account number and IFSC code (IFSC compared without letter case). */
export async function findDuplicate(db: Executor, userId: string, accountNumber: string, ifscCode: string, exceptId?: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: bankAccounts.id })
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.userId, userId),
        eq(bankAccounts.accountNumber, accountNumber),
        sql`upper(${bankAccounts.ifscCode}) = upper(${ifscCode})`,
        exceptId === undefined ? undefined : ne(bankAccounts.id, exceptId),
      ),
    )
    .limit(1);
  return row?.id;
}
