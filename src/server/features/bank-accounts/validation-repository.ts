import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { BLOCKING_PAYEE_CHECKS, type PayeeCheck } from '#shared/contracts/bank-accounts';
import type { Executor } from '../../db/client.ts';
import { bankAccounts, kycRecords, payeeValidations, profiles, users } from '../../db/schema.ts';
import { cursorTimestamp, type PageCursor } from '../../platform/pagination/cursor.ts';

export type PayeeValidationRow = typeof payeeValidations.$inferSelect;
type BankAccountRow = typeof bankAccounts.$inferSelect;

export async function insertValidation(
  db: Executor,
  values: Pick<PayeeValidationRow, 'userId' | 'bankAccountId' | 'accountHolderName' | 'accountNumber' | 'ifscCode'> & { vpa?: string | null },
): Promise<PayeeValidationRow> {
  const [row] = await db.insert(payeeValidations).values(values).returning();
  if (!row) throw new Error('insert into payee_validations returned no row');
  return row;
}

/**
 * Bank account validations asked for this customer in the last 24 hours, deleted payees' included. A UPI id's
 * validation follows at most one of them, so it is not counted apart.
 */
export async function countRecent(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(payeeValidations)
    .where(and(eq(payeeValidations.userId, userId), isNull(payeeValidations.vpa), sql`${payeeValidations.createdAt} > now() - interval '24 hours'`));
  return row?.count ?? 0;
}

/**
 * Takes validations without a final state whose time has come (`only`: just that one, whatever its time), and
 * moves their next attempt `leaseSeconds` ahead, so that no other process takes them meanwhile.
 */
export async function claim(db: Executor, options: { limit: number; leaseSeconds: number; only?: string }): Promise<PayeeValidationRow[]> {
  const chosen =
    options.only === undefined
      ? sql`next_attempt_at <= now()`
      : // The request that saved the payee asks at once; a claim by a worker since has moved next_attempt_at ahead.
        sql`id = ${options.only} and attempts = 0`;
  const claimed = await db.execute<{ id: string }>(sql`
    with due as (
      select id from payee_validations
      where status in ('queued', 'created') and ${chosen}
      order by next_attempt_at, id
      limit ${options.limit}
      for update skip locked
    )
    update payee_validations set next_attempt_at = now() + make_interval(secs => ${options.leaseSeconds}), attempts = attempts + 1
    where id in (select id from due)
    returning id`);
  const ids = claimed.rows.map((row) => row.id);
  if (ids.length === 0) return [];
  return db.select().from(payeeValidations).where(inArray(payeeValidations.id, ids)).orderBy(asc(payeeValidations.nextAttemptAt));
}

export async function findForUpdate(db: Executor, where: { id: string } | { providerValidationId: string }): Promise<PayeeValidationRow | undefined> {
  const condition = 'id' in where ? eq(payeeValidations.id, where.id) : eq(payeeValidations.providerValidationId, where.providerValidationId);
  const [row] = await db.select().from(payeeValidations).where(condition).for('update');
  return row;
}

export async function markCreated(db: Executor, id: string, providerValidationId: string, nextAttemptSeconds: number): Promise<void> {
  await db
    .update(payeeValidations)
    .set({ status: 'created', providerValidationId, lastError: null, nextAttemptAt: sql`now() + make_interval(secs => ${nextAttemptSeconds})` })
    .where(eq(payeeValidations.id, id));
}

export async function reschedule(db: Executor, id: string, nextAttemptSeconds: number, lastError: string | null): Promise<void> {
  await db
    .update(payeeValidations)
    .set({ lastError: lastError?.slice(0, 500) ?? null, nextAttemptAt: sql`now() + make_interval(secs => ${nextAttemptSeconds})` })
    .where(eq(payeeValidations.id, id));
}

export async function finish(
  db: Executor,
  id: string,
  result: Pick<PayeeValidationRow, 'status' | 'accountStatus' | 'registeredName' | 'nameVerdict' | 'nameScore' | 'failureReason'> & {
    providerValidationId: string | null;
  },
): Promise<void> {
  await db
    .update(payeeValidations)
    .set({
      ...result,
      registeredName: result.registeredName?.slice(0, 200) ?? null,
      failureReason: result.failureReason?.slice(0, 500) ?? null,
      completedAt: sql`now()`,
    })
    .where(eq(payeeValidations.id, id));
}

/** The names the bank's registered name is compared with: the PAN's registered name (checked by KYC) and the profile's. */
export async function customerNames(db: Executor, userId: string): Promise<{ profileName: string | null; panRegisteredName: string | null }> {
  const [row] = await db
    .select({ profileName: profiles.name, panRegisteredName: kycRecords.panRegisteredName })
    .from(profiles)
    .leftJoin(kycRecords, eq(kycRecords.userId, profiles.userId))
    .where(eq(profiles.userId, userId));
  return { profileName: row?.profileName ?? null, panRegisteredName: row?.panRegisteredName ?? null };
}

/** Sets the payee's check when `validationId` is still the validation of its current details; answers the payee, or undefined. */
export async function setCheckOf(db: Executor, validationId: string, payeeCheck: PayeeCheck): Promise<BankAccountRow | undefined> {
  const [row] = await db
    .update(bankAccounts)
    .set({ payeeCheck, updatedAt: sql`now()` })
    .where(and(eq(bankAccounts.validationId, validationId), eq(bankAccounts.payeeCheck, 'checking')))
    .returning();
  return row;
}

/** The payee still being checked by this validation, locked. */
export async function findCheckingPayeeOf(db: Executor, validationId: string): Promise<BankAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.validationId, validationId), eq(bankAccounts.payeeCheck, 'checking')))
    .for('update');
  return row;
}

/** Makes `nextValidationId` the payee's current validation, in place of `previousValidationId`. */
export async function moveCheckTo(db: Executor, bankAccountId: string, previousValidationId: string, nextValidationId: string): Promise<void> {
  await db
    .update(bankAccounts)
    .set({ validationId: nextValidationId, updatedAt: sql`now()` })
    .where(and(eq(bankAccounts.id, bankAccountId), eq(bankAccounts.validationId, previousValidationId)));
}

/** The UPI id's validation, not yet sent, that followed this bank account's validation as its payee's current one. */
export async function queuedVpaValidationAfter(db: Executor, validationId: string): Promise<string | undefined> {
  const result = await db.execute<{ id: string }>(sql`
    select next.id from payee_validations previous
    join bank_accounts account on account.id = previous.bank_account_id
    join payee_validations next on next.id = account.validation_id
    where previous.id = ${validationId} and next.id <> previous.id and next.vpa is not null and next.status = 'queued'`);
  return result.rows[0]?.id;
}

export async function findPayeeForUpdate(db: Executor, bankAccountId: string): Promise<BankAccountRow | undefined> {
  const [row] = await db.select().from(bankAccounts).where(eq(bankAccounts.id, bankAccountId)).for('update');
  return row;
}

export async function acceptPayee(db: Executor, bankAccountId: string, adminUserId: string): Promise<void> {
  await db
    .update(bankAccounts)
    .set({ payeeCheck: 'accepted', acceptedBy: adminUserId, acceptedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(bankAccounts.id, bankAccountId));
}

export async function rejectPayee(db: Executor, bankAccountId: string, rejection: { adminUserId: string; reason: string }): Promise<void> {
  await db
    .update(bankAccounts)
    .set({ payeeCheck: 'rejected', rejectedBy: rejection.adminUserId, rejectedAt: sql`now()`, rejectionReason: rejection.reason, updatedAt: sql`now()` })
    .where(eq(bankAccounts.id, bankAccountId));
}

export interface AdminPayeeRow {
  account: BankAccountRow;
  customerName: string;
  customerEmail: string;
  validation: PayeeValidationRow | null;
}

/** Payees with their owner's name and e-mail and the validation of their current details, with any `extra` columns. */
function selectAdminPayees<Extra extends SelectedFields>(db: Executor, extra: Extra) {
  return db
    .select({ account: bankAccounts, customerName: profiles.name, customerEmail: users.email, validation: payeeValidations, ...extra })
    .from(bankAccounts)
    .innerJoin(users, eq(users.id, bankAccounts.userId))
    .innerJoin(profiles, eq(profiles.userId, bankAccounts.userId))
    .leftJoin(payeeValidations, eq(payeeValidations.id, bankAccounts.validationId));
}

export async function listAdminPayees(db: Executor, userId: string, limit: number): Promise<AdminPayeeRow[]> {
  return selectAdminPayees(db, {}).where(eq(bankAccounts.userId, userId)).orderBy(desc(bankAccounts.createdAt), desc(bankAccounts.id)).limit(limit);
}

/**
 * The review queue, oldest first by when the payee last changed (its check's answer), paged by that time and the id:
 * the cursor carries the last row's `updated_at` at microsecond precision.
 */
export async function listPayeesForReview(db: Executor, cursor: PageCursor | undefined, limit: number): Promise<(AdminPayeeRow & { cursorAt: string })[]> {
  return selectAdminPayees(db, { cursorAt: cursorTimestamp(bankAccounts.updatedAt) })
    .where(
      and(
        inArray(bankAccounts.payeeCheck, [...BLOCKING_PAYEE_CHECKS]),
        cursor === undefined ? undefined : sql`(${bankAccounts.updatedAt}, ${bankAccounts.id}) > (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`,
      ),
    )
    .orderBy(asc(bankAccounts.updatedAt), asc(bankAccounts.id))
    .limit(limit);
}

export async function findAdminPayee(db: Executor, bankAccountId: string): Promise<AdminPayeeRow | undefined> {
  const [row] = await selectAdminPayees(db, {}).where(eq(bankAccounts.id, bankAccountId));
  return row;
}
